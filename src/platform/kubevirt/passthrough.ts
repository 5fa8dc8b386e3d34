import { Label } from '../../api/v1beta1/well-known.ts';
import { ipFamilyOf } from '../../lib/host-port.ts';

/**
 * Default-ingress passthrough on the infrastructure cluster (upstream's names and shapes): `*.apps.<cluster>` of the
 * infrastructure's router reaches the hosted cluster's ingress through a selectorless Service whose EndpointSlices
 * list the worker VMs, one slice per machine and IP family.
 */
export const Passthrough = {
  serviceName: (generateID: string): string => `default-ingress-passthrough-service-${generateID}`,
  routeName: (generateID: string): string => `default-ingress-passthrough-route-${generateID}`,
  /** The hosted cluster's NodePort Service of its default ingress, and its HTTPS port's name. */
  guestIngressNamespace: 'openshift-ingress',
  guestIngressService: 'router-nodeport-default',
  guestIngressPortName: 'https',
} as const;

/** The label the KubeVirt cloud provider puts on the infrastructure Services of guest LoadBalancer Services. */
export const TENANT_SERVICE_LABEL = 'cluster.x-k8s.io/tenant-service-name';
/** The label naming the cluster (its infraID) on those Services. */
export const CLUSTER_NAME_LABEL = 'cluster.x-k8s.io/cluster-name';
/** Who manages the EndpointSlices of VMs (upstream's value; kube-controller-manager leaves them alone). */
export const SLICE_MANAGER = 'control-plane-operator.hypershift.openshift.io';

/** What the passthrough objects are made from. */
export interface PassthroughInput {
  readonly namespace: string;
  readonly infraID: string;
  readonly generateID: string;
  /** `<cluster name>.<base domain>`: the Route serves `*.apps.` of it. */
  readonly clusterDomain: string;
  /** The hosted cluster ingress's HTTPS NodePort, on every worker. */
  readonly nodePort: number;
}

/** The selectorless Service and the passthrough Route with a wildcard host. */
export function renderPassthrough(input: PassthroughInput): Array<Record<string, unknown>> {
  const labels = { [Label.InfraID]: input.infraID };
  const service = Passthrough.serviceName(input.generateID);
  return [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: service, namespace: input.namespace, labels },
      spec: { type: 'ClusterIP', selector: {}, ports: [{ name: 'https-443', protocol: 'TCP', port: 443, targetPort: input.nodePort }] },
    },
    {
      apiVersion: 'route.openshift.io/v1',
      kind: 'Route',
      metadata: { name: Passthrough.routeName(input.generateID), namespace: input.namespace, labels },
      spec: { host: `https.apps.${input.clusterDomain}`, wildcardPolicy: 'Subdomain', tls: { termination: 'passthrough' }, to: { kind: 'Service', name: service } },
    },
  ];
}

/** A selectorless infrastructure Service whose endpoints are the worker VMs. */
export interface SlicedService {
  readonly name: string;
  readonly ports: ReadonlyArray<{ readonly name?: string; readonly protocol?: string; readonly targetPort?: number | string; readonly port: number }>;
}

/** A worker VM: its name and uid (the slices' owner) and its instance's addresses. */
export interface SlicedMachine {
  readonly name: string;
  readonly uid: string;
  readonly addresses: readonly string[];
  /** Whether its instance is Ready (its endpoints then serve). */
  readonly ready: boolean;
}

const isLinkLocal = (ip: string): boolean => ip.startsWith('169.254.') || ip.toLowerCase().startsWith('fe80:');

/**
 * The EndpointSlices of one machine for one Service: per IP family, the machine's first non-link-local address
 * (upstream's choice: one address per family), ports as the Service's target ports; owned by the VM so they go with it.
 */
export function renderMachineSlices(namespace: string, service: SlicedService, machine: SlicedMachine): Array<Record<string, unknown>> {
  const families: Array<{ family: 'IPv4' | 'IPv6'; suffix: string; version: 4 | 6 }> = [
    { family: 'IPv4', suffix: 'ipv4', version: 4 },
    { family: 'IPv6', suffix: 'ipv6', version: 6 },
  ];
  const ports = service.ports.map((p) => ({ ...(p.name === undefined ? {} : { name: p.name }), protocol: p.protocol ?? 'TCP', port: typeof p.targetPort === 'number' ? p.targetPort : p.port }));
  return families.flatMap(({ family, suffix, version }) => {
    const address = machine.addresses.find((ip) => ipFamilyOf(ip) === version && !isLinkLocal(ip));
    if (address === undefined) return [];
    return [
      {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          name: `${service.name}-${machine.name}-${suffix}`,
          namespace,
          labels: { 'kubernetes.io/service-name': service.name, 'endpointslice.kubernetes.io/managed-by': SLICE_MANAGER },
          ownerReferences: [{ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name: machine.name, uid: machine.uid }],
        },
        addressType: family,
        endpoints: [{ addresses: [address], conditions: { ready: machine.ready, serving: machine.ready, terminating: false } }],
        ports,
      },
    ];
  });
}
