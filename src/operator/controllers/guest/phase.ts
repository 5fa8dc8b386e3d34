import { HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../api/v1beta1/conditions.ts';
import { INFRA_CREDENTIALS_SECRET, infraTargetOf, kubeconfigFromCopy } from '../../../controlplane/common/infra.ts';
import { ControlPlaneNames } from '../../../controlplane/names.ts';
import type { KubeClient } from '../../../kube/client.ts';
import { isForbidden, KubeApiError } from '../../../kube/errors.ts';
import { hostedApiKubeconfig } from '../hosted-api.ts';
import { sha256Hex } from '../../../lib/hash.ts';
import { toYaml } from '../../../lib/yaml.ts';
import { guestSnapshotClasses } from '../../../render/guest/csi.ts';
import { renderGuestComponents } from '../../../render/guest/render.ts';
import type { KonnectivityAgentInput } from '../../../render/guest/konnectivity-agent.ts';
import type { IngressCertificate } from '../../../render/guest/ingress.ts';
import { PkiSecret } from '../../../controlplane/pki/plan.ts';
import { csiDriverEnabled } from '../../../controlplane/kubevirt-csi-controller/render.ts';
import { publishedEndpoint } from '../hostedcontrolplane/endpoint.ts';
import { findCondition } from '../../../lib/conditions.ts';
import { inNamespace, setCondition, type Scope } from '../hostedcontrolplane/scope.ts';
import { mappedInfraStorageClasses, mappingProblems } from './storage-mapping.ts';
import { syncGuestObjects, type LiveAdjustment } from './sync.ts';
import { checkDataPlaneConnection, CONNECTION_RECHECK_MS, type GuestCheck } from './connection.ts';
import { checkPodNetwork } from './network.ts';
import { podNetworkOf } from '../../../controlplane/common/pod-network.ts';

/** How often a hosted cluster in the desired state is read again for drift, by default. */
export const GUEST_DRIFT_CHECK_MS = 5 * 60_000;
const driftCheckMs = (scope: Scope): number => scope.deps.guestDriftCheckMs ?? GUEST_DRIFT_CHECK_MS;
/** How soon an unreachable hosted cluster is tried again. */
const UNREACHABLE_RETRY_MS = 30_000;
const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';

/** Kinds removed from the hosted cluster when no longer rendered (objects of a removed mapping, or of `None`). */
const PRUNABLE = [
  { apiVersion: 'v1', kind: 'Endpoints' },
  { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass' },
  { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver' },
  { apiVersion: 'apps/v1', kind: 'DaemonSet' },
];
const SNAPSHOT_CLASS = { apiVersion: 'snapshot.storage.k8s.io/v1', kind: 'VolumeSnapshotClass' };

const setGuestCondition = (scope: Scope, status: 'True' | 'False', reason: string, message: string): void => setCondition(scope, { type: Type.GuestComponentsApplied.value, status, reason, message });

/** The hosted cluster's admin kubeconfig (reaching it as the operator is set to, or the operator's override for all clusters). */
function guestKubeconfig(scope: Scope): string | undefined {
  if (scope.deps.guestKubeconfig !== undefined) return scope.deps.guestKubeconfig;
  return hostedApiKubeconfig(scope.pki.get(ControlPlaneNames.adminKubeconfig)?.['kubeconfig'], scope.hcp.metadata.namespace ?? '', scope.deps.hostedApiAccess);
}

/** The client of the infrastructure cluster the VMs and volumes live on. */
function infraClient(scope: Scope): KubeClient | undefined {
  const key = infraTargetOf(scope.hcp).kubeconfigKey;
  if (key === undefined) return scope.deps.client;
  const kubeconfig = kubeconfigFromCopy(scope.deps.secret(inNamespace(scope, INFRA_CREDENTIALS_SECRET)), key);
  return kubeconfig === undefined ? undefined : scope.deps.infraClients.clientFor(ownerOf(scope), kubeconfig);
}

/**
 * Infrastructure storage classes a `Manual` mapping names that do not exist. A user limited to one namespace may not
 * read StorageClasses (cluster-scoped); those are then not checked, and the CSI driver refuses them when used.
 */
async function missingInfraClasses(scope: Scope): Promise<string[]> {
  const names = mappedInfraStorageClasses(scope.hcp);
  const client = names.length === 0 ? undefined : infraClient(scope);
  if (client === undefined) return [];
  const missing: string[] = [];
  for (const name of names) {
    try {
      if ((await client.tryGet({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', name })) === undefined) missing.push(name);
    } catch (error) {
      if (isForbidden(error)) return [];
      throw error;
    }
  }
  return missing;
}

/** The default-class mark is the operator's only until the class exists: a user may move it to another class. */
const leaveDefaultMarkToUser: LiveAdjustment = (rendered, live) => {
  const annotations = (rendered['metadata'] as { annotations?: Record<string, string> }).annotations;
  if (live === undefined || rendered['kind'] !== 'StorageClass' || annotations?.[DEFAULT_CLASS_ANNOTATION] === undefined) return rendered;
  if (live.metadata?.annotations?.[DEFAULT_CLASS_ANNOTATION] === 'true') return rendered;
  const rest = Object.fromEntries(Object.entries(annotations).filter(([key]) => key !== DEFAULT_CLASS_ANNOTATION));
  return { ...rendered, metadata: { ...(rendered['metadata'] as object), annotations: rest } };
};

/** Validates the storage mapping; a problem stops the sync before anything is written (nothing half-applied). */
async function storageMappingValid(scope: Scope): Promise<boolean> {
  if (!csiDriverEnabled(scope.hcp)) return true;
  const problems = mappingProblems(scope.hcp);
  const missing = await missingInfraClasses(scope);
  for (const name of missing) problems.push(`infrastructure storage class ${name} does not exist: map an existing class (kubectl get storageclass on the infrastructure cluster) in spec.platform.kubevirt.storageDriver.manual`);
  if (problems.length === 0) return true;
  setGuestCondition(scope, 'False', Reason.InvalidConfiguration.value, problems.join('; '));
  return false;
}

/** What is due in the hosted cluster: the rendered objects, the snapshot classes (kept apart: they need the hosted
 * cluster's snapshot CRDs), and a fingerprint of both. Pure: deciding that nothing is due costs no request. */
interface GuestPlan {
  readonly owner: string;
  readonly objects: ReadonlyArray<Record<string, unknown>>;
  readonly snapshots: ReadonlyArray<Record<string, unknown>>;
  readonly fingerprint: string;
}

/** The konnectivity agents' input: the published konnectivity server and the agent certificate of the PKI. */
function konnectivityInput(scope: Scope): KonnectivityAgentInput | undefined {
  const server = publishedEndpoint(scope, 'Konnectivity');
  const data = scope.pki.get(PkiSecret.konnectivityAgent);
  const [crt, key, ca] = [data?.['tls.crt'], data?.['tls.key'], data?.['ca.crt']];
  if (server === undefined || crt === undefined || key === undefined || ca === undefined) return undefined;
  return { server, credentials: { 'tls.crt': crt, 'tls.key': key, 'ca.crt': ca } };
}

/** The default ingress's certificate and key, once the PKI has issued them. */
function ingressCertificate(scope: Scope): IngressCertificate | undefined {
  const data = scope.pki.get(PkiSecret.ingressServer);
  const [crt, key] = [data?.['tls.crt'], data?.['tls.key']];
  return crt === undefined || key === undefined ? undefined : { 'tls.crt': crt, 'tls.key': key };
}

function guestPlan(scope: Scope): GuestPlan {
  const release = scope.release;
  const apiServer = publishedEndpoint(scope) ?? { host: '', port: 0 };
  const objects = release === undefined ? [] : renderGuestComponents({ hcp: scope.hcp, release, apiServer, konnectivity: konnectivityInput(scope), ingressCertificate: ingressCertificate(scope) });
  const snapshots = csiDriverEnabled(scope.hcp) && release?.images.kubevirtCSI !== undefined ? guestSnapshotClasses(scope.hcp) : [];
  return { owner: ownerOf(scope), objects, snapshots, fingerprint: sha256Hex(toYaml([...objects, ...snapshots])) };
}

/** Why the hosted cluster cannot be reached yet, if it cannot: not published, or its API server not available. */
function notReachable(scope: Scope): string | undefined {
  if (publishedEndpoint(scope) === undefined || guestKubeconfig(scope) === undefined) return 'Waiting for the API server to be published: nodes reach it at its published address';
  // A stand-in hosted cluster (the override) answers by definition; a real one only once its API server is available
  // as the status just published says: reading the Deployment again could find it available since, and Available
  // would then first be written with the outcome of asking the hosted cluster.
  const apiServer = findCondition(scope.hcp.status?.conditions, Type.KubeAPIServerAvailable.value);
  if (scope.deps.guestKubeconfig === undefined && apiServer?.status !== 'True') return 'Waiting for the hosted API server to be available';
  return undefined;
}

/**
 * Keeps what must exist inside the hosted cluster (DNS, kube-proxy, the CSI driver's objects and storage classes) as
 * rendered, through the control plane's admin kubeconfig. Runs when the rendered set changed or the last check is
 * {@link GUEST_DRIFT_CHECK_MS} old (drift is found by reading, not by watching every hosted cluster's objects, and
 * snapshot CRDs installed later are found then too); otherwise it costs nothing — no read of the infrastructure, no
 * discovery of the hosted cluster. Returns when to look again; undefined while waiting for the API server to be
 * published and available, which the controller hears of from its Service and Deployment (no polling: found when a
 * bench of 50 control planes that never become available spent its time re-reconciling each every 30 s).
 */
export async function reconcileGuestComponents(scope: Scope): Promise<number | undefined> {
  const waiting = notReachable(scope);
  if (waiting !== undefined) {
    setGuestCondition(scope, 'False', Reason.WaitingForAvailable.value, waiting);
    return undefined;
  }
  const plan = guestPlan(scope);
  const recentFor = recentlySynced(scope, plan);
  if (recentFor !== undefined) return Math.min(recentFor, await guestChecks(scope, plan.owner, false));
  // The mapping is immutable, so what can change is the infrastructure: a missing class may be created there.
  if (!(await storageMappingValid(scope))) return Math.min(UNREACHABLE_RETRY_MS, driftCheckMs(scope));
  try {
    const next = await syncGuest(scope, plan);
    return Math.min(next, await guestChecks(scope, plan.owner, true));
  } catch (error) {
    if (error instanceof KubeApiError) throw error;
    setGuestCondition(scope, 'False', Reason.WaitingForAvailable.value, `The hosted cluster does not answer yet: ${error instanceof Error ? error.message : String(error)}`);
    return UNREACHABLE_RETRY_MS;
  }
}

/** When the same plan was brought in less than a drift check ago: the condition it left, and when the next is due. */
function recentlySynced(scope: Scope, plan: GuestPlan): number | undefined {
  const last = scope.deps.guestSynced.get(plan.owner);
  const age = scope.now.getTime() - (last?.at ?? 0);
  if (last?.fingerprint !== plan.fingerprint || age >= driftCheckMs(scope)) return undefined;
  setGuestCondition(scope, 'True', Reason.AsExpected.value, last.message);
  return driftCheckMs(scope) - age;
}

/** Compares and applies what is due; snapshot classes only where the hosted cluster serves them. */
async function syncGuest(scope: Scope, plan: GuestPlan): Promise<number> {
  const client = scope.deps.guestClients.clientFor(plan.owner, guestKubeconfig(scope) ?? '');
  const snapshotsServed = await client.serves(SNAPSHOT_CLASS.apiVersion, SNAPSHOT_CLASS.kind);
  const objects = snapshotsServed ? [...plan.objects, ...plan.snapshots] : plan.objects;
  const result = await syncGuestObjects(client, objects, snapshotsServed ? [...PRUNABLE, SNAPSHOT_CLASS] : PRUNABLE, leaveDefaultMarkToUser);
  if (result.applied.length + result.pruned.length > 0) scope.logger.info('hosted cluster objects synced', { applied: result.applied.join(','), pruned: result.pruned.join(',') });
  const snapshotNote = snapshotsServed || plan.snapshots.length === 0 ? '' : '; volume snapshot classes wait for the snapshot CRDs (snapshot.storage.k8s.io/v1) in the hosted cluster';
  const message = `${String(objects.length)} objects in place${snapshotNote}`;
  scope.deps.guestSynced.set(plan.owner, { fingerprint: plan.fingerprint, at: scope.now.getTime(), message });
  setGuestCondition(scope, 'True', Reason.AsExpected.value, message);
  return driftCheckMs(scope);
}

/**
 * The conditions read from the hosted cluster — `DataPlaneConnectionAvailable` and `NetworkPluginAvailable` — from
 * their last checks, each checked again with every sync (`force`) and, while not True, every
 * {@link CONNECTION_RECHECK_MS}; returns when the next check is due. A hosted cluster in the desired state is checked
 * only with its drift checks.
 */
async function guestChecks(scope: Scope, owner: string, force: boolean): Promise<number> {
  const client = (): KubeClient => scope.deps.guestClients.clientFor(owner, guestKubeconfig(scope) ?? '');
  const network = scope.release === undefined ? undefined : podNetworkOf(scope.hcp, scope.release);
  const connection = await recheck(scope, { owner, force, field: 'connection', type: Type.DataPlaneConnectionAvailable.value }, (now) => checkDataPlaneConnection(client(), now));
  if (network === undefined) return connection;
  return Math.min(connection, await recheck(scope, { owner, force, field: 'network', type: Type.NetworkPluginAvailable.value }, (now) => checkPodNetwork(client(), network, now)));
}

/** Which condition {@link recheck} keeps: the control plane it is of, where its last check is kept, its type. */
interface Recheck {
  readonly owner: string;
  readonly force: boolean;
  readonly field: 'connection' | 'network';
  readonly type: string;
}

/** One condition read from the hosted cluster: its last check, or a new one when due; returns when the next is due. */
async function recheck(scope: Scope, { owner, force, field, type }: Recheck, check: (now: number) => Promise<GuestCheck>): Promise<number> {
  const record = scope.deps.guestSynced.get(owner);
  if (record === undefined) return Number.POSITIVE_INFINITY;
  const now = scope.now.getTime();
  let last = record[field];
  if (force || last === undefined || (last.status !== 'True' && now - last.at >= CONNECTION_RECHECK_MS)) {
    last = await check(now);
    scope.deps.guestSynced.set(owner, { ...(scope.deps.guestSynced.get(owner) ?? record), [field]: last });
  }
  setCondition(scope, { type, status: last.status, reason: last.reason, message: last.message });
  return last.status === 'True' ? Number.POSITIVE_INFINITY : CONNECTION_RECHECK_MS - (now - last.at);
}

const ownerOf = (scope: Scope): string => guestOwner(scope.hcp.metadata.namespace ?? '', scope.hcp.metadata.name ?? '');

/** The key of a control plane's clients and sync record (its HostedControlPlane's `namespace/name`). */
const guestOwner = (namespace: string, name: string): string => `hostedcontrolplane/${namespace}/${name}`;

/** Forgets a deleted control plane's clients and sync record (by its HostedControlPlane key, `namespace/name`). */
export function forgetGuest(deps: Scope['deps'], key: string): void {
  const [namespace = '', name = ''] = key.split('/');
  const owner = guestOwner(namespace, name);
  deps.guestClients.forget(owner);
  deps.infraClients.forget(owner);
  deps.guestSynced.delete(owner);
}

