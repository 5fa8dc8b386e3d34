/**
 * The local environment's router, pure part: which Routes of the environment's clusters it admits (OpenShift's rules:
 * a missing host is `<name>-<namespace>.<apps domain>`, the oldest Route claiming a host wins, `Subdomain` wildcards are
 * allowed as the manual asks of the infrastructure's router) and the proxy configuration (Traefik's file provider)
 * that serves them: TLS passthrough by SNI, plain HTTP by Host. Edge and reencrypt termination need a router that
 * terminates TLS with the Route's certificates; this one refuses them in the Route's status rather than serve them
 * differently.
 */
import { createdAtMs } from '../../lib/objects.ts';

/** A Route as the router reads it (route.openshift.io/v1). */
export interface RouteObject {
  readonly metadata: { readonly name: string; readonly namespace: string; readonly creationTimestamp?: string };
  readonly spec?: {
    readonly host?: string;
    readonly path?: string;
    readonly wildcardPolicy?: string;
    readonly to?: { readonly kind?: string; readonly name: string };
    readonly port?: { readonly targetPort?: number | string };
    readonly tls?: { readonly termination?: string };
  };
}

/** A Service's ports as the router matches a Route's `port.targetPort` against them. */
export interface ServiceObject {
  readonly metadata: { readonly name: string; readonly namespace: string };
  readonly spec?: { readonly ports?: ReadonlyArray<{ readonly name?: string; readonly port: number; readonly targetPort?: number | string }> };
}

/** An EndpointSlice: where a Service's endpoints are, per port name. */
export interface SliceObject {
  readonly metadata: { readonly namespace: string; readonly labels?: Readonly<Record<string, string>> };
  readonly addressType?: string;
  readonly endpoints?: ReadonlyArray<{ readonly addresses: readonly string[]; readonly conditions?: { readonly ready?: boolean } }>;
  readonly ports?: ReadonlyArray<{ readonly name?: string; readonly port?: number }>;
}

/** One cluster whose Routes the router serves, under its apps domain. */
export interface RoutedCluster {
  readonly name: string;
  readonly domain: string;
  readonly routes: readonly RouteObject[];
  readonly services: readonly ServiceObject[];
  readonly slices: readonly SliceObject[];
}

/** The router's answer for one Route, written to its status (and its host to its spec when it had none). */
export interface Admission {
  readonly cluster: string;
  readonly namespace: string;
  readonly name: string;
  readonly host: string;
  /** The host was assigned by the router (the Route had none). */
  readonly assignedHost: boolean;
  readonly wildcardPolicy: string;
  readonly admitted: boolean;
  readonly reason?: string;
  readonly message?: string;
  /** The router's own name in the cluster's apps domain (`status.ingress[].routerCanonicalHostname`). */
  readonly canonicalHostname: string;
}

type TraefikRouter = { entryPoints: string[]; rule: string; service: string; priority: number; tls?: { passthrough: true } };
type TraefikService = { loadBalancer: { servers: Array<{ address: string } | { url: string }> } };

/** Traefik's dynamic configuration (file provider), as the router writes it. */
export interface ProxyConfig {
  tcp?: { routers: Record<string, TraefikRouter>; services: Record<string, TraefikService> };
  http?: { routers: Record<string, TraefikRouter>; services: Record<string, TraefikService> };
}

/** The router's entry points: plain HTTP and TLS (passthrough only). */
export const ENTRY_POINTS = { http: 'http', https: 'https' } as const;
/** Exact hosts win over a wildcard that also matches them. */
const PRIORITY = { exact: 20_000, wildcard: 10_000 } as const;

/** The router's name in a cluster's apps domain (OpenShift's `router-default.<domain>`). */
const canonicalHostname = (domain: string): string => `router-default.${domain}`;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The hosts a `Subdomain` Route serves: any single label in place of its host's first. */
const wildcardPattern = (host: string): string => `^[^.]+\\.${escapeRegExp(host.slice(host.indexOf('.') + 1))}$`;
const isWildcard = (route: RouteObject): boolean => route.spec?.wildcardPolicy === 'Subdomain';
/** What a Route claims: its host, or the whole subdomain for a wildcard. */
const claimOf = (route: RouteObject, host: string): string => (isWildcard(route) ? `*.${host.slice(host.indexOf('.') + 1)}` : host);

