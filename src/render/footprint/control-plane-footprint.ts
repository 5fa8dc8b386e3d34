/**
 * What one of our hosted control planes costs the management cluster, read from the objects the control-plane
 * renderer produces (never typed in, so it follows every change to a component's replicas or requests), and the
 * sizing baseline that follows from it: "ours", beside the manual's HyperShift figures.
 */
import type { AvailabilityPolicy, HostedCluster, HostedControlPlane } from '../../api/index.ts';
import { HYPERSHIFT_BASELINE, REQUEST_KEYS, withOverrides, type SizingBaseline } from '../../capacity/baseline.ts';
import type { MeasuredLoad } from '../../capacity/measured-load.ts';
import MEASURED_LOAD from '../../capacity/measured-load.json' with { type: 'json' };
import { COMPONENTS, renderControlPlane, type ComponentName } from '../../controlplane/render.ts';
import { GIB, parseQuantity } from '../../lib/quantity.ts';
import { catalogReleaseProvider } from '../../release/catalog.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { renderHostedControlPlane } from '../hostedcluster/hostedcontrolplane.ts';

/** The pods of one control plane and what they request in all (vCPUs, GiB). */
export interface ControlPlaneFootprint {
  readonly pods: number;
  readonly cpuRequest: number;
  readonly memoryRequestGiB: number;
  /** Per workload (Deployment or StatefulSet): its replicas and one pod's requests. */
  readonly workloads: ReadonlyArray<{ readonly name: string; readonly replicas: number; readonly cpuRequest: number; readonly memoryRequestGiB: number }>;
}

interface Container {
  readonly resources?: { readonly requests?: Readonly<Record<string, string>> };
  readonly restartPolicy?: string;
}
interface Workload {
  readonly kind: string;
  readonly metadata: { readonly name: string };
  readonly spec: { readonly replicas?: number; readonly template: { readonly spec: { readonly containers: readonly Container[]; readonly initContainers?: readonly Container[] } } };
}

const SAMPLE_RELEASE = 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi';

/** A cluster as `hcp create cluster kubevirt` makes it by default, with the given policy: the shape we size. */
function sampleControlPlane(policy: AvailabilityPolicy): HostedControlPlane {
  const hc: HostedCluster = {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'HostedCluster',
    metadata: { name: 'sizing', namespace: 'clusters' },
    spec: {
      release: { image: SAMPLE_RELEASE },
      infraID: 'sizing',
      controllerAvailabilityPolicy: policy,
      dns: { baseDomain: '' },
      pullSecret: { name: 'sizing-pull-secret' },
      networking: { networkType: 'OVNKubernetes', clusterNetwork: [{ cidr: '10.132.0.0/14' }], serviceNetwork: [{ cidr: '172.31.0.0/16' }] },
      etcd: { managementType: 'Managed', managed: { storage: { type: 'PersistentVolume', persistentVolume: { size: '8Gi' } } } },
      platform: { type: 'KubeVirt', kubevirt: { baseDomainPassthrough: true } },
      services: ['APIServer', 'Ignition', 'Konnectivity', 'OAuthServer'].map((service) => ({ service, servicePublishingStrategy: { type: service === 'APIServer' ? 'LoadBalancer' : 'Route' } })),
    },
  } as HostedCluster;
  return renderHostedControlPlane({ hc, infraID: 'sizing' }) as unknown as HostedControlPlane;
}

// Millicores and bytes are whole numbers; summing them as such keeps 0.15 + 0.01 from becoming 0.16000000000000003.
const UNIT = { cpu: 1000, memory: 1 } as const;
const requestOf = (container: Container, resource: 'cpu' | 'memory'): number => Math.round((parseQuantity(container.resources?.requests?.[resource] ?? '0') ?? 0) * UNIT[resource]);

/**
 * A pod's effective request (millicores or bytes), as the scheduler counts it: its containers and sidecars, or its
 * largest init container if larger.
 */
