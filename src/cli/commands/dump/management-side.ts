import type { HostedCluster, NodePool } from '../../../api/index.ts';
import type { KubeDocument } from '../../../kube/client.ts';
import { HostedClusterNames } from '../../../render/hostedcluster/names.ts';
import { collectKinds, collectOne, collectSecretNames, listedOf, type DumpSource } from './collect-objects.ts';
import { collectPodLogs } from './collect-logs.ts';
import { NO_MACHINES, splitPods, type MachineFacts, type PodState } from './facts.ts';
import { DATA_VOLUME, HOSTED_CLUSTER, KUBEVIRT_NAMESPACES, MANAGEMENT_NAMESPACED, NAMESPACE, NODE, NODE_POOL, OPERATOR_NAMESPACE, POD, VIRTUAL_MACHINE } from './kinds.ts';
import type { StepRunner } from './steps.ts';

/** What the management side found, for the summary and the other parts. */
export interface ManagementFacts {
  readonly nodePools: readonly NodePool[];
  readonly controlPlanePods: readonly PodState[];
  /** The VMs, disks and their pods in the control-plane namespace (when the management cluster hosts the VMs). */
  readonly machines: MachineFacts;
}

/** The HostedCluster as read, and its NodePools (`spec.clusterName`), written. */
async function clusterObjects(source: DumpSource, hc: HostedCluster): Promise<NodePool[]> {
  source.out.object(HOSTED_CLUSTER, hc as unknown as KubeDocument);
  const namespace = hc.metadata.namespace ?? '';
  const pools = await source.client.list<NodePool>(NODE_POOL.apiVersion, NODE_POOL.kind, { namespace });
  const ours = pools.filter((np) => np.spec.clusterName === hc.metadata.name);
  for (const np of ours) source.out.object(NODE_POOL, np as unknown as KubeDocument);
  return ours;
}

/**
 * Dumps one namespace: the Namespace object, every served kind of it, its Secrets by name. A namespace that does not
 * exist is skipped, and recorded only when it must exist (the control plane's).
 */
async function dumpNamespace(source: DumpSource, namespace: string, required: boolean): Promise<{ exists: boolean; pods: PodState[]; machines: MachineFacts }> {
  const found = await collectOne(source, NAMESPACE, { name: namespace });
  if (found === undefined) {
    if (required) source.out.problem(`namespace ${namespace}`, 'it does not exist (the operator has not created it, or it was deleted)');
    return { exists: false, pods: [], machines: NO_MACHINES };
  }
  const listed = await collectKinds(source, MANAGEMENT_NAMESPACED, namespace);
  await collectSecretNames(source, namespace);
  const { controlPlane, machines } = splitPods(listedOf<PodState>(listed, POD));
  return { exists: true, pods: controlPlane, machines: { virtualMachines: listedOf(listed, VIRTUAL_MACHINE), dataVolumes: listedOf(listed, DATA_VOLUME), pods: machines } };
}

/** A namespace whose pods and logs the summary has no use for (the HostedCluster's, the operator's, KubeVirt's). */
async function dumpOtherNamespace(source: DumpSource, namespace: string, withLogs: boolean): Promise<void> {
  const dumped = await dumpNamespace(source, namespace, false);
  if (dumped.exists && withLogs) await collectPodLogs(source, [...dumped.pods, ...dumped.machines.pods]);
}

/**
 * The management side, step by step: the HostedCluster and its NodePools; the control-plane namespace with its pods'
 * logs (and, when the management cluster hosts the VMs, their VMs, disks, launcher and importer pods); the
 * HostedCluster's namespace; the operator's namespace with its logs; KubeVirt's namespaces when present; the nodes.
 * Each step that fails is recorded and the next one runs.
 */
export async function dumpManagement(source: DumpSource, hc: HostedCluster, step: StepRunner): Promise<ManagementFacts> {
  const cpNamespace = HostedClusterNames.controlPlaneNamespace(hc);
  const nodePools = (await step('Dumping the HostedCluster and its NodePools', source.out, () => clusterObjects(source, hc))) ?? [];
  const cp = await step(`Dumping the control-plane namespace ${cpNamespace}`, source.out, async () => {
    const dumped = await dumpNamespace(source, cpNamespace, true);
    await collectPodLogs(source, [...dumped.pods, ...dumped.machines.pods]);
    return dumped;
  });
  await step(`Dumping the HostedCluster namespace ${hc.metadata.namespace ?? ''}`, source.out, () => dumpOtherNamespace(source, hc.metadata.namespace ?? '', false));
  await step(`Dumping the operator namespace ${OPERATOR_NAMESPACE}`, source.out, () => dumpOtherNamespace(source, OPERATOR_NAMESPACE, true));
  await step('Dumping the KubeVirt namespaces', source.out, async () => {
    for (const namespace of KUBEVIRT_NAMESPACES) await dumpOtherNamespace(source, namespace, false);
  });
  await step('Dumping the management cluster nodes', source.out, () => collectKinds(source, [NODE], undefined));
  return { nodePools, controlPlanePods: cp?.pods ?? [], machines: cp?.machines ?? NO_MACHINES };
}
