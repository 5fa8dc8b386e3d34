import type { HostedCluster } from '../../../../api/index.ts';
import { clusterDomainOf } from '../../../../api/v1beta1/dns.ts';
import type { KubeObject } from '../../../../kube/client.ts';
import { UnservedKindError } from '../../../../kube/errors.ts';
import { sha256Hex } from '../../../../lib/hash.ts';
import { toYaml } from '../../../../lib/yaml.ts';
import { CLUSTER_NAME_LABEL, Passthrough, renderMachineSlices, renderPassthrough, SLICE_MANAGER, type SlicedService } from '../../../../platform/kubevirt/passthrough.ts';
import { OPERATOR_FIELD_MANAGER } from '../../../../render/hostedcluster/names.ts';
import { addressesOf, type CachedService } from '../infra-caches.ts';
import { instanceReady, type PoolMachine } from '../pool-machines.ts';
import type { Phase, Scope } from '../scope.ts';
import type { InfraTarget } from '../infra-target.ts';

/** The hosted cluster ingress's HTTPS NodePort, once the guest has its default ingress NodePort Service. */
function guestIngressNodePort(scope: Scope): number | undefined {
  const service = scope.guest?.ingress.get(`${Passthrough.guestIngressNamespace}/${Passthrough.guestIngressService}`);
  return service?.spec?.ports?.find((p) => p.name === Passthrough.guestIngressPortName)?.nodePort;
}

/** The passthrough objects of a cluster, once its ingress NodePort and generated ID are known. */
function passthroughObjects(scope: Scope, hc: HostedCluster, namespace: string): Array<Record<string, unknown>> {
  const nodePort = guestIngressNodePort(scope);
  const generateID = hc.spec.platform.kubevirt?.generateID ?? '';
  // The cluster's own domain, prefix included (upstream writes `<name>.<base>` here and misses a `baseDomainPrefix`).
  const clusterDomain = clusterDomainOf(hc.metadata.name ?? '', hc.spec.dns);
  if (nodePort === undefined || generateID === '' || clusterDomain === undefined) return [];
  return renderPassthrough({ namespace, infraID: hc.spec.infraID ?? '', generateID, clusterDomain, nodePort });
}

/** The passthrough Service and Route of a cluster with `baseDomainPassthrough` (sent only when they changed or went). */
async function applyPassthrough(scope: Scope, hc: HostedCluster, infra: InfraTarget): Promise<void> {
  const objects = passthroughObjects(scope, hc, infra.namespace);
  if (objects.length === 0) {
    scope.logger.debug('no passthrough yet: the hosted cluster has no default ingress NodePort', { service: `${Passthrough.guestIngressNamespace}/${Passthrough.guestIngressService}` });
    return;
  }
  const key = `passthrough/${hc.metadata.uid ?? ''}`;
  const fingerprint = sha256Hex(toYaml(objects));
  const service = objects[0]?.['metadata'] as { name: string };
  if (scope.deps.lastApplied.get(key) === fingerprint && infra.cache.passthroughServices.get(`${infra.namespace}/${service.name}`) !== undefined) return;
  for (const object of objects) {
    try {
      await infra.client.apply(object as unknown as KubeObject, { fieldManager: OPERATOR_FIELD_MANAGER });
    } catch (error) {
      // Without Routes (a plain Kubernetes infrastructure) the Service still lets the user's own ingress pass through.
      if (!(error instanceof UnservedKindError)) throw error;
      scope.logger.info('the infrastructure cluster serves no Routes: passthrough Service only', { service: service.name });
    }
  }
  scope.deps.lastApplied.set(key, fingerprint);
}

/** The cluster's selectorless infrastructure Services: the passthrough one and the cloud provider's load balancers. */
function slicedServices(scope: Scope, hc: HostedCluster): SlicedService[] {
  const infra = scope.infra;
  if (infra === undefined) return [];
  const infraID = hc.spec.infraID ?? '';
  const generateID = hc.spec.platform.kubevirt?.generateID ?? '';
  const inNamespace = (s: CachedService): boolean => s.metadata?.namespace === infra.namespace && Object.keys(s.spec?.selector ?? {}).length === 0;
  const passthrough = infra.cache.passthroughServices.list().filter((s) => inNamespace(s) && s.metadata?.name === Passthrough.serviceName(generateID));
  const tenants = infra.cache.tenantServices.list().filter((s) => inNamespace(s) && s.metadata?.labels?.[CLUSTER_NAME_LABEL] === infraID);
  return [...passthrough, ...tenants].map((s) => ({ name: s.metadata?.name ?? '', ports: s.spec?.ports ?? [] }));
}