/** The Service port a Route targets: by name, target port or port (`port.targetPort`), else the first. */
function servicePort(route: RouteObject, service: ServiceObject | undefined): { name?: string } | undefined {
  const ports = service?.spec?.ports ?? [];
  const wanted = route.spec?.port?.targetPort;
  if (wanted === undefined) return ports[0];
  return ports.find((p) => p.name === wanted || p.targetPort === wanted || p.port === wanted);
}

/** The ready endpoints (`address:port`) of the Service port a Route targets. */
function endpointsOf(cluster: RoutedCluster, route: RouteObject): string[] {
  const name = route.spec?.to?.name ?? '';
  const namespace = route.metadata.namespace;
  const service = cluster.services.find((s) => s.metadata.name === name && s.metadata.namespace === namespace);
  const port = servicePort(route, service);
  if (port === undefined) return [];
  const slices = cluster.slices.filter((s) => s.metadata.namespace === namespace && s.metadata.labels?.['kubernetes.io/service-name'] === name && s.addressType !== 'FQDN');
  return slices.flatMap((slice) => {
    const number = slice.ports?.find((p) => (p.name ?? '') === (port.name ?? ''))?.port;
    if (number === undefined) return [];
    const ready = (slice.endpoints ?? []).filter((e) => e.conditions?.ready !== false);
    return ready.flatMap((e) => e.addresses.map((a) => (a.includes(':') ? `[${a}]:${String(number)}` : `${a}:${String(number)}`)));
  });
}

const terminationOf = (route: RouteObject): string | undefined => route.spec?.tls?.termination;

/** Why a Route cannot be served here, when it cannot (OpenShift's reasons where it has one). */
function refusal(route: RouteObject): { reason: string; message: string } | undefined {
  const termination = terminationOf(route);
  if (termination !== undefined && termination !== 'passthrough') {
    return { reason: 'UnsupportedTermination', message: `the local environment's router serves passthrough and plain HTTP Routes; ${termination} termination needs a router that terminates TLS with the Route's certificate (OpenShift's)` };
  }
  return invalidRoute(route, termination);
}

/** OpenShift's validation errors the router can meet: a passthrough Route with a path, a backend other than a Service. */
function invalidRoute(route: RouteObject, termination: string | undefined): { reason: string; message: string } | undefined {
  if (termination === 'passthrough' && (route.spec?.path ?? '') !== '') return { reason: 'InvalidRoute', message: 'passthrough termination does not support paths' };
  const kind = route.spec?.to?.kind ?? 'Service';
  return kind === 'Service' ? undefined : { reason: 'InvalidRoute', message: `spec.to.kind must be Service, not ${kind}` };
}

const routeKey = (cluster: string, route: RouteObject): string => `${cluster}/${route.metadata.namespace}/${route.metadata.name}`;
const proxyName = (key: string): string => key.replace(/[^a-zA-Z0-9-]/g, '-');

/** Oldest first (OpenShift's rule for competing claims), then by name so the order never depends on the input's. */
function byAge(a: { cluster: string; route: RouteObject }, b: { cluster: string; route: RouteObject }): number {
  return createdAtMs(a.route) - createdAtMs(b.route) || routeKey(a.cluster, a.route).localeCompare(routeKey(b.cluster, b.route));
}

/** A passthrough Route's proxy entry: TLS connections chosen by their server name, passed on unopened. */
function tcpEntry(route: RouteObject, host: string, servers: readonly string[]): ProxyEntry {
  const rule = isWildcard(route) ? `HostSNIRegexp(\`${wildcardPattern(host)}\`)` : `HostSNI(\`${host}\`)`;
  const router = { entryPoints: [ENTRY_POINTS.https], rule, service: '', priority: isWildcard(route) ? PRIORITY.wildcard : PRIORITY.exact, tls: { passthrough: true } as const };
  return { kind: 'tcp', router, service: { loadBalancer: { servers: servers.map((address) => ({ address })) } } };
}

