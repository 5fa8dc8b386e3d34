/**
 * One problem the summary reports, and the order problems are reported in. The order follows cause before effect,
 * as the manual's troubleshooting does: a paused or misconfigured cluster explains everything after it; the control
 * plane comes before the machines; a disk that cannot be imported explains its VM not running, which explains the
 * NodePool's machines not being ready, which explains nodes missing and the cluster's data-plane conditions.
 */

/** A problem found, with where it sorts. */
export interface Finding {
  /** Lower comes first: a tier of {@link Rank} plus the position within it. */
  readonly rank: number;
  readonly text: string;
}

/** The tiers, cause first. Each leaves room for the positions of the findings within it. */
export const Rank = {
  /** Reconciliation paused (`spec.pausedUntil`): nothing changes until it ends. */
  paused: 100,
  /** HostedCluster conditions that need a spec or environment change. */
  clusterSpec: 200,
  /** What the control plane needs before it can start: credentials, infrastructure, the release. */
  clusterFoundation: 300,
  /** Control-plane pods that do not run. */
  controlPlanePods: 400,
  /** The control plane's availability conditions. */
  controlPlane: 500,
  /** NodePool conditions that need a spec change (the boot image, the release, the template). */
  nodePoolSpec: 600,
  /** Disks that cannot be imported. */
  dataVolumes: 700,
  /** virt-launcher and importer pods that do not run. */
  machinePods: 750,
  /** VMs that do not run. */
  virtualMachines: 800,
  /** NodePool conditions about its machines. */
  nodePoolMachines: 900,
  /** The hosted cluster itself: its API server unreachable, its nodes not Ready. */
  guest: 1000,
  /** NodePool conditions about its nodes and readiness. */
  nodePoolNodes: 1100,
  /** HostedCluster conditions that follow from the data plane. */
  clusterDataPlane: 1200,
  /** Any other HostedCluster condition in a bad state. */
  clusterOther: 1300,
  /** No NodePool at all. */
  noNodePools: 1400,
} as const;

/** Findings in report order: by rank, and in the order found within a rank. */
export function ordered(findings: readonly Finding[]): Finding[] {
  return findings.map((f, i) => ({ f, i })).sort((a, b) => a.f.rank - b.f.rank || a.i - b.i).map(({ f }) => f);
}
