import type { HostedCluster, HostedControlPlane, NodePool } from '../../../api/index.ts';
import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { upsertCondition, type ConditionUpdate } from '../../../lib/conditions.ts';
import type { BootImage } from '../../../platform/kubevirt/boot-image.ts';
import type { VirtualMachineTemplate } from '../../../platform/kubevirt/virtual-machine-types.ts';
import type { ReleaseInfo } from '../../../release/info.ts';
import type { ReleaseAccess, ReleaseProvider } from '../../../release/provider.ts';
import type { SourceSecret } from '../../../render/hostedcluster/secrets.ts';
import type { Clock } from '../../../runtime/clock.ts';
import type { EventRecorder } from '../../../runtime/events.ts';
import type { Logger } from '../../../runtime/logger.ts';
import type { OrderedPhase } from '../run-phases.ts';
import type { KubeconfigClients } from '../../../runtime/kubeconfig-clients.ts';
import type { Expectations } from './expectations.ts';
import type { GuestCluster, GuestClusters } from './guest-clusters.ts';
import type { HealthVerdict } from './autorepair.ts';
import type { PoolMachine } from './pool-machines.ts';
import type { InPlaceProgress } from './in-place.ts';
import type { InfraCaches } from './infra-caches.ts';
import type { InfraTarget } from './infra-target.ts';

/** What the NodePool controller needs from outside, injected. */
export interface NodePoolDeps {
  /** The management cluster. */
  readonly client: KubeClient;
  readonly clock: Clock;
  /** Random bytes (tokens, machine name suffixes). */
  readonly random: (n: number) => Uint8Array;
  readonly events: EventRecorder;
  readonly releases: ReleaseProvider;
  /** The HostedCluster cache, by `namespace/name`. */
  readonly hostedCluster: (key: string) => HostedCluster | undefined;
  /**
   * The HostedControlPlane cache, by `namespace/name`: a pool works in a control-plane namespace only once its plane is
   * there.
   */
  readonly hostedControlPlane: (key: string) => HostedControlPlane | undefined;
  /** The shared cache of the operator's Secrets in control-plane namespaces, by `namespace/name`. */
  readonly controlPlaneSecret: (key: string) => SourceSecret | undefined;
  /** The ConfigMaps cache (`spec.config` payloads, the trust bundle), by `namespace/name`. */
  readonly configMap: (key: string) => (KubeObject & { data?: Record<string, string> }) | undefined;
  /** Every Secret of that cache (the janitor looks for a pool's old bootstrap Secrets). */
  readonly controlPlaneSecrets: () => readonly (KubeObject & SourceSecret)[];
  /** External infrastructure clients, shared with the HostedCluster controller (one per HostedCluster). */
  readonly infraClients: KubeconfigClients;
  readonly infraCaches: InfraCaches;
  /** The hosted clusters: a client (their control planes' admin kubeconfigs) and a Node informer each. */
  readonly guestClusters: GuestClusters;
  /**
   * The kubeconfig that reaches a pool's hosted cluster: its control plane's admin kubeconfig (tests point it
   * elsewhere).
   */
  readonly guestKubeconfig: (scope: Scope) => string | undefined;
  /**
   * Whether every hosted cluster is the operator's stand-in (`hostedClusterKubeconfig`), which answers by definition.
   */
  readonly guestOverridden: boolean;
  /**
   * The machine count of each autoscaled pool (by `namespace/name`), fixed when first seen and kept within its bounds.
   */
  readonly autoscaledReplicas: Map<string, number>;
  /**
   * The last drain message told per machine (`<pool>/<machine>`), so a waiting drain is reported once, not per retry.
   */
  readonly drainMessages: Map<string, string>;
  /** Per pool generation, how often in a row the hosted cluster did not take its bootstrap token (retries back off). */
  readonly guestRetries?: Map<string, number>;
  /** Creations and deletions not yet seen in the caches, per NodePool. */
  readonly expectations: Expectations;
  /** What this operator last applied per object (a fingerprint), to skip identical re-applies of Secrets. */
  readonly lastApplied: Map<string, string>;
  /** How long deletion retries an unreachable infrastructure before the NodePool goes anyway (default 10 minutes). */
  readonly infraDeleteGraceMs?: number;
}

