import type { Endpoint } from './endpoint.ts';
import type { HostedControlPlane } from '../../../api/index.ts';
import { ALL_IS_WELL_MESSAGE, HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../api/v1beta1/conditions.ts';
import { ControlPlaneNames } from '../../../controlplane/names.ts';
import { COMPONENTS } from '../../../controlplane/render.ts';
import { findCondition, mergeConditions, observedAfter } from '../../../lib/conditions.ts';
import { infraNetworkMTUCondition } from '../../../platform/kubevirt/network-mtu.ts';
import { reasonOf } from '../../../runtime/errors.ts';
import { inNamespace, setCondition, type Scope, type WorkloadStatus } from './scope.ts';

type Status = NonNullable<HostedControlPlane['status']>;

function etcdCondition(scope: Scope, etcd: WorkloadStatus | undefined): boolean {
  if (etcd === undefined) {
    setCondition(scope, { type: Type.EtcdAvailable.value, status: 'False', reason: Reason.StatefulSetNotFound.value, message: 'The etcd StatefulSet does not exist yet' });
    return false;
  }
  const members = etcd.spec?.replicas ?? 1;
  const ready = etcd.status?.readyReplicas ?? 0;
  const quorum = Math.floor(members / 2) + 1;
  if (ready >= quorum) {
    setCondition(scope, { type: Type.EtcdAvailable.value, status: 'True', reason: Reason.QuorumAvailable.value, message: `${String(ready)} of ${String(members)} etcd members ready` });
    return true;
  }
  setCondition(scope, { type: Type.EtcdAvailable.value, status: 'False', reason: Reason.EtcdWaitingForQuorum.value, message: `${String(ready)} of ${String(members)} etcd members ready; quorum needs ${String(quorum)}` });
  return false;
}

/** Whether a Deployment reports Available with at least one replica. */
export const deploymentAvailable = (d: WorkloadStatus | undefined): boolean => d?.status?.conditions?.find((c) => c.type === 'Available')?.status === 'True' && (d.status.availableReplicas ?? 0) > 0;

const replicaMessage = (d: WorkloadStatus): string => `${String(d.status?.availableReplicas ?? 0)} of ${String(d.spec?.replicas ?? 1)} kube-apiserver replicas available`;

function apiServerCondition(scope: Scope, kas: WorkloadStatus | undefined): boolean {
  if (deploymentAvailable(kas)) {
    setCondition(scope, { type: Type.KubeAPIServerAvailable.value, status: 'True', reason: Reason.AsExpected.value, message: 'Kube APIServer deployment is available' });
    return true;
  }
  if (kas === undefined) setCondition(scope, { type: Type.KubeAPIServerAvailable.value, status: 'False', reason: Reason.NotFound.value, message: 'The kube-apiserver Deployment does not exist yet' });
  else setCondition(scope, { type: Type.KubeAPIServerAvailable.value, status: 'False', reason: Reason.WaitingForAvailable.value, message: replicaMessage(kas) });
  return false;
}

/**
 * IgnitionEndpointAvailable from the ignition endpoint's Deployment; without the operator's own image (`OPERATOR_IMAGE`,
 * set by `hcp install`) or before the API server is published, the endpoint cannot run, and the message says which.
 */
function ignitionCondition(scope: Scope): void {
  const type = Type.IgnitionEndpointAvailable.value;
  const server = scope.deps.deployment(inNamespace(scope, ControlPlaneNames.ignitionServer));
  if (deploymentAvailable(server)) {
    setCondition(scope, { type, status: 'True', reason: Reason.AsExpected.value, message: 'Ignition server deployment is available' });
    return;
  }
  if (server !== undefined) {
    setCondition(scope, { type, status: 'False', reason: Reason.WaitingForAvailable.value, message: `${String(server.status?.availableReplicas ?? 0)} of ${String(server.spec?.replicas ?? 1)} ignition-server replicas available` });
    return;
  }
  const why = scope.deps.proberImage === undefined ? 'the operator does not know its own image (OPERATOR_IMAGE), which runs the ignition endpoint' : 'waiting for the API server to be published: machines are told where it is';
  setCondition(scope, { type, status: 'False', reason: Reason.NotFound.value, message: `The ignition-server Deployment does not exist: ${why}` });
}

/** Readiness from the workloads: EtcdAvailable (quorum), KubeAPIServerAvailable, and Available from both. */
function readiness(scope: Scope): boolean {
  const etcd = etcdCondition(scope, scope.deps.statefulSet(inNamespace(scope, ControlPlaneNames.etcd)));
  const kas = apiServerCondition(scope, scope.deps.deployment(inNamespace(scope, ControlPlaneNames.kubeAPIServer)));
  const waiting = [etcd ? undefined : 'etcd', kas ? undefined : 'kube-apiserver'].filter((c) => c !== undefined);
  if (waiting.length === 0) setCondition(scope, { type: Type.Available.value, status: 'True', reason: Reason.AsExpected.value, message: ALL_IS_WELL_MESSAGE });
  else setCondition(scope, { type: Type.Available.value, status: 'False', reason: Reason.ComponentsNotAvailable.value, message: `Waiting for ${waiting.join(', ')} to be available` });
  return waiting.length === 0;
}

/**
 * Degraded, upstream's rule and message: a control-plane Deployment with unavailable replicas (the API server, the
 * controllers, the ignition endpoint, the KubeVirt cloud provider and CSI controller), named in order; etcd's quorum
 * has EtcdAvailable.
 */
function degradedCondition(scope: Scope): void {
  const problems = COMPONENTS.filter((c) => c !== ControlPlaneNames.etcd).sort().flatMap((name) => {
    const unavailable = scope.deps.deployment(inNamespace(scope, name))?.status?.unavailableReplicas ?? 0;
    return unavailable > 0 ? [`${name} deployment has ${String(unavailable)} unavailable replicas`] : [];
  });
  if (problems.length === 0) setCondition(scope, { type: Type.Degraded.value, status: 'False', reason: Reason.AsExpected.value, message: ALL_IS_WELL_MESSAGE });
  else setCondition(scope, { type: Type.Degraded.value, status: 'True', reason: Reason.UnavailableReplicas.value, message: problems.length === 1 ? (problems[0] as string) : `[${problems.join(', ')}]` });
}

function reconciliationCondition(scope: Scope, error: unknown): void {
  if (error === undefined) setCondition(scope, { type: Type.ReconciliationSucceeded.value, status: 'True', reason: Reason.AsExpected.value, message: 'Reconciliation completed successfully' });
  else setCondition(scope, { type: Type.ReconciliationSucceeded.value, status: 'False', reason: Reason.ReconcileError.value, message: reasonOf(error) });
}

/**
 * ControlPlaneUpToDate from the rollout plan of this reconcile: which component the move to the release waits for,
 * or that it stalled there. Without a plan (the release could not be read) what was reported stays.
 */
function upToDateCondition(scope: Scope): void {
  const { rollout, release } = scope;
  if (rollout === undefined || release === undefined) return;
  const type = Type.ControlPlaneUpToDate.value;
  const { waiting } = rollout;
  if (waiting === undefined) {
    setCondition(scope, { type, status: 'True', reason: Reason.AsExpected.value, message: `All control plane components run release ${release.version}` });
  } else if (waiting.stalled) {
    const message = `${waiting.component} did not become ready on release ${release.version} within its progress deadline (${waiting.progress}); the components after it stay on their previous release`;
    setCondition(scope, { type, status: 'False', reason: Reason.ComponentRolloutStalled.value, message });
  } else {
    const message = `Rolling out release ${release.version}: ${String(rollout.settled)} of ${String(rollout.rendered)} components done, waiting for ${waiting.component} (${waiting.progress})`;
    setCondition(scope, { type, status: 'False', reason: Reason.RollingOut.value, message });
  }
}

/**
 * The version the control plane runs: the release's once every component runs it rolled out and the control plane is
 * available; until then the version it ran before (none on a first install).
 */
function runningVersion(scope: Scope, available: boolean): string | undefined {
  if (scope.release !== undefined && available && scope.rollout?.upToDate === true) return scope.release.version;
  return scope.hcp.status?.version;
}

/** Fields set only once known: the version it runs, the endpoint, the admin kubeconfig. */
function knownFields(scope: Scope, available: boolean, endpoint: Endpoint): Partial<Status> {
  const kubeconfigWritten = scope.pki.has(ControlPlaneNames.adminKubeconfig) || scope.hcp.status?.kubeConfig !== undefined;
  const version = runningVersion(scope, available);
  return {
    ...(version === undefined ? {} : { version }),
    ...(endpoint === undefined ? {} : { controlPlaneEndpoint: endpoint }),
    ...(kubeconfigWritten ? { kubeConfig: { name: ControlPlaneNames.adminKubeconfig, key: 'kubeconfig' } } : {}),
  };
}

/**
 * `status.kubeadminPassword` names the password Secret while an API server accepts it; when a reconcile did not get
 * as far as applying the components, what was reported stays.
 */
function kubeadminField(scope: Scope): Partial<Status> {
  const present = scope.kubeadminReported ?? scope.hcp.status?.kubeadminPassword !== undefined;
  return present ? { kubeadminPassword: { name: ControlPlaneNames.kubeadminPassword } } : {};
}

/** The status computed at the end of a reconcile; `endpoint` is where the API is published, once known. */
export function computeStatus(scope: Scope, endpoint: Endpoint, error: unknown): Status {
  // From what runs, whether or not this reconcile could read the release: a registry outage changes nothing deployed.
  const available = readiness(scope);
  ignitionCondition(scope);
  degradedCondition(scope);
  upToDateCondition(scope);
  const mtu = infraNetworkMTUCondition(scope.hcp);
  if (mtu !== undefined) setCondition(scope, mtu);
  reconciliationCondition(scope, error);
  const { hcp } = scope;
  const conditions = mergeConditions(hcp.status?.conditions, observedAfter(scope.conditions, hcp.status?.conditions, hcp.metadata.generation, error === undefined), scope.now);
  const initialized = hcp.status?.initialized === true || findCondition(conditions, Type.EtcdAvailable.value) !== undefined;
  // The kubeadmin field is decided afresh below: it disappears once an identity provider replaces kubeadmin.
  const stored = { ...hcp.status };
  delete stored.kubeadminPassword;
  return { ...stored, ready: available, initialized, conditions, releaseImage: hcp.spec.releaseImage, ...knownFields(scope, available, endpoint), ...kubeadminField(scope) };
}
