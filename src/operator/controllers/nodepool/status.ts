import type { NodePoolStatus } from '../../../api/index.ts';
import { NodePoolConditionReason as Reason, NodePoolConditionType as Type } from '../../../api/v1beta1/conditions.ts';
import { mergeConditions, observedAfter, type Condition, type ConditionUpdate } from '../../../lib/conditions.ts';
import { BootstrapNames } from '../../../render/nodepool/bootstrap.ts';
import { reasonOf } from '../../../runtime/errors.ts';
import { HealthCheckAnnotation } from './autorepair.ts';
import { allMachinesReady, allNodesHealthy, liveMigratable } from './machine-conditions.ts';
import { inPlaceTargetOf, type InPlaceProgress } from './in-place.ts';
import { poolMachines } from './pool-machines.ts';
import { resolveRollingLimits } from './rollout.ts';
import { nodePoolKeyOf, type MachineSummary, type Scope } from './scope.ts';

type Update = Omit<ConditionUpdate, 'observedGeneration'>;

/** Conditions that, when False, are why the pool is not Ready (checked in this order). */
const BLOCKING: readonly string[] = [Type.IgnitionEndpointAvailable, Type.ValidArchPlatform, Type.ValidMachineConfig, Type.ValidReleaseImage, Type.SupportedVersionSkew, Type.ValidPlatformImage, Type.ValidMachineTemplate, Type.ValidGeneratedPayload].map((t) => t.value);

const has = (scope: Scope, type: string): ConditionUpdate | undefined => scope.conditions.find((c) => c.type === type);

/** Fewest available machines the pool may have: `desired - maxUnavailable` while replacing with RollingUpdate. */
function minimumAvailable(scope: Scope, machines: MachineSummary): number {
  const rolling = scope.np.spec.management.replace?.rollingUpdate;
  return Math.max(0, machines.desired - resolveRollingLimits(rolling?.maxSurge, rolling?.maxUnavailable, machines.desired).maxUnavailable);
}

/** Ready: why it is not (a failed check, an error), or whether enough machines are available (the manual's message). */
function ready(scope: Scope, error: unknown): Update | undefined {
  if (has(scope, Type.Ready.value) !== undefined) return undefined;
  if (error !== undefined) return { type: Type.Ready.value, status: 'False', reason: Reason.ReconcileError.value, message: reasonOf(error) };
  const blocking = scope.conditions.find((c) => BLOCKING.includes(c.type) && c.status === 'False');
  if (blocking !== undefined) return { type: Type.Ready.value, status: 'False', reason: blocking.reason, message: blocking.message };
  const machines = scope.machines;
  if (machines === undefined) return undefined;
  const minimum = minimumAvailable(scope, machines);
  if (machines.ready >= minimum) return { type: Type.Ready.value, status: 'True', reason: Reason.AsExpected.value, message: '' };
  return { type: Type.Ready.value, status: 'False', reason: Reason.WaitingForAvailableMachines.value, message: `Minimum availability requires ${minimum} replicas, current ${machines.ready} available` };
}

/** Whether every machine is of the current generation, ready, and as many as desired. */
const rolledOut = (m: MachineSummary): boolean => m.current === m.total && m.total === m.desired && m.ready === m.total;

/** The config hashes (bootstrap generations) the pool's live machines boot from. */
function machineConfigHashes(scope: Scope): string[] {
  if (scope.infra === undefined) return [];
  const prefix = BootstrapNames.userData(scope.np.metadata.name ?? '', '');
  return poolMachines(scope.infra, nodePoolKeyOf(scope.np)).filter((m) => !m.deleting).flatMap((m) =>
    m.vm.spec.template.spec.volumes.map((v) => v.cloudInitConfigDrive?.secretRef.name ?? '').filter((n) => n.startsWith(prefix)).map((n) => n.slice(prefix.length, -'-userdata'.length)));
}

/** A new pool is coming up, or some machine boots from another generation's bootstrap data. */
const configUpdating = (scope: Scope, configHash: string): boolean =>
  (scope.np.status?.version ?? '') === '' || machineConfigHashes(scope).some((h) => h !== configHash);

const progress = (type: string, message: string | undefined): Update =>
  message === undefined ? { type, status: 'False', reason: Reason.AsExpected.value, message: '' } : { type, status: 'True', reason: Reason.AsExpected.value, message };

/**
 * An InPlace pool's UpdatingVersion and UpdatingConfig: upstream's progress message, or which Node's agent failed and
 * why (`InplaceUpgradeFailed`: the agent tries again, so it heals once the cause clears).
 */
