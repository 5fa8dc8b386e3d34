/**
 * Problems read from what runs: pods, DataVolumes, VirtualMachines and the hosted cluster's Nodes — the manual's
 * KubeVirt troubleshooting steps (importer pods, Pending virt-launcher pods, VMs not running, nodes NotReady).
 */
import { conditionOf, keyOf, type ContainerStatus, type DataVolumeState, type GuestFacts, type NodeState, type ObjectCondition, type PodState, type VirtualMachineState } from './facts.ts';
import { Rank, type Finding } from './finding.ts';

/** Waiting reasons of a container that is simply starting. */
const STARTING = new Set(['ContainerCreating', 'PodInitializing']);

/** ` (<label>, <label>): <message>`, leaving out what is empty (a reason may be a label, or a state and a reason). */
function because(labels: string | undefined | ReadonlyArray<string | undefined>, message: string | undefined): string {
  const shown = [...new Set((Array.isArray(labels) ? labels : [labels]).filter((l): l is string => l !== undefined && l !== ''))];
  const m = (message ?? '').trim();
  return `${shown.length === 0 ? '' : ` (${shown.join(', ')})`}${m === '' ? '' : `: ${m}`}`;
}

/** The first container (init containers first: they run first) that waits for another reason than starting. */
function waitingContainer(pod: PodState): { status: ContainerStatus; reason: string; message?: string } | undefined {
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  for (const status of statuses) {
    const waiting = status.state?.waiting;
    if (waiting?.reason !== undefined && !STARTING.has(waiting.reason)) return { status, reason: waiting.reason, message: waiting.message };
  }
  return undefined;
}

/** What is wrong with a pod that is not Running. */
function notRunning(pod: PodState): string {
  const phase = pod.status?.phase ?? 'Pending';
  if (phase === 'Failed') return `failed${because(pod.status?.reason, pod.status?.message)}`;
  const scheduled = conditionOf(pod, 'PodScheduled');
  if (scheduled?.status === 'False') return `is not scheduled${because(scheduled.reason, scheduled.message)}`;
  return `is ${phase}`;
}

/** Whether a pod is nothing to worry about whatever its state: finished, or going away. */
const settled = (pod: PodState): boolean => pod.metadata?.deletionTimestamp !== undefined || pod.status?.phase === 'Succeeded';

/** What is wrong with a running pod: not ready, naming the containers that are not. */
function readiness(pod: PodState): string | undefined {
  const ready = conditionOf(pod, 'Ready');
  if (ready?.status === 'True') return undefined;
  const notReady = (pod.status?.containerStatuses ?? []).filter((c) => c.ready !== true).map((c) => c.name);
  return notReady.length === 0 ? `is not ready${because(ready?.reason, ready?.message)}` : `is not ready: container(s) ${notReady.join(', ')} not ready`;
}

/** What is wrong with a pod, in a few words; undefined when nothing (running and ready, finished, or going away). */
export function podProblem(pod: PodState): string | undefined {
  if (settled(pod)) return undefined;
  const waiting = waitingContainer(pod);
  if (waiting !== undefined) return `container ${waiting.status.name} is waiting${because(waiting.reason, waiting.message)}`;
  return pod.status?.phase === 'Running' ? readiness(pod) : notRunning(pod);
}

/** Pods with a problem, as findings of `rank`. */
export function podFindings(pods: readonly PodState[], rank: number): Finding[] {
  return pods.flatMap((pod) => {
    const problem = podProblem(pod);
    return problem === undefined ? [] : [{ rank, text: `Pod ${keyOf(pod)} ${problem}` }];
  });
}

/** Failing reasons CDI gives a DataVolume's Running condition (`Error`, `ImagePullFailed`, `CrashLoopBackOff`…). */
const IMPORT_FAILING = /Error|Fail|BackOff/;

/** Where a DataVolume's content comes from, in words: the image or URL imported, or the claim cloned. */
function sourceOf(dv: DataVolumeState): string {
  const source = dv.spec?.source ?? {};
  const url = source.registry?.url ?? source.http?.url;
  if (url !== undefined) return url;
  const pvc = source.pvc;
  return pvc === undefined ? 'its source' : `a clone of ${pvc.namespace ?? ''}/${pvc.name ?? ''}`;
}

