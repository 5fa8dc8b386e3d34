import { HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import type { KubeClient, KubeObject } from '../../../../kube/client.ts';
import { isForbidden, KubeApiError, UnservedKindError } from '../../../../kube/errors.ts';
import { blockedNetworksOf, renderVirtLauncherNetworkPolicy } from '../../../../platform/kubevirt/network-policy.ts';
import { HostedClusterNames, OPERATOR_FIELD_MANAGER } from '../../../../render/hostedcluster/names.ts';
import { applyUnlessUnchanged } from '../../../../runtime/apply.ts';
import { setCondition, type Phase, type Scope } from '../scope.ts';

type Network = KubeObject & { spec?: { clusterNetwork?: { cidr?: string }[]; serviceNetwork?: string[] } };

const NETWORK_READ_FAILED = 'The external infrastructure kubeconfig lacks permission to read networks.config.openshift.io/cluster. The virt-launcher NetworkPolicy has been created without CIDR-based egress restrictions, so the VMs can reach the infrastructure cluster\'s pod and service networks. Grant the ClusterRole of the external-infrastructure documentation to restore full isolation.';
const POLICY_CREATE_FAILED = 'Unable to create/update virt-launcher NetworkPolicy on the infrastructure cluster: the external infra kubeconfig lacks networking.k8s.io/networkpolicies permissions. Grant them in the infra namespace to isolate the VMs.';
/** How often missing infrastructure rights are checked again. */
const RBAC_RECHECK_MS = 5 * 60_000;
const ALL_GOOD = 'Infrastructure cluster network configuration is readable; CIDR-based egress restrictions are active.';

const isForbiddenOrMissing = (error: unknown): boolean => error instanceof UnservedKindError || (error instanceof KubeApiError && [403, 404].includes(error.status));

/** The infrastructure cluster's pod and service networks, or undefined when they cannot be read. */
async function readBlockedNetworks(client: KubeClient): Promise<string[] | undefined> {
  try {
    return blockedNetworksOf(await client.get<Network>({ apiVersion: 'config.openshift.io/v1', kind: 'Network', name: 'cluster' }));
  } catch (error) {
    if (isForbiddenOrMissing(error)) return undefined;
    throw error;
  }
}

/**
 * The blocked networks of a cluster, read at most once per recheck period per client: every HostedCluster on the
 * management cluster shares one read, and a reconcile for another reason costs no request.
 */
async function blockedNetworks(scope: Scope, client: KubeClient): Promise<string[] | undefined> {
  const now = scope.now.getTime();
  const known = scope.deps.networkReads.get(client);
  if (known !== undefined && now - known.at < RBAC_RECHECK_MS) return known.cidrs;
  const cidrs = await readBlockedNetworks(client);
  scope.deps.networkReads.set(client, { at: now, cidrs });
  return cidrs;
}

/** Applies the policy unless this process last applied the same one; false when RBAC forbids it. */
async function applyPolicy(scope: Scope, client: KubeClient, policy: KubeObject): Promise<boolean> {
  try {
    await applyUnlessUnchanged(client, policy, { lastApplied: scope.deps.lastApplied, key: `${scope.hc.metadata.uid ?? ''}/network-policy`, fieldManager: OPERATOR_FIELD_MANAGER });
    return true;
  } catch (error) {
    if (isForbidden(error)) return false;
    throw error;
  }
}

/**
 * A Warning Event in the infrastructure namespace (upstream's name, reason and object), so the infra cluster's admin
 * sees what the hosted cluster's owner sees. Written once per message per process, not on every reconcile.
 */
async function warnInInfraNamespace(scope: Scope, client: KubeClient, namespace: string, message: string): Promise<void> {
  const key = `${scope.hc.metadata.uid ?? ''}/network-policy-event`;
  if (scope.deps.lastApplied.get(key) === message) return;
  const now = scope.now.toISOString();
  const name = `virt-launcher-netpol-rbac-${scope.hc.spec.infraID ?? ''}`;
  const existing = await client.tryGet<KubeObject & { count?: number }>({ apiVersion: 'v1', kind: 'Event', name, namespace }).catch(() => undefined);
  const event = {
    apiVersion: 'v1', kind: 'Event', metadata: { ...existing?.metadata, name, namespace },
    involvedObject: { apiVersion: 'v1', kind: 'Namespace', name: namespace, namespace },
    reason: 'InsufficientNetworkPolicyRBAC', message, type: 'Warning', source: { component: 'hypershift-operator' },
    firstTimestamp: (existing as { firstTimestamp?: string } | undefined)?.firstTimestamp ?? now, lastTimestamp: now, count: (existing?.count ?? 0) + 1,
  };
  // An Event is best effort: the documented Role allows it, but a missing right must not stop the reconcile.
  await (existing === undefined ? client.create(event) : client.replace(event)).then(() => scope.deps.lastApplied.set(key, message), (error: unknown) => scope.logger.info('could not record the event in the infra namespace', { reason: error instanceof Error ? error.message : String(error) }));
}

/** The NodePort-published addresses of the control plane, which the VMs must reach even inside blocked networks. */
const nodePortAddresses = (scope: Scope): string[] =>
  scope.hc.spec.services.map((s) => s.servicePublishingStrategy.nodePort?.address ?? '').filter((a) => a !== '');

/** What the external infrastructure kubeconfig could not do, in upstream's reasons and messages. */
function rbacProblem(applied: boolean, networksRead: boolean): { reason: string; message: string } | undefined {
  if (!applied) return { reason: Reason.InfraClusterNetworkPolicyCreateFailed.value, message: POLICY_CREATE_FAILED };
  if (!networksRead) return { reason: Reason.InfraClusterNetworkReadFailed.value, message: NETWORK_READ_FAILED };
  return undefined;
}

/**
 * The virt-launcher NetworkPolicy beside the VMs: in the control-plane namespace, or in the external infrastructure
 * namespace through the infra client. With external infrastructure, what the kubeconfig may not do is reported in
 * `ValidKubeVirtInfraNetworkPolicyRBAC` (and a Warning Event there) without failing the cluster, as upstream.
 */
export const networkPolicyPhase: Phase = {
  name: 'network-policy',
  async run(scope) {
    const external = scope.infra;
    const client = external?.client ?? scope.deps.client;
    const namespace = external?.namespace ?? HostedClusterNames.controlPlaneNamespace(scope.hc);
    const blockedCIDRs = await blockedNetworks(scope, client);
    const policy = renderVirtLauncherNetworkPolicy({ namespace, infraID: scope.hc.spec.infraID ?? '', blockedCIDRs, controlPlanePeers: external === undefined && blockedCIDRs !== undefined, nodePortAddresses: nodePortAddresses(scope) });
    const applied = await applyPolicy(scope, client, policy);
    if (external === undefined) {
      if (!applied) throw new Error(`the operator may not create NetworkPolicies in ${namespace}`);
      return undefined;
    }
    const type = Type.ValidKubeVirtInfraNetworkPolicyRBAC.value;
    const problem = rbacProblem(applied, blockedCIDRs !== undefined);
    if (problem === undefined) {
      setCondition(scope, { type, status: 'True', reason: Reason.AsExpected.value, message: ALL_GOOD });
      return undefined;
    }
    setCondition(scope, { type, status: 'False', ...problem });
    await warnInInfraNamespace(scope, client, namespace, problem.message);
    // Rights granted later are noticed without an event: look again now and then (reads only while nothing changes).
    return { requeueAfterMs: RBAC_RECHECK_MS };
  },
};
