import assert from 'node:assert/strict';
import type { NodePool } from '../api/index.ts';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { runHcp } from './cli.ts';
import type { TestCluster } from './envtest/clusters.ts';
import { eventually } from './eventually.ts';
import { publishIgnitionEndpoint } from './ignition-standin.ts';

/** The API version of HostedCluster and NodePool. */
export const API = 'hypershift.openshift.io/v1beta1';
/** A boot image for tests (the catalog's releases carry none). */
export const TEST_DISK = 'quay.io/containerdisks/rhcos:4.17';

/** A VirtualMachine as the tests read it. */
export type TestVM = KubeObject & {
  metadata: { name: string; labels: Record<string, string>; annotations: Record<string, string>; deletionTimestamp?: string };
  spec: { template: { spec: { domain: { cpu?: { cores: number } }; volumes: { name: string; cloudInitConfigDrive?: { secretRef: { name: string } } }[] } } };
};

/** A condition of a NodePool's status. */
export const conditionOf = (np: NodePool | undefined, type: string): { status: string; reason?: string; message?: string } | undefined => np?.status?.conditions?.find((c) => c.type === type);

/** The NodePool, or undefined once it is gone. */
export const getNodePool = (client: KubeClient, ns: string, name: string): Promise<NodePool | undefined> => client.tryGet<NodePool>({ apiVersion: API, kind: 'NodePool', name, namespace: ns });

/** The VirtualMachines in a namespace. */
export const vmsIn = (client: KubeClient, namespace: string): Promise<TestVM[]> => client.list<TestVM>('kubevirt.io/v1', 'VirtualMachine', { namespace });

/**
 * Creates a KubeVirt HostedCluster and its NodePool with `hcp create cluster kubevirt` (as a user would): `replicas`
 * workers, or those and extra flags (a later `--release-image` wins over the default OpenShift one).
 */
export async function createKubeVirtCluster(management: TestCluster, ns: string, name: string, pool: number | { replicas: number; flags: readonly string[] }): Promise<void> {
  const { replicas, flags } = typeof pool === 'number' ? { replicas: pool, flags: [] } : pool;
  const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, `--name=${name}`, '--pull-secret=/ps', `--node-pool-replicas=${replicas}`, '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-multi', ...flags];
  const out = await runHcp(args, { files: { '/ps': '{"auths":{}}' }, realClock: true });
  assert.equal(out.code, 0, out.stderr);
}

/** Gives the pool a boot image and the cluster an ignition endpoint: what a pool needs before it creates VMs. */
export async function letPoolBoot(client: KubeClient, ns: string, name: string): Promise<void> {
  await client.mergePatch({ apiVersion: API, kind: 'NodePool', name, namespace: ns }, { spec: { platform: { kubevirt: { rootVolume: { diskImage: { containerDiskImage: TEST_DISK } } } } } });
  await publishIgnitionEndpoint(client, ns, name);
}

/** Waits until `count` VMs not being deleted are in `namespace` (and `accept` agrees); returns them. */
export function waitForVMs(client: KubeClient, namespace: string, count: number, accept: (vms: TestVM[]) => boolean = () => true): Promise<TestVM[]> {
  return eventually(`${count} VMs`, async () => {
    const vms = (await vmsIn(client, namespace)).filter((vm) => vm.metadata.deletionTimestamp === undefined);
    return vms.length === count && accept(vms) ? vms : undefined;
  });
}

/** Puts a pod labelled `app: guarded` on a Node of the stand-in hosted cluster directly (no scheduler runs there). */
export async function guardedPodOn(guest: KubeClient, namespace: string, node: string, name: string): Promise<void> {
  await guest.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, labels: { app: 'guarded' } }, spec: { nodeName: node, containers: [{ name: 'app', image: 'registry.example.com/app:1' }] } });
}

/** A budget named `guarded` that allows no disruption of the `pods` guarded pods, once the disruption controller judged it. */
export async function guardingBudget(guest: KubeClient, namespace: string, pods: number): Promise<void> {
  await guest.create({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'guarded', namespace }, spec: { minAvailable: pods, selector: { matchLabels: { app: 'guarded' } } } });
  // The disruption controller must have judged the budget before an eviction is refused for it.
  await eventually('the budget observed', async () => {
    const pdb = await guest.get<KubeObject & { status?: { observedGeneration?: number; currentHealthy?: number } }>({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', name: 'guarded', namespace });
    return pdb.status?.observedGeneration === 1 && pdb.status.currentHealthy === pods;
  });
}
