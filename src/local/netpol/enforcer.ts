/**
 * The local environment's **NetworkPolicy stand-in**, the I/O part: the local clusters' pod network (a bridge per
 * node) enforces no NetworkPolicy, and no enforcer builds and runs here (kube-network-policies needs the kernel's
 * nftables queue, which this host's kernel lacks; kube-router's and Calico's modules are refused by the Go proxy). So
 * for the infrastructure cluster, where the operator isolates the VMs' launcher pods, this loop watches
 * NetworkPolicies, pods and namespaces and writes the rules `compile.ts` compiles into each node's filter table (chains
 * of its own, jumped to from FORWARD). What it cannot honour it refuses, with a Warning Event on the policy, and
 * enforces nothing of that policy rather than part of it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeClient, KubeObject } from '../../kube/client.ts';
import type { Clock } from '../../runtime/clock.ts';
import { Controller } from '../../runtime/controller.ts';
import { Informer } from '../../runtime/informer.ts';
import type { Logger } from '../../runtime/logger.ts';
import { Metrics } from '../../runtime/metrics.ts';
import { inNodeNetwork } from '../environment/host-network.ts';
import type { EnvironmentLayout, NodeLayout } from '../environment/layout.ts';
import { compileNetworkPolicies, NETPOL_CHAIN, staleChains, type NetworkPolicyObject, type PolicyPod } from './compile.ts';

/** Who writes the refusal Events. */
const COMPONENT = 'hcp-local-netpol-standin';

type Pod = KubeObject & { metadata: { name: string; namespace: string; labels?: Record<string, string> }; spec?: { nodeName?: string; hostNetwork?: boolean }; status?: { podIP?: string; phase?: string } };
type Namespace = KubeObject & { metadata: { name: string; labels?: Record<string, string> } };
type Policy = NetworkPolicyObject & KubeObject;

/** Options of {@link startNetworkPolicyStandIn}. */
export interface NetworkPolicyStandInOptions {
  readonly client: KubeClient;
  /** The cluster whose nodes enforce. */
  readonly layout: EnvironmentLayout;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** A pod as the compiler sees it: host-network pods and finished pods have no address of their own to police. */
function policyPod(pod: Pod): PolicyPod | undefined {
  if (pod.spec?.hostNetwork === true || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return undefined;
  return { namespace: pod.metadata.namespace, name: pod.metadata.name, labels: pod.metadata.labels ?? {}, ip: pod.status?.podIP };
}

/** The chains of ours the node's filter table has now. */
async function existingChains(node: NodeLayout): Promise<string[]> {
  const listing = await inNodeNetwork(node, ['iptables', '-t', 'filter', '-S']);
  return listing.split('\n').filter((l) => l.startsWith('-N ')).map((l) => l.slice(3).trim());
}

/**
 * Writes a node's rules: the compiled chains (replacing the previous ones in one `iptables-restore`), FORWARD's jump
 * to them when missing, and the chains no longer compiled removed.
 */
async function applyToNode(node: NodeLayout, rules: string): Promise<void> {
  const file = join(node.dir, 'network-policies.rules');
  writeFileSync(file, rules);
  await inNodeNetwork(node, ['iptables-restore', '--noflush', file]);
  await inNodeNetwork(node, ['iptables', '-C', 'FORWARD', '-j', NETPOL_CHAIN]).catch(() => inNodeNetwork(node, ['iptables', '-I', 'FORWARD', '1', '-j', NETPOL_CHAIN]));
  for (const chain of staleChains(await existingChains(node), rules)) {
    await inNodeNetwork(node, ['iptables', '-F', chain]);
    await inNodeNetwork(node, ['iptables', '-X', chain]);
  }
}

/** A Warning Event on a policy the stand-in does not enforce, written once per reason by this process. */
async function warnRefused(o: NetworkPolicyStandInOptions, policy: string, reason: string): Promise<void> {
  const [namespace = '', name = ''] = policy.split('/');
  const now = new Date(o.clock.now()).toISOString();
  o.logger.info('NetworkPolicy not enforced', { policy, reason });
  await o.client.create({
    apiVersion: 'v1', kind: 'Event', metadata: { generateName: `${name}.`, namespace },
    involvedObject: { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', name, namespace },
    reason: 'NotEnforcedByStandIn', message: `the local NetworkPolicy stand-in does not enforce this policy: ${reason}`, type: 'Warning',
    source: { component: COMPONENT }, firstTimestamp: now, lastTimestamp: now, count: 1,
  }).catch((error: unknown) => o.logger.info('could not record the event', { policy, reason: error instanceof Error ? error.message : String(error) }));
}

/**
 * Starts the stand-in over the cluster in `o.layout`: every change to a policy, pod or namespace recompiles the rules
 * of every node (one key: the cluster is small, and a policy's peers may be on any node). Returns its stop function.
 */
export function startNetworkPolicyStandIn(o: NetworkPolicyStandInOptions): () => void {
  const informer = <T extends KubeObject>(apiVersion: string, kind: string): Informer<T> => new Informer<T>(o.client, { apiVersion, kind }, { clock: o.clock, logger: o.logger });
  const policies = informer<Policy>('networking.k8s.io/v1', 'NetworkPolicy');
  const pods = informer<Pod>('v1', 'Pod');
  const namespaces = informer<Namespace>('v1', 'Namespace');
  const warned = new Set<string>();
  const reconcile = async (): Promise<Record<string, never>> => {
    const all = pods.list().flatMap((p) => policyPod(p) ?? []);
    const input = { policies: policies.list(), pods: all, namespaces: namespaces.list().map((n) => ({ name: n.metadata.name, labels: n.metadata.labels ?? {} })) };
    for (const node of o.layout.nodes) {
      const local = pods.list().filter((p) => p.spec?.nodeName === node.name).flatMap((p) => policyPod(p) ?? []);
      const { rules, refused } = compileNetworkPolicies({ ...input, localPods: local });
      await applyToNode(node, rules);
      for (const r of refused.filter((x) => !warned.has(`${x.policy}: ${x.reason}`))) {
        warned.add(`${r.policy}: ${r.reason}`);
        await warnRefused(o, r.policy, r.reason);
      }
    }
    return {};
  };
  const controller = new Controller({ name: 'netpol-standin', clock: o.clock, logger: o.logger, metrics: new Metrics(), workers: 1, reconcile });
  for (const source of [policies, pods, namespaces] as Informer<KubeObject>[]) controller.watch(source, () => ['cluster']);
  const abort = new AbortController();
  for (const source of [policies, pods, namespaces]) source.start();
  void controller.run(abort.signal);
  return () => {
    abort.abort();
    for (const source of [policies, pods, namespaces]) source.stop();
  };
}
