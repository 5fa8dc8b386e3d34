import type { ServiceStatus } from '../hostedcontrolplane/scope.ts';
import type { HostedCluster, HostedControlPlane, NodePool } from '../../../api/index.ts';
import type { IngressDNSCheck } from './phases/ingress-dns-check.ts';
import type { ReleaseProvider } from '../../../release/provider.ts';
import type { KubeClient } from '../../../kube/client.ts';
import { upsertCondition, type ConditionUpdate } from '../../../lib/conditions.ts';
import { HostedClusterNames } from '../../../render/hostedcluster/names.ts';
import type { SourceSecret } from '../../../render/hostedcluster/secrets.ts';
import type { KubeconfigClients } from '../../../runtime/kubeconfig-clients.ts';
import type { Clock } from '../../../runtime/clock.ts';
import type { EventRecorder } from '../../../runtime/events.ts';
import type { Logger } from '../../../runtime/logger.ts';
import type { OrderedPhase } from '../run-phases.ts';

/** What the HostedCluster controller needs from outside, injected. */
export interface HostedClusterDeps {
  readonly client: KubeClient;
  readonly clock: Clock;
  /** Cryptographically random bytes (IDs, encryption keys). */
  readonly random: (n: number) => Uint8Array;
  readonly events: EventRecorder;
  /** Reads release payloads (shared with the other controllers, and so is its cache). */
  readonly releases: ReleaseProvider;
  /** The HostedControlPlane cache, by `namespace/name`. */
  readonly hostedControlPlane: (key: string) => HostedControlPlane | undefined;
  /** The cached NodePools of a HostedCluster (same namespace, `spec.clusterName`). */
  readonly nodePools: (hc: HostedCluster) => NodePool[];
  /** The cache of the operator's Secrets in control-plane namespaces (copies, PKI, kubeconfigs), by `namespace/name`. */
  readonly controlPlaneSecret: (key: string) => SourceSecret | undefined;
  /** A Secret beside the HostedCluster (pull secret, SSH key, …), from the cache of its namespace ({@link UserSecrets}). */
  readonly userSecret: (namespace: string, name: string) => Promise<SourceSecret | undefined>;
  /** The cache of control-plane Services (shared with the HostedControlPlane controller), by `namespace/name`. */
  readonly service: (key: string) => ServiceStatus | undefined;
  /** The management cluster's apps domain, when the operator was told it (`--apps-domain`); else discovered. */
  readonly appsDomain?: string;
  /** Clients of the external infrastructure clusters, per HostedCluster uid. */
  readonly infraClients: KubeconfigClients;
  /** What this operator last applied per HostedCluster uid (a fingerprint), to skip identical re-applies. */
  readonly lastApplied: Map<string, string>;
  /** The last read of each cluster's blocked networks (`networks.config.openshift.io/cluster`), by client. */
  readonly networkReads: WeakMap<KubeClient, { readonly at: number; readonly cidrs: string[] | undefined }>;
  /** Looks a host name up (the real resolver; tests inject one). */
  readonly resolveHost: (host: string) => Promise<{ resolvable: boolean; detail: string }>;
  /** The last lookup of each cluster's apps domain, by HostedCluster uid. */
  readonly ingressDNSChecks: Map<string, IngressDNSCheck>;
  /** With `MONITORING_DASHBOARDS=1`: the template (from the cache), and whether a dashboard ConfigMap exists (cache). */
  readonly monitoringDashboards?: { readonly template: () => string | undefined; readonly exists: (name: string) => boolean };
}

/** One reconcile's state: the object, what the phases learnt, and the conditions they set. */
export interface Scope {
  readonly deps: HostedClusterDeps;
  readonly logger: Logger;
  hc: HostedCluster;
  readonly now: Date;
  readonly conditions: ConditionUpdate[];
  /** Secrets the cluster references, read once by validation and copied by a later phase, by role. */
  readonly secrets: Map<SecretRole, SourceSecret>;
  /** The external infrastructure (client and namespace), once validation has checked it. */
  infra?: { readonly client: KubeClient; readonly namespace: string };
  /** The published admin kubeconfig Secret, once the control plane has one. */
  kubeconfig?: string;
  /** Set when this reconcile published (name) or withdrew (no name) the kubeadmin password Secret. */
  kubeadminPassword?: { readonly name: string | undefined };
  /** The release this reconcile read and accepted (`status.version.desired` from now on). */
  accepted?: ReleaseVersion;
  /** Why the requested release was not accepted this reconcile, and the condition that says so: Progressing is blocked on it. */
  releaseRefusal?: { readonly condition: string; readonly message: string };
}

import type { ReleaseVersion } from '../release.ts';

export type { PhaseOutcome } from '../run-phases.ts';
/** A named step of the reconcile; phases run in order. */
export type Phase = OrderedPhase<Scope>;

/** Records a condition for the status written at the end of the reconcile. */
export function setCondition(scope: Scope, update: Omit<ConditionUpdate, 'observedGeneration'>): void {
  upsertCondition(scope.conditions, update, scope.hc.metadata.generation);
}

/** The cached HostedControlPlane of the scope's HostedCluster. */
export const controlPlaneOf = (scope: Scope): HostedControlPlane | undefined =>
  scope.deps.hostedControlPlane(`${HostedClusterNames.controlPlaneNamespace(scope.hc)}/${scope.hc.metadata.name ?? ''}`);

/** The Secrets a HostedCluster references, by what they are for; each is copied into the control-plane namespace. */
export type SecretRole = 'pullSecret' | 'sshKey' | 'infraCredentials' | 'encryptionKey' | 'etcdRestoreCredentials';
