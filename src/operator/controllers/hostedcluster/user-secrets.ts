import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import type { SourceSecret } from '../../../render/hostedcluster/secrets.ts';
import type { Clock } from '../../../runtime/clock.ts';
import { changes, Informer } from '../../../runtime/informer.ts';
import type { Logger } from '../../../runtime/logger.ts';

/** A Secret a HostedCluster references, as the cache holds it. */
export type UserSecret = KubeObject & SourceSecret;

/** Options of {@link UserSecrets}. */
export interface UserSecretsOptions {
  readonly client: KubeClient;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Called on every change of a cached Secret (its namespace and name), to reconcile the clusters that use it. */
  readonly onChange: (namespace: string, name: string) => void;
}

/**
 * Secrets of the kinds nobody references from a HostedCluster are not cached: every service account's token and every
 * Helm release of a busy namespace would otherwise sit in the operator's memory.
 */
const NOT_REFERENCED = 'type!=kubernetes.io/service-account-token,type!=helm.sh/release.v1';

/**
 * The Secrets HostedClusters reference (pull secret, SSH key, etcd encryption key, infrastructure and restore
 * credentials), from one informer per namespace that holds HostedClusters, started when the first of them is
 * reconciled and stopped when the last is gone. Validation read each of them with a GET on every reconcile (1836 GETs
 * for 50 clusters in the scale bench); from the cache a steady reconcile reads none, and a rotated Secret reconciles
 * the clusters that use it (upstream's cached client does the same for every Secret of the management cluster).
 */
export class UserSecrets {
  private readonly informers = new Map<string, Informer<UserSecret>>();
  private readonly o: UserSecretsOptions;

  constructor(options: UserSecretsOptions) {
    this.o = options;
  }

  /** The Secret, from the namespace's cache once it has loaded; read directly until then. */
  async get(namespace: string, name: string): Promise<UserSecret | undefined> {
    const informer = this.informerOf(namespace);
    if (informer.hasSynced) return informer.get(`${namespace}/${name}`);
    return this.o.client.tryGet<UserSecret>({ apiVersion: 'v1', kind: 'Secret', name, namespace });
  }

  /** Stops the caches of namespaces no HostedCluster is in any more. */
  retain(namespaces: ReadonlySet<string>): void {
    for (const [namespace, informer] of this.informers) {
      if (namespaces.has(namespace)) continue;
      informer.stop();
      this.informers.delete(namespace);
    }
  }

  /** Stops every cache (the leadership term ended). */
  stopAll(): void {
    this.retain(new Set());
  }

  private informerOf(namespace: string): Informer<UserSecret> {
    const existing = this.informers.get(namespace);
    if (existing !== undefined) return existing;
    const informer = new Informer<UserSecret>(this.o.client, { apiVersion: 'v1', kind: 'Secret', namespace, fieldSelector: NOT_REFERENCED }, { clock: this.o.clock, logger: this.o.logger });
    // Not for the first list (the clusters are being reconciled already), nor for a change of metadata only.
    informer.onEvent((event) => {
      if (informer.hasSynced && changes(event, (secret) => [secret.type, secret.data])) this.o.onChange(namespace, event.object.metadata?.name ?? '');
    });
    this.informers.set(namespace, informer);
    informer.start();
    return informer;
  }
}
