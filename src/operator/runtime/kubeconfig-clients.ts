import { parse, stringify } from 'yaml';
import { KubeClient } from '../../kube/client.ts';
import { sha256Hex } from '../../lib/hash.ts';

interface Kubeconfig {
  users?: Array<{ name: string }>;
  contexts?: Array<{ name: string; context?: { user?: string } }>;
}

/**
 * Gives every user entry of a kubeconfig a name unique to its owner and purpose. client-node's exec/OIDC credential
 * caches are keyed by user name across every KubeConfig in the process, so two kubeconfigs that both call their
 * user "admin" would otherwise share (and leak) each other's tokens.
 */
export function withUniqueUserNames(kubeconfig: string, owner: string, purpose = 'infra'): string {
  const config = parse(kubeconfig) as Kubeconfig;
  const renamed = new Map((config.users ?? []).map((u, i) => [u.name, `hcp-${purpose}-${owner}-${String(i)}`]));
  const rename = (name: string): string => renamed.get(name) ?? name;
  for (const user of config.users ?? []) user.name = rename(user.name);
  for (const context of config.contexts ?? []) {
    if (context.context?.user !== undefined) context.context.user = rename(context.context.user);
  }
  return stringify(config);
}

/**
 * One client per HostedCluster from a kubeconfig it keeps in a Secret: for its external infrastructure cluster
 * (`purpose` "infra"), or for the hosted cluster itself ("guest", the control plane's admin kubeconfig). Unlike
 * upstream's cache, a changed kubeconfig (a rotated token, a renewed certificate) replaces the client at once,
 * without a restart.
 */
export class KubeconfigClients {
  private readonly clients = new Map<string, { hash: string; client: KubeClient }>();

  private readonly purpose: 'infra' | 'guest';

  constructor(purpose: 'infra' | 'guest') {
    this.purpose = purpose;
  }

  /** The client for `owner` (a HostedCluster uid) from its current kubeconfig text. */
  clientFor(owner: string, kubeconfig: string): KubeClient {
    const hash = sha256Hex(kubeconfig);
    const cached = this.clients.get(owner);
    if (cached?.hash === hash) return cached.client;
    cached?.client.close();
    const client = KubeClient.fromKubeconfigText(withUniqueUserNames(kubeconfig, owner, this.purpose));
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
