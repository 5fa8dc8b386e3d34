/**
 * Whether a HostedCluster may move to the release it asks for (pure): upstream's version rules and upgrade gate.
 * The release last accepted (`status.version.desired`) is what the control plane runs or is moving to; the release
 * it last completed is what it certainly runs, and a new release is compared with that. Refused, nothing that runs
 * changes: the reconcile stops before the HostedControlPlane.
 */
import type { HostedCluster } from '../../../../api/index.ts';
import { acceptedRelease, completedRelease, type ReleaseVersion } from '../../release.ts';
import { Annotation } from '../../../../api/v1beta1/well-known.ts';
import { HostedClusterConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { findCondition } from '../../../../lib/conditions.ts';
import { refuseVersion, sameMinor, type VersionRule } from '../../../../release/upgrade-rules.ts';

/** Why a release was refused: a version rule (`ValidReleaseImage` False) or the upgrade gate (not upgradeable). */
export type GateRefusal = { readonly kind: 'version'; readonly rule: VersionRule; readonly message: string } | { readonly kind: 'not-upgradeable'; readonly message: string };

/**
 * The upgrade gate (upstream's `isUpgrading`): a move to another minor needs `ClusterVersionUpgradeable` not False,
 * unless `force-upgrade-to` names exactly the requested image. A z-stream move always passes.
 */
function upgradeGate(hc: HostedCluster, requested: ReleaseVersion, current: ReleaseVersion): GateRefusal | undefined {
  if (sameMinor(requested.version, current.version)) return undefined;
  const upgradeable = findCondition(hc.status?.conditions, Type.ClusterVersionUpgradeable.value);
  if (upgradeable?.status !== 'False') return undefined;
  const forced = hc.metadata.annotations?.[Annotation.ForceUpgradeTo];
  if (forced === requested.image) return undefined;
  if (forced !== undefined) return { kind: 'not-upgradeable', message: `force upgrade annotation is present but does not match desired release image: ${forced}` };
  return { kind: 'not-upgradeable', message: `cluster version is not upgradeable: ${upgradeable.message}` };
}

/**
 * Why the requested release may not be used, or undefined. A release already accepted passes; a new one is compared
 * with the release the control plane last completed, so reverting an upgrade that has not completed is a rollback,
 * not a downgrade (upstream compares with the release being moved to, and refuses it). The version rules are skipped
 * with the `skip-release-image-validation` annotation (as upstream); a skipped minor, a rule upstream lacks, also
 * passes when `force-upgrade-to` names the requested image.
 */
export function gateRelease(hc: HostedCluster, requested: ReleaseVersion): GateRefusal | undefined {
  if (acceptedRelease(hc)?.image === requested.image) return undefined;
  const completed = completedRelease(hc);
  const current = completed?.image === requested.image ? undefined : completed;
  return versionRules(hc, requested, current) ?? (current === undefined ? undefined : upgradeGate(hc, requested, current));
}

/** The version rules, unless skipped by annotation; a skipped minor passes when forced to exactly this image. */
function versionRules(hc: HostedCluster, requested: ReleaseVersion, current: ReleaseVersion | undefined): GateRefusal | undefined {
  const annotations = hc.metadata.annotations ?? {};
  if (annotations[Annotation.SkipReleaseImageValidation] === 'true') return undefined;
  const refusal = refuseVersion({ requested: requested.version, current: current?.version, platform: hc.spec.platform.type });
  if (refusal === undefined || (refusal.rule === 'minor-skipped' && annotations[Annotation.ForceUpgradeTo] === requested.image)) return undefined;
  return { kind: 'version', ...refusal };
}
