import { KubeConfig } from '@kubernetes/client-node';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from './client.ts';

/**
 * A client for the management cluster: from `--kubeconfig` when given, else `KUBECONFIG`, else `~/.kube/config`,
 * else the in-cluster service account. Throws one line when none can be found or parsed.
 */
export function managementClient(kubeconfigFlag: string, env: NodeJS.ProcessEnv): KubeClient {
  const config = new KubeConfig();
  try {
    if (kubeconfigFlag !== '') config.loadFromFile(kubeconfigFlag);
    else if ((env['KUBECONFIG'] ?? '') !== '' || existsSync(join(homedir(), '.kube', 'config'))) config.loadFromDefault();
    else config.loadFromCluster();
  } catch (error) {
    const which = kubeconfigFlag === '' ? '' : ` ${kubeconfigFlag}`;
    throw new Error(`cannot load the management cluster kubeconfig${which}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (config.getCurrentCluster() === null) throw new Error('no management cluster configured: pass --kubeconfig or set KUBECONFIG');
  return KubeClient.fromConfig(config);
}
