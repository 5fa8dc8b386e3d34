import type { HostedCluster } from '../../../../api/index.ts';
import { ALL_IS_WELL_MESSAGE, HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { appsDomainOf } from '../../../../api/v1beta1/dns.ts';
import type { KubeObject } from '../../../../kube/client.ts';
import { HostedClusterNames } from '../../../../render/hostedcluster/names.ts';
import { setCondition, type Phase, type Scope } from '../scope.ts';
import type { IngressDNSCheck, IngressLoadBalancer } from './ingress-dns-check.ts';

/** How soon a missing record is looked up again, and a found one. */
const RECHECK_MISSING_MS = 2 * 60_000;
const RECHECK_FOUND_MS = 30 * 60_000;
/** The label looked up under the wildcard: any name under `*.apps.<cluster>.<base domain>` must resolve. */
const PROBE_LABEL = 'hcp-dns-check';

/** How long an answer holds: a found record long, a missing one briefly. */
const recheckMs = (check: IngressDNSCheck): number => (check.resolvable ? RECHECK_FOUND_MS : RECHECK_MISSING_MS);

type LoadBalancerService = KubeObject & { spec?: { type?: string; selector?: Record<string, string> }; status?: { loadBalancer?: { ingress?: Array<{ ip?: string; hostname?: string }> } } };

/**
 * The manual's ingress load balancer (§3.3.4.2): a `type: LoadBalancer` Service selecting `kubevirt.io: virt-launcher`,
 * in the control-plane namespace, or in the infrastructure namespace when the VMs run on an external infrastructure.
 * The one with an address first.
 */
async function findLoadBalancer(scope: Scope): Promise<IngressLoadBalancer | undefined> {
  const where = scope.infra ?? { client: scope.deps.client, namespace: HostedClusterNames.controlPlaneNamespace(scope.hc) };
  const services = await where.client.list<LoadBalancerService>('v1', 'Service', { namespace: where.namespace });
  const found = services
    .filter((svc) => svc.spec?.type === 'LoadBalancer' && svc.spec.selector?.['kubevirt.io'] === 'virt-launcher')
    .map((svc) => {
      const ingress = svc.status?.loadBalancer?.ingress?.[0];
      const address = ingress?.ip ?? ingress?.hostname;
      return { service: `${where.namespace}/${svc.metadata?.name ?? ''}`, ...(address === undefined ? {} : { address }) };
    });
  return found.find((lb) => lb.address !== undefined) ?? found[0];
}

/** One lookup of the apps domain; while it does not resolve, the load balancer it should point at. */
async function lookUp(scope: Scope, host: string, now: number): Promise<IngressDNSCheck> {
  const answer = await scope.deps.resolveHost(host);
  const loadBalancer = answer.resolvable ? undefined : await findLoadBalancer(scope);
  return { host, ...answer, at: now, ...(loadBalancer === undefined ? {} : { loadBalancer }) };
}

/**
 * The apps domain of a KubeVirt cluster that brings its own base domain (`--base-domain`, no default ingress
 * passthrough): upstream's `apps.<name>.<base domain>`. Undefined for passthrough clusters, whose applications are
 * published under the infrastructure cluster's own wildcard route.
 */
export function ownAppsDomain(hc: HostedCluster): string | undefined {
  const kubevirt = hc.spec.platform.kubevirt;
  if (hc.spec.platform.type !== 'KubeVirt' || kubevirt?.baseDomainPassthrough === true) return undefined;
  return appsDomainOf(hc.metadata.name ?? '', hc.spec.dns);
}

function report(scope: Scope, domain: string, check: IngressDNSCheck): void {
  if (check.resolvable) {
    setCondition(scope, { type: Type.IngressDNSResolvable.value, status: 'True', reason: Reason.AsExpected.value, message: ALL_IS_WELL_MESSAGE });
    return;
  }
  const lb = check.loadBalancer;
  if (lb !== undefined && lb.address === undefined) {
    const message = `${check.host} does not resolve, and the LoadBalancer Service ${lb.service} has no external address: the infrastructure cluster gives LoadBalancer Services none (on bare metal, install MetalLB and give it an address pool), so nothing can carry the cluster's ingress yet`;
    setCondition(scope, { type: Type.IngressDNSResolvable.value, status: 'False', reason: Reason.IngressLoadBalancerPending.value, message });
    return;
  }
  const target = lb?.address === undefined ? "the hosted cluster's ingress (a LoadBalancer Service on the infrastructure cluster selecting kubevirt.io=virt-launcher, targeting the ingress NodePorts of openshift-ingress/router-nodeport-default)" : `${lb.address}, the address of the LoadBalancer Service ${lb.service}`;
  const message = `${check.host} does not resolve (${check.detail}): create a wildcard DNS record *.${domain} pointing at ${target}, or create the cluster without --base-domain to publish applications under the infrastructure cluster's wildcard route`;
  setCondition(scope, { type: Type.IngressDNSResolvable.value, status: 'False', reason: Reason.IngressDNSNotResolvable.value, message });
}

/**
 * `IngressDNSResolvable` (ours): a `--base-domain` cluster's applications are reached under `*.apps.<name>.<base
 * domain>`, which only the user's DNS can provide; a missing record is reported with the record to create instead of
 * surfacing later as unreachable routes. Looked up from the operator (injected resolver), every 2 minutes while
 * missing and every 30 once found; a reconcile in between reuses the last answer.
 */
export const ingressDNSPhase: Phase = {
  name: 'ingress-dns',
  async run(scope) {
    const domain = ownAppsDomain(scope.hc);
    if (domain === undefined) return undefined;
    const key = scope.hc.metadata.uid ?? '';
    const host = `${PROBE_LABEL}.${domain}`;
    const now = scope.now.getTime();
    const previous = scope.deps.ingressDNSChecks.get(key);
    const due = previous === undefined || previous.host !== host || now - previous.at >= recheckMs(previous);
    const current = due ? await lookUp(scope, host, now) : previous;
    scope.deps.ingressDNSChecks.set(key, current);
    report(scope, domain, current);
    return { requeueAfterMs: recheckMs(current) - (now - current.at) };
  },
};
