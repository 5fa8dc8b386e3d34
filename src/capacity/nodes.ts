/**
 * The workers that host control planes, read from the management cluster's Node objects: those labelled
 * `hypershift.openshift.io/control-plane` (manual §2.2.4), with their allocatable CPU, memory and pods — what the
 * scheduler can place, where the add-on counts every worker's raw capacity.
 */
import { Label } from '../api/index.ts';
import { GIB, parseQuantity } from '../lib/quantity.ts';
import type { Workers } from './model.ts';

/** The label selector of the nodes that host control planes. */
export const CONTROL_PLANE_NODE_SELECTOR = Label.ControlPlane;

/** A Node as far as sizing reads it. */
export interface SizedNode {
  readonly metadata?: { readonly labels?: Readonly<Record<string, string>> };
  readonly status?: { readonly allocatable?: Readonly<Record<string, string>> };
}

/** The labelled nodes' allocatable resources, in all; a node labelled `…=false` does not host control planes. */
export function workersOfNodes(nodes: readonly SizedNode[]): Workers {
  const hosting = nodes.filter((n) => n.metadata?.labels?.[Label.ControlPlane] !== undefined && n.metadata.labels[Label.ControlPlane] !== 'false');
  const sum = (resource: string): number => hosting.reduce((total, n) => total + (parseQuantity(n.status?.allocatable?.[resource] ?? '0') ?? 0), 0);
  return { count: hosting.length, vcpus: sum('cpu'), memoryGiB: sum('memory') / GIB, pods: sum('pods') };
}
