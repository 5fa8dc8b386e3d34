import { KubeConfig } from '@kubernetes/client-node';
import type { ClusterAuth } from './auth.ts';
import { inClusterAuth, inClusterServer } from './in-cluster.ts';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from './client.ts';

/** Which kubeconfig file to load: the flag, else the first entry of `KUBECONFIG`, else `~/.kube/config` if present. */
function kubeconfigPath(kubeconfigFlag: string, env: NodeJS.ProcessEnv): string | undefined {
  if (kubeconfigFlag !== '') return kubeconfigFlag;
  const fromEnv = (env['KUBECONFIG'] ?? '').split(':').find((p) => p !== '');
  if (fromEnv !== undefined) return fromEnv;
  const home = join(env['HOME'] ?? homedir(), '.kube', 'config');
  return existsSync(home) ? home : undefined;
}

/** Raised when the management cluster's kubeconfig is missing, unreadable or names no cluster. */
export class KubeconfigError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'KubeconfigError';
  }
}

/** Whether {@link managementClient} would use the in-cluster service account (no kubeconfig file to be found). */
export const runsInCluster = (kubeconfigFlag: string, env: NodeJS.ProcessEnv): boolean => kubeconfigPath(kubeconfigFlag, env) === undefined && env['KUBERNETES_SERVICE_HOST'] !== undefined;

/**
 * A client for the management cluster: from `--kubeconfig` when given, else `KUBECONFIG` (its first file), else
 * `~/.kube/config`, else the in-cluster service account. Throws one line when none can be found or parsed.
 */
export function managementClient(kubeconfigFlag: string, env: NodeJS.ProcessEnv): KubeClient {
  const path = kubeconfigPath(kubeconfigFlag, env);
  if (path === undefined && !runsInCluster(kubeconfigFlag, env)) throw new KubeconfigError('no kubeconfig found for the management cluster: pass --kubeconfig, set KUBECONFIG, or create ~/.kube/config');
  let config: ClusterAuth;
  try {
    // In a pod without a kubeconfig, client-node is not even constructed (see in-cluster.ts).
    config = path === undefined ? inClusterAuth(env) : loadedFile(path);
  } catch (error) {
    const which = path === undefined ? ' (in-cluster)' : ` ${path}`;
    throw new KubeconfigError(`cannot load the management cluster kubeconfig${which}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (config.getCurrentCluster() === null) throw new KubeconfigError('no management cluster configured: pass --kubeconfig or set KUBECONFIG');
  return KubeClient.fromConfig(config);
}

function loadedFile(path: string): KubeConfig {
  const config = new KubeConfig();
  config.loadFromFile(path);
  return config;
}

/** The namespace the kubeconfig's current context names (as kubectl's default), or undefined. */
export function contextNamespace(kubeconfigFlag: string, env: NodeJS.ProcessEnv): string | undefined {
  const path = kubeconfigPath(kubeconfigFlag, env);
  if (path === undefined) return undefined;
  const config = loadedFile(path);
  const namespace = config.getContextObject(config.getCurrentContext())?.namespace;
  return namespace === undefined || namespace === '' ? undefined : namespace;
}

/** The CA (PEM) a kubeconfig file's current cluster is verified with; empty when it names none. */
export function caOfKubeconfigFile(path: string): string {
  const config = new KubeConfig();
  config.loadFromFile(path);
  return Buffer.from(config.getCurrentCluster()?.caData ?? '', 'base64').toString('utf8');
}

/** Where an API server is and how it is verified: what a kubeconfig built for another user's token needs. */
export interface ApiServerTarget {
  readonly server: string;
  /** The CA bundle (PEM) the server's certificate is verified with; empty: the system's CAs. */
  readonly caPem: string;
}

/** Where {@link apiServerTarget} reads CA files, and the CA of the cluster a pod runs in. */
export interface CaFiles {
  readonly read: (path: string) => string;
  readonly inCluster: string;
}

/**
 * The API server of `--kubeconfig` (or `KUBECONFIG`, `~/.kube/config`): its current cluster only, never its user.
 * In a pod without a kubeconfig: the cluster's own API server (`KUBERNETES_SERVICE_HOST`), verified with the CA in
 * `ca.inCluster`.
 */
export function apiServerTarget(kubeconfigFlag: string, env: NodeJS.ProcessEnv, ca: CaFiles): ApiServerTarget {
  const path = kubeconfigPath(kubeconfigFlag, env);
  if (path === undefined) {
    const server = inClusterServer(env);
    if (server === undefined) throw new KubeconfigError('no API server to sign users in to: pass --kubeconfig (its cluster is used, not its user), or run in a pod');
    return { server, caPem: ca.read(ca.inCluster) };
  }
  let cluster;
  try {
    cluster = loadedFile(path).getCurrentCluster();
  } catch (error) {
    throw new KubeconfigError(`cannot load the kubeconfig ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (cluster === null) throw new KubeconfigError(`the kubeconfig ${path} names no current cluster`);
  const caPem = cluster.caData !== undefined ? Buffer.from(cluster.caData, 'base64').toString('utf8') : cluster.caFile !== undefined ? ca.read(cluster.caFile) : '';
  return { server: cluster.server, caPem };
}
