import type { HostedCluster, NodePool } from '../../../api/index.ts';
import type { KubeObject } from '../../../kube/client.ts';
import { fromBase64 } from '../../../lib/base64.ts';
import { parseCertificateRequest } from '../../../pki/csr.ts';
import { VM_NODEPOOL_ANNOTATION } from '../../../platform/kubevirt/virtual-machine.ts';
import { HostedClusterNames } from '../../../render/hostedcluster/names.ts';
import type { SourceSecret } from '../../../render/hostedcluster/secrets.ts';
import { TokenSecretAnnotation, TokenSecretKey } from '../../../render/nodepool/bootstrap.ts';
import { parseBootstrapToken } from '../../../render/nodepool/join.ts';
import type { Clock } from '../../../runtime/clock.ts';
import { Controller, keysInNamespace, type Reconcile } from '../../../runtime/controller.ts';
import type { EventRecorder } from '../../../runtime/events.ts';
import { keyOf } from '../../../runtime/informer.ts';
import type { Logger } from '../../../runtime/logger.ts';
import type { Metrics } from '../../../runtime/metrics.ts';
import { judgeKubeletRequest, type ApprovalFacts, type KnownMachine, type KubeletRequest } from './csr-approval.ts';
import type { GuestCluster, GuestCSR, GuestClusters } from './guest-clusters.ts';
import { addressesOf, type InfraCaches } from './infra-caches.ts';
import { OLD_BOOTSTRAP_TOKEN_KEY, TOKEN_TTL_MS } from './join-credentials.ts';
import { Annotation } from '../../../api/v1beta1/well-known.ts';

/** What the approver reads: the caches the NodePool controller keeps. */
export interface CSRApproverDeps {
  readonly clock: Clock;
  readonly events: EventRecorder;
  readonly guestClusters: GuestClusters;
  readonly infraCaches: InfraCaches;
  readonly clusters: () => readonly HostedCluster[];
  readonly pools: () => readonly NodePool[];
  readonly controlPlaneSecrets: () => readonly (KubeObject & SourceSecret)[];
  readonly watchNamespace?: string | undefined;
}

const live = (np: NodePool): boolean => np.metadata.deletionTimestamp === undefined;

/** Whether a Secret is a token Secret of one of `pools` in `namespace`. */
const tokenSecretOf = (secret: KubeObject, namespace: string, pools: ReadonlySet<string>): boolean =>
  secret.metadata?.namespace === namespace && secret.metadata.annotations?.[TokenSecretAnnotation.IgnitionConfig] === 'true' && pools.has(secret.metadata.annotations[TokenSecretAnnotation.NodePool] ?? '');

/** A token Secret's bootstrap tokens still valid at `now`: the current one, and the previous one until it expires. */
export function validTokensOf(secret: KubeObject & SourceSecret, now: number): string[] {
  const expires = Date.parse(secret.metadata?.annotations?.[Annotation.BootstrapTokenExpiration] ?? '');
  // The previous token was renewed at half its life: it expires half a lifetime before the current one.
  const candidates = [[TokenSecretKey.BootstrapToken, expires], [OLD_BOOTSTRAP_TOKEN_KEY, expires - TOKEN_TTL_MS / 2]] as const;
  return candidates.filter(([, until]) => until > now).flatMap(([key, until]) => parseBootstrapToken(fromBase64(secret.data?.[key]), new Date(until))?.id ?? []);
}

/** Bootstrap token id → pool, for the live tokens of a cluster's live pools. */
function bootstrapTokensOf(deps: CSRApproverDeps, hc: HostedCluster, pools: ReadonlySet<string>, now: number): Map<string, string> {
  const namespace = HostedClusterNames.controlPlaneNamespace(hc);
  const secrets = deps.controlPlaneSecrets().filter((secret) => tokenSecretOf(secret, namespace, pools));
  return new Map(secrets.flatMap((secret) => validTokensOf(secret, now).map((id) => [id, secret.metadata?.annotations?.[TokenSecretAnnotation.NodePool] ?? ''] as const)));
}

/**
 * The VMs of a cluster's live pools, in its infrastructure namespace, with their instances' addresses: from the caches
 * of that cluster's own infrastructure only. An external infrastructure is whatever server its tenant names, so the
 * VMs another cluster's server reports never count (they could claim this cluster's machine names and addresses).
 */
function machinesOf(deps: CSRApproverDeps, hc: HostedCluster, pools: ReadonlySet<string>): Map<string, KnownMachine> {
  const credentials = hc.spec.platform.kubevirt?.credentials;
  const namespace = credentials?.infraNamespace ?? HostedClusterNames.controlPlaneNamespace(hc);
  const cache = deps.infraCaches.ofCluster(hc.metadata.uid ?? '', credentials !== undefined);
  if (cache === undefined) return new Map();
  const poolOf = (vm: KubeObject): string => vm.metadata?.annotations?.[VM_NODEPOOL_ANNOTATION] ?? '';
  const entries = cache.vms.list()
    .filter((vm) => vm.metadata?.namespace === namespace && pools.has(poolOf(vm)) && vm.metadata.deletionTimestamp === undefined)
    .map((vm) => [vm.metadata?.name ?? '', { pool: poolOf(vm), addresses: addressesOf(cache.vmis.get(keyOf(vm))) }] as const);
  return new Map(entries);
}