/** The condition that best says why a DataVolume failed: the first of Running, Ready, Bound that is False with a message. */
function failureCondition(dv: DataVolumeState): ObjectCondition | undefined {
  return ['Running', 'Ready', 'Bound'].map((t) => conditionOf(dv, t)).find((c) => c?.status === 'False' && (c.message ?? '') !== '');
}

/** Whether a DataVolume failed to import (phase Failed, or CDI's importer failing and restarting). */
export function importFailed(dv: DataVolumeState): boolean {
  if (dv.status?.phase === 'Failed') return true;
  const running = conditionOf(dv, 'Running');
  return running?.status === 'False' && IMPORT_FAILING.test(running.reason ?? '');
}

/** DataVolumes that could not import their disk, naming the image. */
export function dataVolumeFindings(dataVolumes: readonly DataVolumeState[]): Finding[] {
  return dataVolumes.filter(importFailed).map((dv) => {
    const c = failureCondition(dv);
    const phase = dv.status?.phase ?? 'unknown';
    return { rank: Rank.dataVolumes, text: `DataVolume ${keyOf(dv)} could not import ${sourceOf(dv)}${because([`phase ${phase}`, c?.reason], c?.message)}` };
  });
}

/** Whether a VM is meant to be stopped, so not running is not a problem. */
const meantToStop = (vm: VirtualMachineState): boolean => vm.spec?.runStrategy === 'Halted' || vm.spec?.running === false;

/** The condition that says why a VM is not running: Failure when True, else Ready. */
function vmWhy(vm: VirtualMachineState): ObjectCondition | undefined {
  const failure = conditionOf(vm, 'Failure');
  return failure?.status === 'True' ? failure : conditionOf(vm, 'Ready');
}

/** What is wrong with a running VM: not ready yet (its guest has not come up). */
function vmReadiness(vm: VirtualMachineState): string | undefined {
  const ready = conditionOf(vm, 'Ready');
  if (vm.status?.ready === true || ready?.status === 'True') return undefined;
  return `is running but not ready${because(ready?.reason, ready?.message)}`;
}

/** What is wrong with a VM, or undefined: not running, or running but not ready. */
function vmProblem(vm: VirtualMachineState): string | undefined {
  if (meantToStop(vm) || vm.metadata?.deletionTimestamp !== undefined) return undefined;
  const printable = vm.status?.printableStatus ?? 'no status';
  if (printable === 'Running') return vmReadiness(vm);
  const why = vmWhy(vm);
  return `is not running${because([printable, why?.reason], why?.message)}`;
}

/** VirtualMachines that do not run. */
export function virtualMachineFindings(vms: readonly VirtualMachineState[]): Finding[] {
  return vms.flatMap((vm) => {
    const problem = vmProblem(vm);
    return problem === undefined ? [] : [{ rank: Rank.virtualMachines, text: `VirtualMachine ${keyOf(vm)} ${problem}` }];
  });
}

/** What is wrong with a Node of the hosted cluster, or undefined when it is Ready. */
function nodeProblem(node: NodeState): string | undefined {
  const ready = conditionOf(node, 'Ready');
  if (ready?.status === 'True') return undefined;
  if (ready === undefined) return 'has not reported Ready';
  return `is not Ready${because([`Ready ${ready.status}`, ready.reason], ready.message)}`;
}

/**
 * The hosted cluster's problems: its API server unreachable, no node where NodePools want some, nodes not Ready.
 * Nothing when it was not dumped (the NodePools' conditions then speak for the nodes).
 */
export function guestFindings(guest: GuestFacts, wantedNodes: number): Finding[] {
  if (guest.state === 'not-dumped') return [];
  if (guest.state === 'unreachable') return [{ rank: Rank.guest, text: `the hosted cluster could not be reached, so its nodes, pods and events are not in this dump: ${guest.reason}` }];
  if (guest.nodes.length === 0 && wantedNodes > 0) return [{ rank: Rank.guest, text: `the hosted cluster has no nodes, while its NodePools want ${wantedNodes}` }];
  return guest.nodes.flatMap((node) => {
    const problem = nodeProblem(node);
    return problem === undefined ? [] : [{ rank: Rank.guest, text: `Node ${keyOf(node)} of the hosted cluster ${problem}` }];
  });
}