/** A plain Route's proxy entry: requests chosen by Host (and path prefix, the longer first). */
function httpEntry(route: RouteObject, host: string, servers: readonly string[]): ProxyEntry {
  const path = route.spec?.path ?? '';
  const hostRule = isWildcard(route) ? `HostRegexp(\`${wildcardPattern(host)}\`)` : `Host(\`${host}\`)`;
  const rule = path === '' ? hostRule : `${hostRule} && PathPrefix(\`${path}\`)`;
  const priority = (isWildcard(route) ? PRIORITY.wildcard : PRIORITY.exact) + path.length;
  return { kind: 'http', router: { entryPoints: [ENTRY_POINTS.http], rule, service: '', priority }, service: { loadBalancer: { servers: servers.map((a) => ({ url: `http://${a}` })) } } };
}

type ProxyEntry = { kind: 'tcp' | 'http'; router: TraefikRouter; service: TraefikService };

/** One admitted Route's proxy router and service, when it has endpoints (none: nothing answers for its host). */
function proxyEntry(route: RouteObject, host: string, servers: readonly string[]): ProxyEntry | undefined {
  if (servers.length === 0) return undefined;
  return terminationOf(route) === 'passthrough' ? tcpEntry(route, host, servers) : httpEntry(route, host, servers);
}

/** The admission of one Route, before any claim is weighed: its host (assigned when missing) and what it is. */
function admissionBase(cluster: RoutedCluster, route: RouteObject): Omit<Admission, 'admitted'> {
  const given = route.spec?.host ?? '';
  const host = given === '' ? `${route.metadata.name}-${route.metadata.namespace}.${cluster.domain}` : given;
  return { cluster: cluster.name, namespace: route.metadata.namespace, name: route.metadata.name, host, assignedHost: given === '', wildcardPolicy: route.spec?.wildcardPolicy ?? 'None', canonicalHostname: canonicalHostname(cluster.domain) };
}

/**
 * What the router does with the clusters' Routes: each Route's admission (host assigned when missing, the oldest claim
 * of a host winning) and the proxy configuration of the admitted ones. Pure: the same clusters give the same answer.
 */
export function planRouter(clusters: readonly RoutedCluster[]): { admissions: Admission[]; config: ProxyConfig } {
  const all = clusters.flatMap((cluster) => cluster.routes.map((route) => ({ cluster: cluster.name, route }))).sort(byAge);
  const byName = new Map(clusters.map((c) => [c.name, c]));
  const claimed = new Map<string, string>();
  const admissions: Admission[] = [];
  const config: Required<ProxyConfig> = { tcp: { routers: {}, services: {} }, http: { routers: {}, services: {} } };
  for (const { cluster: name, route } of all) {
    const cluster = byName.get(name) as RoutedCluster;
    const base = admissionBase(cluster, route);
    const claim = `${claimOf(route, base.host)}${route.spec?.path ?? ''}`;
    const owner = claimed.get(claim);
    const refused = refusal(route) ?? (owner === undefined ? undefined : { reason: 'HostAlreadyClaimed', message: `route ${owner} already exposes ${base.host} and is older` });
    admissions.push({ ...base, admitted: refused === undefined, ...refused });
    if (refused !== undefined) continue;
    claimed.set(claim, routeKey(name, route));
    const entry = proxyEntry(route, base.host, endpointsOf(cluster, route));
    if (entry === undefined) continue;
    const id = proxyName(routeKey(name, route));
    config[entry.kind].routers[id] = { ...entry.router, service: id };
    config[entry.kind].services[id] = entry.service;
  }
  // Traefik refuses an empty section: only those with routers are written.
  const sections = (['tcp', 'http'] as const).filter((kind) => Object.keys(config[kind].routers).length > 0);
  return { admissions, config: Object.fromEntries(sections.map((kind) => [kind, config[kind]])) };
}