/**
 * Whether a machine's endpoints serve. Upstream follows the instance alone, so traffic reaches a VM whose kube-proxy
 * has not programmed the NodePorts yet, and the applications fail while a rolling replacement brings new workers in.
 * Here a machine serves once it is available — its Node Ready and the kube-proxy on it Ready — until its VM is being
 * deleted: a drained worker still forwards NodePort traffic to the routers on the others, so it serves through its
 * drain, and the replacement waits for the new machines to be available before it retires an old one. While no Node
 * of the pool is known (the hosted cluster not read yet, after an operator restart) the instance decides, so
 * endpoints never all vanish for want of information.
 */
export function servingRule(machines: readonly PoolMachine[]): (m: PoolMachine) => boolean {
  const nodesKnown = machines.some((m) => m.node !== undefined);
  return (m) => instanceReady(m.vmi) && !m.vmDeleting && (!nodesKnown || m.ready);
}

/** Applies the pool's machines' EndpointSlices of every sliced Service, when they changed since the last apply. */
async function applySlices(scope: Scope, services: readonly SlicedService[]): Promise<void> {
  const infra = scope.infra;
  const machines = scope.machines?.live ?? [];
  if (infra === undefined) return;
  const serves = servingRule(machines);
  const slices = services.flatMap((service) => machines.filter((m) => !m.vmDeleting).flatMap((m) => {
    return renderMachineSlices(infra.namespace, service, { name: m.name, uid: m.vm.metadata.uid ?? '', addresses: addressesOf(m.vmi), ready: serves(m) });
  }));
  const key = `slices/${scope.np.metadata.uid ?? ''}`;
  const fingerprint = sha256Hex(toYaml(slices));
  if (scope.deps.lastApplied.get(key) === fingerprint) return;
  for (const slice of slices) await infra.client.apply(slice as unknown as KubeObject, { fieldManager: OPERATOR_FIELD_MANAGER });
  await removeStaleSlices(infra, new Set(machines.map((m) => m.vm.metadata.uid)), slices);
  scope.deps.lastApplied.set(key, fingerprint);
}

/** The uid of the VM owning a slice. */
const ownerOf = (slice: KubeObject): string | undefined => slice.metadata?.ownerReferences?.find((o) => o.kind === 'VirtualMachine')?.uid;

/** Deletes this pool's machines' slices that are no longer rendered (a Service gone, an address family lost). */
async function removeStaleSlices(infra: InfraTarget, machineUIDs: ReadonlySet<string | undefined>, wanted: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  const names = new Set(wanted.map((s) => (s['metadata'] as { name: string }).name));
  const live = await infra.client.list('discovery.k8s.io/v1', 'EndpointSlice', { namespace: infra.namespace, labelSelector: `endpointslice.kubernetes.io/managed-by=${SLICE_MANAGER}` });
  const stale = live.filter((slice) => machineUIDs.has(ownerOf(slice)) && !names.has(slice.metadata?.name ?? ''));
  for (const slice of stale) await infra.client.delete({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', name: slice.metadata?.name ?? '', namespace: infra.namespace });
}

/**
 * Default-ingress passthrough and load-balancer endpoints on the infrastructure cluster (what upstream's hosted
 * cluster config operator does): for a `baseDomainPassthrough` cluster, the passthrough Service and Route once the
 * hosted cluster's default ingress has its NodePort; for every selectorless Service of the cluster (that one and the
 * cloud provider's load balancers), one EndpointSlice per machine of this pool and IP family, following the VMs'
 * addresses and readiness. `--base-domain` clusters get no passthrough, as upstream.
 */
export const passthroughPhase: Phase = {
  name: 'passthrough',
  async run(scope) {
    const { hc, infra } = scope;
    if (hc === undefined || infra === undefined) return undefined;
    if (hc.spec.platform.kubevirt?.baseDomainPassthrough === true) await applyPassthrough(scope, hc, infra);
    await applySlices(scope, slicedServices(scope, hc));
    return undefined;
  },
};
