import { UserCABundle } from '../../../../api/v1beta1/well-known.ts';
import type { HostedCluster, NodePool } from '../../../../api/index.ts';
import { NodePoolConditionReason as Reason, NodePoolConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import type { ConditionUpdate } from '../../../../lib/conditions.ts';
import { BootImageError, bootImageMessage, resolveBootImage } from '../../../../platform/kubevirt/boot-image.ts';
import { kubevirtPlatformProblems, platformValidationMessage } from '../../../../platform/kubevirt/platform-validation.ts';
import type { ReleaseInfo } from '../../../../release/info.ts';
import { ReleaseError } from '../../../../release/provider.ts';
import { completedRelease, dockerConfigOf, provisionalNote, provisionalRequeue, readPullSecret, retriable } from '../../release.ts';
import { releaseAccess, type ReleaseAccess } from '../../../../release/provider.ts';
import { HostedClusterNames } from '../../../../render/hostedcluster/names.ts';
import { setCondition, type Phase, type Scope } from '../scope.ts';
import { inPlaceTargetOf } from '../in-place.ts';
import { compareVersions, MAX_KUBELET_MINOR_SKEW, minorsBehind, parseVersion } from '../../../../release/upgrade-rules.ts';

export type Check = Omit<ConditionUpdate, 'observedGeneration'> & { readonly blocking: boolean };
const ok = (type: string, message = ''): Check => ({ type, status: 'True', reason: Reason.AsExpected.value, message, blocking: false });
const failed = (type: string, message: string, reason: string = Reason.ValidationFailed.value): Check => ({ type, status: 'False', reason, message, blocking: true });

/** KubeVirt runs amd64 and s390x NodePools (upstream's `isArchAndPlatformSupported`). */
function archCheck(np: NodePool): Check {
  const arch = np.spec.arch ?? 'amd64';
  if (arch === 'amd64' || arch === 's390x') return ok(Type.ValidArchPlatform.value);
  return failed(Type.ValidArchPlatform.value, `CPU arch ${arch} is not supported for platform: KubeVirt, use 'amd64' instead`, Reason.InvalidArchPlatform.value);
}

function machineConfigCheck(np: NodePool): Check {
  const problems = kubevirtPlatformProblems(np);
  return problems.length === 0 ? ok(Type.ValidMachineConfig.value) : failed(Type.ValidMachineConfig.value, platformValidationMessage(problems));
}

/**
 * InPlace needs a release that carries a kubelet image for the node agents to install (an OpenShift release's comes
 * with RHCOS): without one the pool is scaled but its machines are not updated, which is said, not blocking.
 * Both rolling limits at zero could never make progress.
 */
function managementCheck(np: NodePool, release: ReleaseInfo | undefined): Check {
  const { management } = np.spec;
  if (management.upgradeType === 'InPlace') {
    if (release !== undefined && inPlaceTargetOf(release) === undefined) {
      return { ...failed(Type.UpdateManagementEnabled.value, `upgradeType InPlace: release ${release.version} carries no kubelet image for the node agents to install: the pool is scaled, but existing machines are not updated`), blocking: false };
    }
    return ok(Type.UpdateManagementEnabled.value);
  }
  const rolling = management.replace?.rollingUpdate;
  if (rolling?.maxSurge === 0 && rolling.maxUnavailable === 0) {
    return failed(Type.UpdateManagementEnabled.value, 'spec.management.replace.rollingUpdate: maxSurge and maxUnavailable cannot both be 0');
  }
  return ok(Type.UpdateManagementEnabled.value);
}

function autoscalingCheck(np: NodePool): Check {
  const scaling = np.spec.autoScaling;
  if (scaling === undefined) return { type: Type.AutoscalingEnabled.value, status: 'False', reason: Reason.AsExpected.value, message: '', blocking: false };
  if ((scaling.min ?? 0) === 0) return failed(Type.AutoscalingEnabled.value, 'Autoscaling from zero (min=0) is not supported for KubeVirt platform');
  return ok(Type.AutoscalingEnabled.value, `Maximum nodes: ${scaling.max}, Minimum nodes: ${scaling.min ?? 0}`);
}

/**
 * The cluster's trust bundle, from the ConfigMap cache: it holds every ConfigMap the operator watches (as the bootstrap
 * phase's hash of the same bundle trusts), and a change of it wakes the pool.
 */
function trustBundleOf(scope: Scope, hc: HostedCluster): string | undefined {
  const name = hc.spec.additionalTrustBundle?.name;
  if (name === undefined || name === '') return undefined;
  return scope.deps.configMap(`${hc.metadata.namespace ?? ''}/${name}`)?.data?.[UserCABundle.Key];
}

/**
 * What the HostedCluster's releases are read with: its pull secret (the copy in the control-plane namespace, from
 * the shared cache; read on a miss), mirrors and trust bundle.
 */
async function clusterAccess(scope: Scope): Promise<ReleaseAccess> {
  const { hc, deps } = scope;
  if (hc === undefined) return {};
  const copy = dockerConfigOf(deps.controlPlaneSecret(`${HostedClusterNames.controlPlaneNamespace(hc)}/${HostedClusterNames.pullSecret}`));
  const pullSecret = copy ?? (await readPullSecret(deps.client, hc.metadata.namespace, hc.spec.pullSecret.name));
  return releaseAccess(pullSecret, hc.spec.imageContentSources, trustBundleOf(scope, hc));
}

/** A release resolved with the HostedCluster's access (computed once per reconcile). */
async function resolveWithClusterSecrets(scope: Scope, image: string): Promise<ReleaseInfo> {
  scope.releaseAccess ??= await clusterAccess(scope);
  return scope.deps.releases.resolve({ image, ...scope.releaseAccess });
}

/**
 * The release must be readable, and no newer than the control plane's (the manual: "must not surpass"). A release
 * that could not be read is reported and, unless only a spec change can fix it, retried with back-off.
 */
async function releaseChecks(scope: Scope): Promise<{ checks: Check[]; retry?: ReleaseError; requeueAfterMs?: number }> {
  const image = scope.np.spec.release.image;
  try {
    scope.release = await resolveWithClusterSecrets(scope, image);
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    return { checks: [failed(Type.ValidReleaseImage.value, `Failed to get release image: ${error.message}`)], ...(retriable(error) ? { retry: error } : {}) };
  }
  const using = ok(Type.ValidReleaseImage.value, `Using release image: ${image}${provisionalNote(scope.release)}`);
  return { checks: [using, await skewCheck(scope, scope.release.version)], ...provisionalRequeue(scope.release) };
}

/**
 * The version the control plane runs: the newest release its HostedCluster completed a rollout of; before any
 * completed (a cluster coming up), the one it asks for.
 */
async function controlPlaneVersion(scope: Scope): Promise<string> {
  return completedRelease(scope.hc)?.version ?? (await resolveWithClusterSecrets(scope, scope.hc?.spec.release.image ?? '')).version;
}

/**
 * The pool's version against the control plane's (upstream's messages): never newer (blocking: the pool waits, its
 * machines unchanged), and at most {@link MAX_KUBELET_MINOR_SKEW} minors older (reported, not blocking, as upstream).
 * Unknown, not blocking, while the control plane's release cannot be read.
 */
async function skewCheck(scope: Scope, version: string): Promise<Check> {
  let cp: string;
  try {
    cp = await controlPlaneVersion(scope);
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    return { type: Type.SupportedVersionSkew.value, status: 'Unknown', reason: Reason.ValidationFailed.value, message: `the control plane's release could not be read to compare versions: ${error.message}`, blocking: false };
  }
  return skewOf(version, cp);
}

/** The skew rules on two versions (pure). */
export function skewOf(version: string, controlPlane: string): Check {
  const [pool, cp] = [parseVersion(version), parseVersion(controlPlane)];
  if (pool === undefined || cp === undefined) return ok(Type.SupportedVersionSkew.value);
  if (compareVersions(pool, cp) > 0) return failed(Type.SupportedVersionSkew.value, `NodePool version ${version} cannot be higher than the HostedCluster version ${controlPlane}`, Reason.UnsupportedSkew.value);
  if ((minorsBehind(version, controlPlane) ?? 0) > MAX_KUBELET_MINOR_SKEW) {
    const message = `NodePool minor version ${String(pool.major)}.${String(pool.minor)} is less than ${String(cp.major)}.${String(cp.minor - MAX_KUBELET_MINOR_SKEW)}, which is the minimum NodePool version compatible with the ${String(cp.major)}.${String(cp.minor)} HostedCluster`;
    return { ...failed(Type.SupportedVersionSkew.value, message, Reason.UnsupportedSkew.value), blocking: false };
  }
  return ok(Type.SupportedVersionSkew.value);
}

function bootImageCheck(scope: Scope): Check {
  try {
    scope.bootImage = resolveBootImage(scope.np, scope.release);
    return ok(Type.ValidPlatformImage.value, bootImageMessage.found(scope.bootImage));
  } catch (error) {
    if (!(error instanceof BootImageError)) throw error;
    return failed(Type.ValidPlatformImage.value, bootImageMessage.failed(scope.np.spec.release.image, error));
  }
}

/**
 * Everything about the spec that must hold before a machine is made, each reported in its own condition with a
 * message that says what to change. Any blocking failure stops the reconcile: no machine is created or removed on a
 * spec that is wrong (a bad edit never deletes what runs).
 */
export const validatePhase: Phase = {
  name: 'validate',
  async run(scope) {
    const { np } = scope;
    const release = await releaseChecks(scope);
    const checks = [archCheck(np), machineConfigCheck(np), autoscalingCheck(np), ...release.checks, managementCheck(np, scope.release)];
    if (!checks.some((c) => c.blocking)) checks.push(bootImageCheck(scope));
    for (const check of checks) setCondition(scope, { type: check.type, status: check.status, reason: check.reason, message: check.message });
    if (release.retry !== undefined) throw release.retry;
    if (checks.some((c) => c.blocking)) return { stop: true };
    return release.requeueAfterMs === undefined ? undefined : { requeueAfterMs: release.requeueAfterMs };
  },
};