function inPlaceUpdating(scope: Scope, inPlace: InPlaceProgress): Update[] {
  if (inPlace.upToDate === inPlace.total) return [progress(Type.UpdatingVersion.value, undefined), progress(Type.UpdatingConfig.value, undefined)];
  const message = `Nodepool update in progress. Target Config version: ${inPlace.target.config}. Total Nodes: ${inPlace.total}. Upgraded: ${inPlace.upToDate}`;
  const failed = inPlace.degraded[0];
  const update = (type: string): Update =>
    failed === undefined ? progress(type, message) : { type, status: 'True', reason: Reason.InplaceUpgradeFailed.value, message: `${message}. Node ${failed.node} failed: ${failed.reason}` };
  const versionUpdating = scope.release !== undefined && scope.release.version !== scope.np.status?.version;
  return [versionUpdating ? update(Type.UpdatingVersion.value) : progress(Type.UpdatingVersion.value, undefined), update(Type.UpdatingConfig.value)];
}

/**
 * An InPlace pool whose update this reconcile did not look at (the machines phase stopped first, the hosted cluster's
 * Nodes are not loaded): its generations say nothing of what its machines run, so its progress and version stay as
 * they were.
 */
const inPlaceUnread = (scope: Scope): boolean =>
  scope.np.spec.management.upgradeType === 'InPlace' && scope.inPlace === undefined && inPlaceTargetOf(scope.release) !== undefined;

/** UpdatingVersion and UpdatingConfig (upstream's messages); both True while a new pool comes up, as the manual shows. */
function updating(scope: Scope, machines: MachineSummary): Update[] {
  if (rolledOut(machines)) return [progress(Type.UpdatingVersion.value, undefined), progress(Type.UpdatingConfig.value, undefined)];
  if (scope.inPlace !== undefined) return inPlaceUpdating(scope, scope.inPlace);
  const target = scope.release?.version;
  const configHash = scope.bootstrap?.configHash;
  const versionUpdating = target !== undefined && target !== scope.np.status?.version;
  return [
    progress(Type.UpdatingVersion.value, versionUpdating ? `Updating version in progress. Target version: ${target}` : undefined),
    progress(Type.UpdatingConfig.value, configHash !== undefined && configUpdating(scope, configHash) ? `Updating config in progress. Target config: ${configHash}` : undefined),
  ];
}

/** AutorepairEnabled: on or off as the spec says; the message tells when the health check holds back or an override is ignored. */
function autorepair(scope: Scope): Update {
  const type = Type.AutorepairEnabled.value;
  if (scope.np.spec.management.autoRepair !== true) return { type, status: 'False', reason: Reason.AsExpected.value, message: '' };
  const health = scope.health;
  const notes = [
    ...(health !== undefined && !health.remediationAllowed ? [`not replacing ${health.unhealthy.length} unhealthy machines: more than the health check allows (${HealthCheckAnnotation.MaxUnhealthy})`] : []),
    ...(health?.problems.map((p) => `ignored ${p}`) ?? []),
  ];
  return { type, status: 'True', reason: Reason.AsExpected.value, message: notes.join('; ') };
}

/** Conditions computed from what the phases found, added unless a phase already set them. */
function addComputedConditions(scope: Scope, error: unknown): void {
  const machines = scope.machines;
  const machineConditions = machines === undefined ? [] : [allMachinesReady(scope.np, machines.live), allNodesHealthy(scope.np, machines.live), liveMigratable(machines.live), ...(inPlaceUnread(scope) ? [] : updating(scope, machines))];
  const computed = [ready(scope, error), autorepair(scope), ...machineConditions].filter((u): u is Update => u !== undefined);
  for (const update of computed) if (has(scope, update.type) === undefined) scope.conditions.push({ ...update, observedGeneration: scope.np.metadata.generation });
}

/** `status.platform.kubeVirt`: the boot-image cache in use (kept from status when this reconcile did not get to it) and, for external infrastructure, the credentials. */
function platformStatus(scope: Scope): Pick<NodePoolStatus, 'platform'> {
  const credentials = scope.hc?.spec.platform.kubevirt?.credentials;
  const { cacheName } = scope;
  const kubeVirt = { ...(cacheName === undefined ? {} : { cacheName }), ...(credentials === undefined ? {} : { credentials: structuredClone(credentials) }) };
  return Object.keys(kubeVirt).length === 0 ? {} : { platform: { kubeVirt } };
}

/** The version every machine runs: the release's, once a rollout has finished. */
function versionOf(scope: Scope): string | undefined {
  const done = scope.machines !== undefined && rolledOut(scope.machines) && !inPlaceUnread(scope);
  return done && scope.release !== undefined ? scope.release.version : scope.np.status?.version;
}

/** The status written at the end of every reconcile: conditions merged by type, counts, version and platform status. */
export function computeStatus(scope: Scope, error: unknown): NodePoolStatus {
  const { np } = scope;
  addComputedConditions(scope, error);
  // NodePool conditions are metav1-shaped (plus an unused severity); the status strings are the same three values.
  const stored = np.status?.conditions as Condition[] | undefined;
  const updates = observedAfter(scope.conditions, stored, np.metadata.generation, error === undefined);
  const version = versionOf(scope);
  return {
    ...np.status,
    replicas: scope.machines?.ready ?? np.status?.replicas ?? 0,
    ...(version === undefined ? {} : { version }),
    ...platformStatus(scope),
    conditions: mergeConditions(stored, updates, scope.now),
  };
}