/** The key of an object in {@link NodePoolDeps.lastApplied}. */
export const appliedKey = (kind: string, namespace: string, name: string): string => `${kind}/${namespace}/${name}`;

/** The bootstrap data of a NodePool's current generation. */
export interface Bootstrap {
  /** Suffix of the token and user-data Secrets' names. */
  readonly configHash: string;
  /** The copy of the user data beside the VMs, which their cloud-init volume reads. */
  readonly userDataSecretName: string;
}

/** One generation of a NodePool: what every machine made now is made from. */
export interface Generation {
  readonly template: VirtualMachineTemplate;
  /** `machine-template-hash` of the machines of this generation. */
  readonly templateHash: string;
}

/** One reconcile's state: the NodePool, what the phases learnt, and the conditions they set. */
export interface Scope {
  readonly deps: NodePoolDeps;
  readonly logger: Logger;
  np: NodePool;
  readonly now: Date;
  readonly conditions: ConditionUpdate[];
  hc?: HostedCluster;
  controlPlaneNamespace?: string;
  release?: ReleaseInfo;
  /** What the cluster's releases are read with (pull secret, mirrors, trust bundle), once computed. */
  releaseAccess?: ReleaseAccess;
  bootImage?: BootImage;
  infra?: InfraTarget;
  /**
   * The boot-image cache DataVolume in use: what status said, until the cache phase decides (none with caching off).
   */
  cacheName?: string;
  bootstrap?: Bootstrap;
  generation?: Generation;
  /** The hosted cluster, once its control plane has an admin kubeconfig. */
  guest?: GuestCluster;
  /** What auto-repair found, when it is on. */
  health?: HealthVerdict & { readonly problems: readonly string[] };
  /** What the machines phase found, for status. */
  machines?: MachineSummary;
  /** An InPlace pool's update, once the in-place phase looked at it. */
  inPlace?: InPlaceProgress;
}

/** The pool's machines as the machines phase found them. */
export interface MachineSummary {
  /** Machines not being deleted. */
  readonly live: readonly PoolMachine[];
  readonly total: number;
  /** Machines whose Node is Ready (available). */
  readonly ready: number;
  /** Machines of the current generation. */
  readonly current: number;
  readonly desired: number;
  /** Machines chosen for deletion whose drain is not finished, with what each waits for. */
  readonly draining: ReadonlyArray<{ readonly name: string; readonly message: string }>;
}

export type { PhaseOutcome } from '../run-phases.ts';
/** A named step of the reconcile; phases run in order. */
export type Phase = OrderedPhase<Scope>;

/** What the phases put on the scope for the later ones (the HostedCluster, where the VMs live, the bootstrap data…). */
type Produced = 'hc' | 'infra' | 'bootImage' | 'bootstrap' | 'generation' | 'machines' | 'guest';

/**
 * What an earlier phase put on the scope, typed. A phase that runs before the one that sets it is a mistake in the
 * order of {@link PHASES}, said as such rather than met later as an undefined.
 */
export function produced<K extends Produced>(scope: Scope, key: K): NonNullable<Scope[K]> {
  const value = scope[key];
  if (value === undefined) throw new Error(`NodePool reconcile: ${key} is read before the phase that sets it has run`);
  return value;
}

/** Records a condition for the status written at the end of the reconcile. */
export function setCondition(scope: Scope, update: Omit<ConditionUpdate, 'observedGeneration'>): void {
  upsertCondition(scope.conditions, update, scope.np.metadata.generation);
}

/** `<namespace>/<name>` of a NodePool: the value of the nodePool annotation on everything made for it. */
export const nodePoolKeyOf = (np: Pick<NodePool, 'metadata'>): string => `${np.metadata.namespace ?? ''}/${np.metadata.name ?? ''}`;

