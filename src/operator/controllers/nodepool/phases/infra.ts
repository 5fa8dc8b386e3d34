import type { HostedCluster } from '../../../../api/index.ts';
import { NodePoolConditionReason as Reason, NodePoolConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { INFRA_CREDENTIALS_SECRET, infraKubeconfigKey, kubeconfigFromCopy } from '../../../../controlplane/common/infra.ts';
import { produced, setCondition, type Phase, type PhaseOutcome, type Scope } from '../scope.ts';
import type { InfraTarget } from '../infra-target.ts';

/** How long to retry while a new infrastructure cache loads before saying so in status. */
const CACHE_WAIT_MS = 2_000;

/** The external infrastructure kubeconfig from the operator's copy; undefined for the management cluster, '' while the copy is missing. */
function infraKubeconfig(scope: Scope, hc: HostedCluster): string | undefined {
  const key = infraKubeconfigKey(hc.spec.platform.kubevirt?.credentials);
  if (key === undefined) return undefined;
  return kubeconfigFromCopy(scope.deps.controlPlaneSecret(`${scope.controlPlaneNamespace ?? ''}/${INFRA_CREDENTIALS_SECRET}`), key) ?? '';
}

function target(scope: Scope, hc: HostedCluster): InfraTarget | 'waiting-for-credentials' {
  const credentials = hc.spec.platform.kubevirt?.credentials;
  const namespace = credentials?.infraNamespace ?? scope.controlPlaneNamespace ?? '';
  const kubeconfig = infraKubeconfig(scope, hc);
  if (kubeconfig === '') return 'waiting-for-credentials';
  if (kubeconfig === undefined) {
    return { client: scope.deps.client, namespace, external: credentials !== undefined, cache: scope.deps.infraCaches.management(scope.deps.client) };
  }
  const owner = hc.metadata.uid ?? '';
  const client = scope.deps.infraClients.clientFor(owner, kubeconfig);
  return { client, namespace, external: true, cache: scope.deps.infraCaches.external(owner, client, namespace) };
}

const waitingFor = (scope: Scope, message: string): { stop: true; requeueAfterMs: number } => {
  setCondition(scope, { type: Type.Ready.value, status: 'False', reason: Reason.NotFound.value, message });
  return { stop: true, requeueAfterMs: 5_000 };
};

/**
 * Where the pool's VMs live: the control-plane namespace of the management cluster, or `credentials.infraNamespace`
 * on the external infrastructure cluster through the HostedCluster's kubeconfig (a rotated kubeconfig gives a new
 * client and new caches at once). Waits until that cluster's caches have loaded; credentials that may not list what
 * the pool needs are named in Ready. Deletion (`vmsOnly`) needs only the VMs to be listed: it must not hang on a
 * right that only running pools need.
 */
export async function resolveInfra(scope: Scope, vmsOnly = false): Promise<PhaseOutcome | undefined> {
  const hc = produced(scope, 'hc');
  const found = target(scope, hc);
  if (found === 'waiting-for-credentials') return waitingFor(scope, `waiting for the infrastructure kubeconfig to be copied into ${scope.controlPlaneNamespace ?? ''}`);
  const { cache } = found;
  const ready = (): boolean => (vmsOnly ? cache.vms.hasSynced : cache.synced());
  if (!ready()) await Promise.race([Promise.all([cache.vms.waitForSync(), cache.vmis.waitForSync(), cache.bootImageCaches.waitForSync()]), new Promise((resolve) => scope.deps.clock.after(CACHE_WAIT_MS, () => resolve(undefined)))]);
  if (!ready()) return waitingFor(scope, cache.problem() ?? `waiting to list VirtualMachines in namespace ${found.namespace} of the infrastructure cluster (is KubeVirt installed and the namespace readable?)`);
  // Loaded once, but its last list was refused or too large: what it holds is stale, and no decision is made on it.
  const problem = cache.problem();
  if (problem !== undefined && !vmsOnly) return waitingFor(scope, problem);
  scope.infra = found;
  return undefined;
}

export const infraPhase: Phase = { name: 'infra', run: (scope) => resolveInfra(scope) };
