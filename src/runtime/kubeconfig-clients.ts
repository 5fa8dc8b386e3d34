import type { KubeClient } from '../kube/client.ts';
import { untrustedClient } from '../kube/untrusted-kubeconfig.ts';
import { sha256Hex } from '../lib/hash.ts';

/**
 * One client per HostedCluster from a kubeconfig it keeps in a Secret: for its external infrastructure cluster, or
 * for the hosted cluster itself (the control plane's admin kubeconfig). Each is loaded as untrusted
 * (`untrustedClient`): the infrastructure kubeconfig is the tenant's, and nothing a tenant writes may
 * run a program or read a file in the operator. Unlike upstream's cache, a changed kubeconfig (a rotated token, a
 * renewed certificate) replaces the client at once, without a restart.
 */
export class KubeconfigClients {
  private readonly clients = new Map<string, { hash: string; client: KubeClient }>();

  /**
   * The client for `owner` (a HostedCluster uid) from its current kubeconfig text. Throws `UntrustedKubeconfigError`
   * for a kubeconfig that asks for more than inline credentials.
   */
  clientFor(owner: string, kubeconfig: string): KubeClient {
    const hash = sha256Hex(kubeconfig);
    const cached = this.clients.get(owner);
    if (cached?.hash === hash) return cached.client;
    const client = untrustedClient(kubeconfig);
    cached?.client.close();
    this.clients.set(owner, { hash, client });
    return client;
  }

  /** The client made last for `owner`, if any (deletion cleans up with it without re-reading credentials). */
  existing(owner: string): KubeClient | undefined {
    return this.clients.get(owner)?.client;
  }

  /** Drops and closes the client of a deleted HostedCluster. */
  forget(owner: string): void {
    this.clients.get(owner)?.client.close();
    this.clients.delete(owner);
  }
}
