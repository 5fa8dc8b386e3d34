import type { HostedControlPlane } from '../../../api/index.ts';
import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { upsertCondition, type ConditionUpdate } from '../../../lib/conditions.ts';
import type { KeyGenerator } from '../../../pki/keys.ts';
import type { MonitoringSettings } from './monitoring-settings.ts';
import type { HostedApiAccess } from '../hosted-api.ts';
import type { GuestCheck } from '../guest/connection.ts';

/** The last sync of a hosted cluster's objects (its fingerprint, when, the condition's message) and the last checks read from it. */
export interface GuestSyncRecord {
  readonly fingerprint: string;
  readonly at: number;
  readonly message: string;
  readonly connection?: GuestCheck;
  readonly network?: GuestCheck;
}
import type { ReleaseInfo } from '../../../release/info.ts';
import type { ReleaseProvider } from '../../../release/provider.ts';
import type { Clock } from '../../../runtime/clock.ts';
import type { KubeconfigClients } from '../../../runtime/kubeconfig-clients.ts';
import type { Logger } from '../../../runtime/logger.ts';
import type { RolloutPlan, Workload } from './rollout.ts';

/** A Secret as cached. */
export interface CachedSecret extends KubeObject {
  type?: string;
  data?: Record<string, string>;
}

/** A control-plane workload as cached: what the rollout and the readiness conditions read (see {@link Workload}). */
export type WorkloadStatus = KubeObject & Omit<Workload, 'metadata'>;

/** A Service as the endpoint discovery reads it. */
export interface ServiceStatus extends KubeObject {
  spec?: { ports?: Array<{ nodePort?: number }> };
  status?: { loadBalancer?: { ingress?: Array<{ hostname?: string; ip?: string }> } };
}

/** What the HostedControlPlane controller needs from outside, injected. */
export interface HostedControlPlaneDeps {
  readonly client: KubeClient;
  readonly clock: Clock;
  readonly random: (n: number) => Uint8Array;
  readonly keys: KeyGenerator;
  readonly releases: ReleaseProvider;
  /** The cache of the operator's Secrets in control-plane namespaces (copies, PKI, kubeconfigs), by `namespace/name`. */
  readonly secret: (key: string) => CachedSecret | undefined;
  /** The caches of the control planes' Deployments and StatefulSets, by `namespace/name`. */
  readonly deployment: (key: string) => WorkloadStatus | undefined;
  readonly statefulSet: (key: string) => WorkloadStatus | undefined;
  /** The cache of the control planes' Services, by `namespace/name`. */
  readonly service: (key: string) => ServiceStatus | undefined;
  /** What this operator last applied per HostedControlPlane uid, to skip identical re-applies. */
  readonly lastApplied: Map<string, string>;
  /**
   * Whether the management cluster assigns pods their users (OpenShift's SecurityContextConstraints); asked once per
   * operator process, as upstream reads its management cluster's capabilities once at start.
   */
  readonly assignsPodUsers: () => Promise<boolean>;
  /** The availability prober's image (the operator's own), when the operator runs from one. */
  readonly proberImage?: string;
  /** Clients of the hosted clusters (by HostedControlPlane uid) and of external infrastructure clusters. */
  readonly guestClients: KubeconfigClients;
  readonly infraClients: KubeconfigClients;
  /** A kubeconfig that replaces every control plane's own for reaching its hosted cluster (development and tests). */
  readonly guestKubeconfig?: string;
  /** How often a hosted cluster in the desired state is read again for drift (tests shorten it). */
  readonly guestDriftCheckMs?: number;
  /** How hosted API servers are reached (published when absent). */
  readonly hostedApiAccess?: HostedApiAccess;
  /** Metrics collection (ServiceMonitors); none when absent (tests of other behaviour). */
  readonly monitoring?: MonitoringSettings;
  /** Per HostedControlPlane, what was last brought into its hosted cluster, when, what status said, and the last data-plane connection check. */
  readonly guestSynced: Map<string, GuestSyncRecord>;
}

/** One reconcile's state. */
export interface Scope {
  readonly deps: HostedControlPlaneDeps;
  readonly logger: Logger;
  hcp: HostedControlPlane;
  readonly now: Date;
  readonly conditions: ConditionUpdate[];
  release?: ReleaseInfo;
  /**
   * Whether status should name the kubeadmin password: decided only once the components were applied (and a retired
   * password removed); undefined keeps what status said before.
   */
  kubeadminReported?: boolean;
  /** How far the components are from the rendered release, once they were applied this reconcile. */
  rollout?: RolloutPlan;
  /** The data of every PKI and kubeconfig Secret after the PKI phase, by Secret name. */
  readonly pki: Map<string, Record<string, string>>;
}

/** Records a condition for the status written at the end. */
export function setCondition(scope: Scope, update: Omit<ConditionUpdate, 'observedGeneration'>): void {
  upsertCondition(scope.conditions, update, scope.hcp.metadata.generation);
}

/** `namespace/name` inside the control plane's namespace. */
export const inNamespace = (scope: Scope, name: string): string => `${scope.hcp.metadata.namespace ?? ''}/${name}`;