function requestOf(csr: GuestCSR): KubeletRequest {
  let request: KubeletRequest['request'];
  try {
    request = parseCertificateRequest(fromBase64(csr.spec?.request));
  } catch (error) {
    request = { error: error instanceof Error ? error.message : String(error) };
  }
  return { name: csr.metadata.name, signerName: csr.spec?.signerName ?? '', username: csr.spec?.username ?? '', usages: csr.spec?.usages ?? [], request };
}

const decided = (csr: GuestCSR): boolean => csr.status?.certificate !== undefined || (csr.status?.conditions ?? []).some((c) => ['Approved', 'Denied', 'Failed'].includes(c.type));

/**
 * The approver's reconcile of one request (`<namespace>/<cluster>/<csr>`): judged against the caches (bootstrap tokens
 * of live NodePools, their VMs and instances, the hosted cluster's Nodes); approved through the `approval`
 * subresource, or left pending with a Warning event on the HostedCluster saying why (once per request and reason).
 */
function reconcileCSR(deps: CSRApproverDeps, told: Map<string, string>): Reconcile {
  return async (key, logger) => {
    const found = lookup(deps, key);
    if (found === undefined) return {};
    const { hc, guest, csr } = found;
    const facts: ApprovalFacts = { bootstrapTokens: bootstrapTokensOf(deps, hc, found.pools, deps.clock.now()), machines: machinesOf(deps, hc, found.pools), nodeExists: (node) => guest.nodes.get(node) !== undefined };
    const verdict = judgeKubeletRequest(requestOf(csr), facts);
    if (verdict === undefined) return {};
    if (verdict.approve) {
      const condition = { type: 'Approved', status: 'True', reason: 'AutoApproved', message: `Approved by the hosted control planes operator: ${verdict.reason}`, lastUpdateTime: new Date(deps.clock.now()).toISOString() };
      await guest.client.replace({ ...csr, status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), condition] } }, 'approval');
      logger.info('approved kubelet certificate', { csr: csr.metadata.name, reason: verdict.reason });
      told.delete(key);
      return {};
    }
    if (told.get(key) !== verdict.reason) {
      told.set(key, verdict.reason);
      logger.info('left kubelet certificate pending', { csr: csr.metadata.name, reason: verdict.reason });
      deps.events.record(hc, 'Warning', 'CertificateSigningRequestPending', `CSR ${csr.metadata.name} from ${csr.spec?.username ?? '(unknown)'} left pending: ${verdict.reason}`);
    }
    // A machine's VM or instance may still be on its way into the caches: look again shortly.
    return { requeueAfterMs: 15_000 };
  };
}

/**
 * The cluster, hosted cluster, undecided request and live pools a key names; undefined when there is nothing to judge.
 */
function lookup(deps: CSRApproverDeps, key: string): { hc: HostedCluster; guest: GuestCluster; csr: GuestCSR; pools: Set<string> } | undefined {
  const [namespace, name, csrName] = key.split('/') as [string, string, string];
  const hc = deps.clusters().find((c) => c.metadata.namespace === namespace && c.metadata.name === name);
  const guest = hc === undefined ? undefined : deps.guestClusters.get(hc.metadata.uid ?? '');
  const csr = guest?.csrs.get(csrName);
  if (hc === undefined || guest === undefined || csr === undefined || decided(csr)) return undefined;
  const pools = new Set(deps.pools().filter((np) => np.metadata.namespace === namespace && np.spec.clusterName === name && live(np)).map(keyOf));
  return { hc, guest, csr, pools };
}

/**
 * The kubelet certificate approver of every hosted cluster the NodePool controller reaches: one controller whose keys
 * are `<namespace>/<cluster>/<csr>`, fed by each hosted cluster's CSR informer. It never denies — a request it cannot
 * vouch for stays pending for a human — and judges only the two kubelet signers.
 */
export function csrApprover(deps: CSRApproverDeps, logger: Logger, metrics: Metrics): { controller: Controller; enqueue: (owner: string, csr: GuestCSR) => void } {
  const told = new Map<string, string>();
  const accepts = keysInNamespace(deps.watchNamespace === '' ? undefined : deps.watchNamespace);
  const controller = new Controller({ name: 'csr-approver', clock: deps.clock, logger, metrics, accepts, reconcile: reconcileCSR(deps, told) });
  const enqueue = (owner: string, csr: GuestCSR): void => {
    const hc = deps.clusters().find((c) => c.metadata.uid === owner);
    const key = hc === undefined ? undefined : `${hc.metadata.namespace ?? ''}/${hc.metadata.name ?? ''}/${csr.metadata.name}`;
    if (key !== undefined && accepts(key)) controller.queue.add(key);
  };
  return { controller, enqueue };
}
