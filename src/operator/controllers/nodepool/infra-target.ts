import type { KubeClient } from '../../../kube/client.ts';
import type { InfraCache } from './infra-caches.ts';

/** Where a NodePool's VMs live. */
export interface InfraTarget {
  readonly client: KubeClient;
  readonly namespace: string;
  readonly external: boolean;
  readonly cache: InfraCache;
}
