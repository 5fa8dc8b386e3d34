/**
 * The infrastructure cluster's LoadBalancer implementation: MetalLB in layer 2 mode, installed from its own release
 * manifest (`config/manifests/metallb-native.yaml` of its module, read as data) with the images built here. Its pool
 * is a range routed onto the environment's bridge (every address of the bridge's own /24 belongs to a node or a
 * machine slot): the host asks for an address by ARP on the bridge, the speaker on the infrastructure node answers,
 * and the node's kube-proxy takes the traffic to the Service's endpoints — the VMs, for a hosted cluster's load
 * balancers.
 */
import type { KubeDocument } from '../../kube/client.ts';
import { METALLB } from '../binaries/tools.ts';
import type { CrdSource } from '../crds/sources.ts';

/** The module file the install manifest comes from. */
export const METALLB_MANIFEST: CrdSource = { id: 'metallb', module: METALLB.module, version: METALLB.version, files: ['config/manifests/metallb-native.yaml'], allObjects: true };

/** The range of load-balancer addresses, routed onto the bridge by the host. */
export const LOAD_BALANCER_RANGE = '10.251.0.0/24';
/** MetalLB's pool: the range without its network and broadcast addresses. */
const POOL = '10.251.0.1-10.251.0.254';
export const METALLB_NAMESPACE = 'metallb-system';

/** The images the manifest names, as this environment publishes them (built from {@link METALLB}). */
export const METALLB_IMAGES = { controller: `quay.io/metallb/controller:${METALLB.version}`, speaker: `quay.io/metallb/speaker:${METALLB.version}` } as const;

const isWebhook = (o: KubeDocument): boolean =>
  o['kind'] === 'ValidatingWebhookConfiguration' || (o['kind'] === 'Service' && o.metadata?.name === 'metallb-webhook-service');

type Container = { name?: string; args?: string[] };
type Workload = KubeDocument & { spec?: { template?: { spec?: { containers?: Container[] } } } };

/**
 * The controller runs without its admission webhook: the infrastructure's API server runs on the host, outside the
 * pod network the webhook would be served on, and the pool here is written once by the environment.
 */
function withoutWebhook(o: KubeDocument): KubeDocument {
  if (o['kind'] !== 'Deployment') return o;
  const workload = structuredClone(o) as Workload;
  for (const container of workload.spec?.template?.spec?.containers ?? []) {
    if (container.name === 'controller') container.args = [...(container.args ?? []), '--webhook-mode=disabled'];
  }
  return workload;
}

/**
 * What to apply (pure): the manifest's CRDs apart (they must be established first), its other objects without the
 * webhook, and the pool with its layer-2 advertisement.
 */
export function metallbObjects(manifest: readonly KubeDocument[]): { crds: KubeDocument[]; install: KubeDocument[]; pool: KubeDocument[] } {
  const crds = manifest.filter((o) => o['kind'] === 'CustomResourceDefinition');
  const install = manifest.filter((o) => o['kind'] !== 'CustomResourceDefinition' && !isWebhook(o)).map(withoutWebhook);
  const metadata = { name: 'hcp-local', namespace: METALLB_NAMESPACE };
  const pool = [
    { apiVersion: 'metallb.io/v1beta1', kind: 'IPAddressPool', metadata, spec: { addresses: [POOL] } },
    { apiVersion: 'metallb.io/v1beta1', kind: 'L2Advertisement', metadata, spec: { ipAddressPools: ['hcp-local'] } },
  ];
  return { crds, install, pool };
}
