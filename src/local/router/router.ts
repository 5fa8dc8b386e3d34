/**
 * The local environment's router, the I/O part: watches the Routes, Services and EndpointSlices of the environment's
 * clusters, writes each Route's admission (its host when it had none, `status.ingress` as OpenShift's router does)
 * and the proxy configuration the router's Traefik reads (plan.ts decides both).
 */
import { dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { writeFileIfChanged } from '../cluster/files.ts';
import type { KubeClient, KubeObject } from '../../kube/client.ts';
import type { Clock } from '../../runtime/clock.ts';
import { Controller } from '../../runtime/controller.ts';
import { Informer } from '../../runtime/informer.ts';
import type { Logger } from '../../runtime/logger.ts';
import { Metrics } from '../../runtime/metrics.ts';
import { planRouter, type Admission, type RouteObject, type ServiceObject, type SliceObject } from './plan.ts';

/** The router's name in `status.ingress[].routerName` (OpenShift's default router). */
export const ROUTER_NAME = 'default';
const ROUTE = { apiVersion: 'route.openshift.io/v1', kind: 'Route' } as const;

/** A cluster the router serves: its client and its apps domain. */
export interface RouterTarget {
  readonly name: string;
  readonly domain: string;
  readonly client: KubeClient;
  /** Serve only this namespace's Routes (a shard, as OpenShift routers can be); all namespaces when absent. */
  readonly namespace?: string;
}

/** Options of {@link startRouterController}. */
export interface RouterControllerOptions {
  readonly clusters: readonly RouterTarget[];
  /** The proxy's dynamic configuration file (its file provider watches the folder). */
  readonly configFile: string;
  readonly clock: Clock;
  readonly logger: Logger;
}

type Route = RouteObject & KubeObject & { status?: { ingress?: IngressStatus[] } };
interface IngressStatus {
  host: string;
  routerName: string;
  wildcardPolicy: string;
  routerCanonicalHostname: string;
  conditions: Array<{ type: string; status: string; reason?: string; message?: string; lastTransitionTime: string }>;
}

/** The `status.ingress` entry of an admission; the transition time kept while the verdict is unchanged. */
function ingressStatus(admission: Admission, live: IngressStatus | undefined, now: string): IngressStatus {
  const status = admission.admitted ? 'True' : 'False';
  const previous = live?.conditions.find((c) => c.type === 'Admitted');
  const since = previous?.status === status ? previous.lastTransitionTime : now;
  return {
    host: admission.host,
    routerName: ROUTER_NAME,
    wildcardPolicy: admission.wildcardPolicy,
    routerCanonicalHostname: admission.canonicalHostname,
    conditions: [{ type: 'Admitted', status, ...(admission.reason === undefined ? {} : { reason: admission.reason }), ...(admission.message === undefined ? {} : { message: admission.message }), lastTransitionTime: since }],
  };
}

/** Writes one Route's host (when the router assigned it) and its status entry, each only when it differs. */
async function admit(client: KubeClient, route: Route, admission: Admission, now: string): Promise<void> {
  const ref = { ...ROUTE, name: admission.name, namespace: admission.namespace };
  if (admission.assignedHost) await client.mergePatch(ref, { spec: { host: admission.host } });
  const others = (route.status?.ingress ?? []).filter((i) => i.routerName !== ROUTER_NAME);
  const live = route.status?.ingress?.find((i) => i.routerName === ROUTER_NAME);
  const wanted = ingressStatus(admission, live, now);
  // Compared by value: the API server need not keep the order of the keys it was sent.
  if (isDeepStrictEqual(live, wanted)) return;
  await client.mergePatch(ref, { status: { ingress: [...others, wanted] } }, 'status');
}

/**
 * Starts the router's controller over every cluster: one key for all of them, since a host is claimed across
 * clusters and the proxy has one configuration. Returns its stop function, which resolves once a reconcile under way
 * has finished (nothing is written after it).
 */
export function startRouterController(o: RouterControllerOptions): () => Promise<void> {
  const sources = o.clusters.map((cluster) => {
    const scope = cluster.namespace === undefined ? {} : { namespace: cluster.namespace };
    const informer = <T extends KubeObject>(apiVersion: string, kind: string): Informer<T> => new Informer<T>(cluster.client, { apiVersion, kind, ...scope }, { clock: o.clock, logger: o.logger.with({ cluster: cluster.name }) });
    return { cluster, routes: informer<Route>(ROUTE.apiVersion, ROUTE.kind), services: informer<ServiceObject & KubeObject>('v1', 'Service'), slices: informer<SliceObject & KubeObject>('discovery.k8s.io/v1', 'EndpointSlice') };
  });
  const reconcile = async (): Promise<Record<string, never>> => {
    const clusters = sources.map((s) => ({ name: s.cluster.name, domain: s.cluster.domain, routes: s.routes.list(), services: s.services.list(), slices: s.slices.list() }));
    const { admissions, config } = planRouter(clusters);
    const now = new Date(o.clock.now()).toISOString();
    for (const admission of admissions) {
      const source = sources.find((s) => s.cluster.name === admission.cluster);
      const route = source?.routes.get(`${admission.namespace}/${admission.name}`);
      if (source !== undefined && route !== undefined) await admit(source.cluster.client, route, admission, now);
    }
    // Written beside the watched folder, then renamed into it: the proxy reads every file there, and never half of one.
    if (writeFileIfChanged(o.configFile, `${JSON.stringify(config, null, 2)}\n`, `${dirname(o.configFile)}.partial`)) o.logger.info('proxy configuration written', { routes: admissions.filter((a) => a.admitted).length, refused: admissions.filter((a) => !a.admitted).length });
    return {};
  };
  const controller = new Controller({ name: 'router', clock: o.clock, logger: o.logger, metrics: new Metrics(), workers: 1, reconcile });
  const informers = sources.flatMap((s) => [s.routes, s.services, s.slices] as Informer<KubeObject>[]);
  for (const informer of informers) controller.watch(informer, () => ['all']);
  const abort = new AbortController();
  for (const informer of informers) informer.start();
  const running = controller.run(abort.signal);
  return async () => {
    abort.abort();
    for (const informer of informers) informer.stop();
    await running;
  };
}
