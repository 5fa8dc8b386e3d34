import type { HostedCluster } from '../../../../api/index.ts';
import { ALL_IS_WELL_MESSAGE, HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { appsDomainOf } from '../../../../api/v1beta1/dns.ts';
import { setCondition, type Phase, type Scope } from '../scope.ts';

/** How soon a missing record is looked up again, and a found one. */
const RECHECK_MISSING_MS = 2 * 60_000;
const RECHECK_FOUND_MS = 30 * 60_000;
/** The label looked up under the wildcard: any name under `*.apps.<cluster>.<base domain>` must resolve. */
const PROBE_LABEL = 'hcp-dns-check';

/** How long an answer holds: a found record long, a missing one briefly. */
const recheckMs = (check: IngressDNSCheck): number => (check.resolvable ? RECHECK_FOUND_MS : RECHECK_MISSING_MS);

/** The outcome of one lookup of a cluster's apps domain. */
export interface IngressDNSCheck {
  readonly host: string;
  readonly resolvable: boolean;
  readonly detail: string;
  readonly at: number;
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
  const message = `${check.host} does not resolve (${check.detail}): create a wildcard DNS record *.${domain} pointing at the hosted cluster's ingress (for example a LoadBalancer Service on the infrastructure cluster in front of its router), or create the cluster without --base-domain to publish applications under the infrastructure cluster's wildcard route`;
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
    const current = due ? { host, ...(await scope.deps.resolveHost(host)), at: now } : previous;
    scope.deps.ingressDNSChecks.set(key, current);
    report(scope, domain, current);
    return { requeueAfterMs: recheckMs(current) - (now - current.at) };
  },
};
