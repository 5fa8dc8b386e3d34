import type { HostedCluster } from '../../../../api/index.ts';
import { HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import type { KubeClient, KubeObject } from '../../../../kube/client.ts';
import { KubeApiError, UnservedKindError } from '../../../../kube/errors.ts';
import { createdAtMs } from '../../../../lib/objects.ts';
import { setCondition, type Phase, type Scope } from '../scope.ts';

/** Upstream's names for the throw-away Route whose assigned host reveals the apps domain. */
const TEMP_ROUTE = 'kubevirt-infra-temp-route';
const FAKE_SERVICE = 'kubevirt-infra-fake-service';

interface Route extends KubeObject {
  spec?: { host?: string; to?: { kind: string; name: string }; path?: string; port?: { targetPort: number } };
  metadata?: KubeObject['metadata'] & { creationTimestamp?: string };
}

type Discovery = { readonly domain: string } | { readonly problem: string } | { readonly waitMs: number };

/**
 * How long a router may take to give the temporary Route its host. OpenShift's API server assigns it at creation; a
 * router that admits Routes itself (as the local environment's does) writes it a moment later, so an empty host is
 * looked at again until this much time has passed since the Route was created.
 */
const HOST_ASSIGNMENT_MS = 30_000;
const HOST_RECHECK_MS = 1_000;

/** Where the temporary Route goes: the external infrastructure's namespace when there is one (as upstream), else the HostedCluster's. */
const routeTarget = (scope: Scope): { client: KubeClient; namespace: string } => scope.infra ?? { client: scope.deps.client, namespace: scope.hc.metadata.namespace ?? '' };

async function createTempRoute(client: KubeClient, namespace: string): Promise<Route> {
  const route: Route = { apiVersion: 'route.openshift.io/v1', kind: 'Route', metadata: { name: TEMP_ROUTE, namespace } };
  const body: Route = { ...route, spec: { to: { kind: 'Service', name: FAKE_SERVICE }, path: '/', port: { targetPort: 80 } } };
  try {
    return await client.create(body);
  } catch (error) {
    // Left over from an interrupted attempt: its host serves as well.
    if (error instanceof KubeApiError && error.status === 409) return client.get<Route>({ apiVersion: route.apiVersion, kind: route.kind, name: TEMP_ROUTE, namespace });
    throw error;
  }
}

/**
 * Upstream's discovery: create a Route without a host (on the infrastructure cluster when there is one, whose apps
 * domain the guests' ingress is published under), read the host the router assigned
 * (`<route>-<namespace>.<apps domain>`), keep everything after the first label, delete the Route. A host not assigned
 * yet is waited for (up to {@link HOST_ASSIGNMENT_MS}) instead of failing at once.
 */
async function discoverAppsDomain(scope: Scope): Promise<Discovery> {
  const { client, namespace } = routeTarget(scope);
  let route: Route;
  try {
    route = await createTempRoute(client, namespace);
  } catch (error) {
    if (error instanceof UnservedKindError) {
      return { problem: 'spec.platform.kubevirt.baseDomainPassthrough needs a base domain, and this management cluster has no Routes to discover its apps domain from: set spec.dns.baseDomain or start the operator with --apps-domain' };
    }
    throw error;
  }
  const host = route.spec?.host ?? '';
  // A Route its server gives no creation time (none that is an API server; one a tenant stands up may) counts as
  // old: a host is not waited for without end.
  const age = scope.now.getTime() - createdAtMs(route);
  // Kept while a router may still assign the host: the next look finds it (the 409 path of createTempRoute).
  if (!host.includes('.') && age < HOST_ASSIGNMENT_MS) return { waitMs: HOST_RECHECK_MS };
  await client.delete({ apiVersion: route.apiVersion, kind: route.kind, name: TEMP_ROUTE, namespace });
  if (!host.includes('.')) return { problem: 'unable to autodetect kubevirt platform base domain, temporary route is not giving a host value' };
  return { domain: host.split('.').slice(1).join('.') };
}

/**
 * The earlier discovery failure, while the spec is unchanged since: the apps domain does not appear by itself, and
 * retrying would create and delete a Route on every reconcile (our own status writes cause some).
 */
function failedBefore(scope: Scope): Discovery | undefined {
  const previous = scope.hc.status?.conditions?.find((c) => c.type === Type.ValidConfiguration.value);
  const sameSpec = previous?.observedGeneration === scope.hc.metadata.generation;
  return sameSpec && previous?.status === 'False' && previous.message.includes('base domain') ? { problem: previous.message } : undefined;
}

/** The operator's `--apps-domain`, else the earlier failure (spec unchanged), else a discovery. */
async function appsDomain(scope: Scope): Promise<Discovery> {
  if (scope.deps.appsDomain !== undefined) return { domain: scope.deps.appsDomain };
  return failedBefore(scope) ?? (await discoverAppsDomain(scope));
}

/**
 * `baseDomainPassthrough` without a base domain: the domain comes from the operator's `--apps-domain`, or is
 * discovered from the management cluster's apps domain as upstream does, and is written to `spec.dns.baseDomain`.
 */
export const baseDomainPhase: Phase = {
  name: 'base-domain',
  async run(scope) {
    const { spec, metadata } = scope.hc;
    if (spec.platform.kubevirt?.baseDomainPassthrough !== true || (spec.dns?.baseDomain ?? '') !== '') return undefined;
    const found = await appsDomain(scope);
    if ('problem' in found) {
      setCondition(scope, { type: Type.ValidConfiguration.value, status: 'False', reason: Reason.InvalidConfiguration.value, message: found.problem });
      return { stop: true };
    }
    if ('waitMs' in found) return { stop: true, requeueAfterMs: found.waitMs };
    const ref = { apiVersion: scope.hc.apiVersion, kind: scope.hc.kind, name: metadata.name ?? '', namespace: metadata.namespace };
    scope.hc = await scope.deps.client.mergePatch<HostedCluster>(ref, { spec: { dns: { baseDomain: found.domain } } });
    scope.logger.info('base domain set from the apps domain', { baseDomain: found.domain });
    return undefined;
  },
};
