import type { NodePool } from '../../api/index.ts';

/** Reason of `ValidMachineConfig` when the KubeVirt platform of a NodePool is invalid (upstream's). */
export const PLATFORM_VALIDATION_FAILED = 'ValidationFailed';

/**
 * Every problem with `spec.platform.kubevirt` of a NodePool that the API schema lets through, in upstream's words.
 * Upstream stops at the first; all are listed here so one edit can fix them.
 */
export function kubevirtPlatformProblems(nodePool: Pick<NodePool, 'spec'>): string[] {
  const platform = nodePool.spec.platform.kubevirt;
  if (platform === undefined) return ['nodepool.spec.platform.kubevirt is required'];
  const rootVolume = platform.rootVolume as NonNullable<typeof platform.rootVolume> | undefined;
  if (rootVolume === undefined) return ['the kubevirt platform rootVolume field is required'];
  const persistentMissing = (rootVolume.type ?? 'Persistent') === 'Persistent' && rootVolume.persistent === undefined;
  const defaultNetworkAlone = platform.attachDefaultNetwork === false && (platform.additionalNetworks ?? []).length === 0;
  return [
    ...(persistentMissing ? ['the kubevirt persistent storage field must be set when rootVolume.Type=Persistent'] : []),
    ...(defaultNetworkAlone ? ['default network cannot be disabled when no additional networks are configured'] : []),
    ...(platform.hostDevices ?? [])
      .map((device) => device.count ?? 1)
      .filter((count) => count < 1)
      .map((count) => `host device count must be greater than or equal to 1. received: ${count}`),
  ];
}

/** The `ValidMachineConfig` message for the problems above (upstream's prefix). */
export const platformValidationMessage = (problems: readonly string[]): string =>
  `validation of NodePool KubeVirt platform failed: ${problems.join('; ')}`;
