// The in-cluster client configuration, written here rather than taken from client-node's KubeConfig: the programs that
// run in every control plane (the ignition server) then load a few KiB instead of client-node's ~2.8 MB, which cost
// them ~25 MiB of resident memory each.
import { readFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { join } from 'node:path';
import type { ClusterAuth } from './auth.ts';

/** Where the kubelet mounts a pod's service-account token and the cluster's CA. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
/** How long a token read from its file is used before the file is read again (the kubelet renews it well before). */
const TOKEN_REREAD_MS = 60_000;

/** The URL of the API server of the cluster this pod runs in (`KUBERNETES_SERVICE_HOST`/`_PORT`); undefined outside one. */
export function inClusterServer(env: NodeJS.ProcessEnv): string | undefined {
  const host = env['KUBERNETES_SERVICE_HOST'] ?? '';
  if (host === '') return undefined;
  return `https://${isIPv6(host) ? `[${host}]` : host}:${env['KUBERNETES_SERVICE_PORT'] ?? '443'}`;
}

/**
 * The API server of the cluster this pod runs in (`KUBERNETES_SERVICE_HOST`/`_PORT`), verified with the mounted CA and
 * authenticated with the service-account token, read again every minute so a token the kubelet renewed is used.
 */
export function inClusterAuth(env: NodeJS.ProcessEnv, dir = SERVICE_ACCOUNT_DIR, now: () => number = Date.now): ClusterAuth {
  const server = inClusterServer(env);
  if (server === undefined) throw new Error('not in a cluster: KUBERNETES_SERVICE_HOST is not set');
  const ca = readFileSync(join(dir, 'ca.crt'));
  let token = { value: '', readAt: -Infinity };
  const currentToken = (): string => {
    if (now() - token.readAt >= TOKEN_REREAD_MS) token = { value: readFileSync(join(dir, 'token'), 'utf8').trim(), readAt: now() };
    return token.value;
  };
  return {
    getCurrentCluster: () => ({ server }),
    applyToHTTPSOptions: (options) => {
      options.ca = ca;
      options.headers = { ...options.headers, authorization: `Bearer ${currentToken()}` };
      return Promise.resolve();
    },
  };
}
