import { Label } from '../../api/v1beta1/well-known.ts';
import { CLUSTER_NAME_LABEL, TENANT_SERVICE_LABEL } from './passthrough.ts';

/**
 * LoadBalancer Services of a hosted cluster, realised on the infrastructure cluster the way the KubeVirt cloud
 * provider does in its `selectorless` mode (HyperShift's setting). Each guest Service gets an infrastructure Service
 * of type LoadBalancer whose ports lead to the guest Service's NodePorts on the worker VMs. It has no selector: the
 * VMs' EndpointSlices are written by the NodePool controller (passthrough.ts). The address the infrastructure's load
 * balancer gives it is written back to the guest Service's status.
 */

/** The finalizer the service controller puts on a guest Service while its load balancer exists (upstream's name). */
export const LOAD_BALANCER_CLEANUP_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';
/** The label naming the guest Service's namespace on its infrastructure Service. */
export const TENANT_SERVICE_NAMESPACE_LABEL = 'cluster.x-k8s.io/tenant-service-namespace';

/** An address of a load balancer, as `status.loadBalancer.ingress` lists it. */
export interface LoadBalancerIngress {
  readonly ip?: string;
  readonly hostname?: string;
  readonly ipMode?: string;
  readonly ports?: ReadonlyArray<{ readonly port: number; readonly protocol: string; readonly error?: string }>;
}

/** A Service port, as the fields read here. */
export interface ServicePort {
  readonly name?: string;
  readonly protocol?: string;
  readonly port: number;
  readonly nodePort?: number;
}

/** A Service (guest or infrastructure) as the fields read here. */
export interface LoadBalancedService {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; uid?: string; annotations?: Record<string, string>; labels?: Record<string, string>; finalizers?: string[]; deletionTimestamp?: string; resourceVersion?: string };
  spec?: {
    type?: string;
    loadBalancerClass?: string;
    ports?: ServicePort[];
    externalTrafficPolicy?: string;
    externalIPs?: string[];
    loadBalancerIP?: string;
  };
  status?: { loadBalancer?: { ingress?: LoadBalancerIngress[] } };
}

/**
 * Whether a guest Service should have a load balancer: type LoadBalancer, no `loadBalancerClass` (another
 * implementation's), not being deleted.
 */
export const wantsLoadBalancer = (service: LoadBalancedService): boolean =>
  service.spec?.type === 'LoadBalancer' && service.spec.loadBalancerClass === undefined && service.metadata.deletionTimestamp === undefined;

/** The infrastructure Service's name (Kubernetes' default load-balancer name): `a` and the guest Service's uid without dashes, at most 32 characters. */
export const loadBalancerName = (uid: string): string => `a${uid.replace(/-/g, '')}`.slice(0, 32);

/** Annotations not carried to the infrastructure: kubectl's copy of the whole object means nothing there. */
const NOT_CARRIED = new Set(['kubectl.kubernetes.io/last-applied-configuration']);

/** What an infrastructure load balancer is made from. */
export interface InfraLoadBalancerInput {
  /** The infrastructure namespace of the cluster's VMs. */
  readonly namespace: string;
  readonly infraID: string;
  readonly tenant: LoadBalancedService;
}

/** Why a guest Service cannot be given a load balancer (its ports have no NodePort to lead to). */
export class LoadBalancerInputError extends Error {
  override readonly name = 'LoadBalancerInputError';
}

/**
 * The infrastructure Service of a guest LoadBalancer Service (pure): named by the guest Service's uid, labelled with
 * the guest Service's name and namespace and the cluster, its annotations carried (a MetalLB address pool, say); one
 * port per guest port, aimed at its NodePort on the VMs; its external traffic policy, external IPs and requested
 * address carried. Not its health-check NodePort, which upstream copies: a port of the guest's NodePort range means
 * nothing on the infrastructure cluster and may be taken there (the infrastructure allocates its own). Throws {@link LoadBalancerInputError} when a port has no NodePort
 * (`allocateLoadBalancerNodePorts: false`): nothing on the VMs would answer.
 */
export function renderInfraLoadBalancer(input: InfraLoadBalancerInput): Record<string, unknown> {
  const { tenant } = input;
  const annotations = Object.fromEntries(Object.entries(tenant.metadata.annotations ?? {}).filter(([key]) => !NOT_CARRIED.has(key)));
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: loadBalancerName(tenant.metadata.uid ?? ''),
      namespace: input.namespace,
      labels: { [TENANT_SERVICE_LABEL]: tenant.metadata.name, [TENANT_SERVICE_NAMESPACE_LABEL]: tenant.metadata.namespace ?? '', [CLUSTER_NAME_LABEL]: input.infraID, [Label.InfraID]: input.infraID },
      ...(Object.keys(annotations).length === 0 ? {} : { annotations }),
    },
    spec: { type: 'LoadBalancer', ports: portsOf(tenant), ...carriedSpec(tenant.spec ?? {}) },
  };
}

/** One port per guest port, aimed at its NodePort on the VMs. */
function portsOf(tenant: LoadBalancedService): Array<Record<string, unknown>> {
  return (tenant.spec?.ports ?? []).map((p) => {
    if (p.nodePort === undefined) throw new LoadBalancerInputError(`port ${String(p.port)} has no NodePort (allocateLoadBalancerNodePorts is false): the VMs cannot carry it`);
    return { ...(p.name === undefined ? {} : { name: p.name }), protocol: p.protocol ?? 'TCP', port: p.port, targetPort: p.nodePort };
  });
}

/** The external traffic policy, external IPs and requested address, when set. */
function carriedSpec(spec: NonNullable<LoadBalancedService['spec']>): Record<string, unknown> {
  return {
    ...(spec.externalTrafficPolicy === undefined ? {} : { externalTrafficPolicy: spec.externalTrafficPolicy }),
    ...(spec.externalIPs === undefined || spec.externalIPs.length === 0 ? {} : { externalIPs: spec.externalIPs }),
    ...(spec.loadBalancerIP === undefined || spec.loadBalancerIP === '' ? {} : { loadBalancerIP: spec.loadBalancerIP }),
  };
}

/** The addresses a Service's load balancer has (none while pending). */
export const ingressOf = (service: LoadBalancedService | undefined): LoadBalancerIngress[] => service?.status?.loadBalancer?.ingress ?? [];