function podRequest(spec: Workload['spec']['template']['spec'], resource: 'cpu' | 'memory'): number {
  const init = spec.initContainers ?? [];
  const sidecars = init.filter((c) => c.restartPolicy === 'Always');
  const running = [...spec.containers, ...sidecars].reduce((sum, c) => sum + requestOf(c, resource), 0);
  return Math.max(running, ...init.filter((c) => c.restartPolicy !== 'Always').map((c) => requestOf(c, resource)));
}

// The sample is fixed, so each policy's footprint is too: rendered once per process, not on every capacity change.
const footprints = new Map<AvailabilityPolicy, ControlPlaneFootprint>();

/** The footprint of our control plane under `policy`, every component rendered (the ignition endpoint included). */
export function controlPlaneFootprint(policy: AvailabilityPolicy): ControlPlaneFootprint {
  const known = footprints.get(policy);
  if (known !== undefined) return known;
  const footprint = renderedFootprint(policy);
  footprints.set(policy, footprint);
  return footprint;
}

function renderedFootprint(policy: AvailabilityPolicy): ControlPlaneFootprint {
  const release = catalogReleaseProvider.lookup(SAMPLE_RELEASE) as ReleaseInfo;
  const configHashes = Object.fromEntries(COMPONENTS.map((c) => [c, ''])) as Record<ComponentName, string>;
  const objects = renderControlPlane({
    hcp: sampleControlPlane(policy),
    release,
    configHashes,
    encryptionKey: '',
    availabilityProberImage: 'operator',
    ignitionServer: { image: 'operator', apiServerURL: 'https://api.sizing:6443' },
  }) as unknown as Workload[];
  const workloads = objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet')
    .map((w) => ({ name: w.metadata.name, replicas: w.spec.replicas ?? 1, milliCPU: podRequest(w.spec.template.spec, 'cpu'), bytes: podRequest(w.spec.template.spec, 'memory') }));
  const total = (pick: (w: (typeof workloads)[number]) => number): number => workloads.reduce((sum, w) => sum + w.replicas * pick(w), 0);
  return {
    pods: total(() => 1),
    cpuRequest: total((w) => w.milliCPU) / 1000,
    memoryRequestGiB: total((w) => w.bytes) / GIB,
    workloads: workloads.map(({ name, replicas, milliCPU, bytes }) => ({ name, replicas, cpuRequest: milliCPU / 1000, memoryRequestGiB: bytes / GIB })),
  };
}

/**
 * Our baseline: requests and pods from our rendered control plane; idle use and per-1000-QPS increments as
 * `./dev bench capacity --record` measured them (`capacity/measured-load.json`: a HighlyAvailable control plane; a
 * SingleReplica one is taken at its requests when idle, on the safe side, and at the same increments, since the same
 * API server and etcd serve the load). The load levels are `shared`'s, the manual's or the ConfigMap's.
 */
export function ourBaseline(policy: AvailabilityPolicy, shared: SizingBaseline = HYPERSHIFT_BASELINE): SizingBaseline {
  const footprint = controlPlaneFootprint(policy);
  const requests = { cpuRequestPerHCP: footprint.cpuRequest, memoryRequestPerHCP: footprint.memoryRequestGiB, podsPerHCP: footprint.pods };
  const measured = MEASURED_LOAD as MeasuredLoad;
  const idle = policy === measured.policy ? measured.idle : { vcpus: footprint.cpuRequest, gib: footprint.memoryRequestGiB };
  return {
    ...withOverrides(shared, requests, REQUEST_KEYS),
    idleCPUUsage: idle.vcpus,
    idleMemoryUsage: idle.gib,
    // A slope measured near zero may come out below it: a load never frees capacity.
    incrementalCPUUsagePer1KQPS: Math.max(0, measured.perThousandQPS.vcpus),
    incrementalMemUsagePer1KQPS: Math.max(0, measured.perThousandQPS.gib),
  };
}
