import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What another process needs to use a running local cluster: where it is, how to trust it and the admin
 * kubeconfig. Serialisable, so a test runner can hand it to test processes.
 */
export interface ClusterAccess {
  readonly name: string;
  readonly dir: string;
  readonly server: string;
  readonly adminKubeconfig: string;
  /** Path of the kubectl binary matching the server. */
  readonly kubectl: string;
}

/** The CA that signed the cluster's serving certificate. */
export const serverCaPem = (access: ClusterAccess): string => readFileSync(join(access.dir, 'pki', 'server-ca.crt'), 'utf8');

/** The client CA (certificate and key) that signs user certificates. */
export const clientCaPem = (access: ClusterAccess): { cert: string; key: string } => ({
  cert: readFileSync(join(access.dir, 'pki', 'client-ca.crt'), 'utf8'),
  key: readFileSync(join(access.dir, 'pki', 'client-ca.key'), 'utf8'),
});
