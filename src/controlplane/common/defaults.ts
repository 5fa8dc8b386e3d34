/**
 * What is set on every rendered workload after the components are rendered, from facts about the management cluster
 * and the operator rather than the HostedControlPlane (as upstream's component defaults do).
 */
import { ControlPlaneNames, ETCD_CLIENT_PORT, KUBE_APISERVER_PORT } from '../names.ts';
import { CONTAINER_SECURITY } from './pod.ts';

/** Upstream's user for control-plane pods on management clusters without SecurityContextConstraints. */
export const DEFAULT_SECURITY_CONTEXT_UID = 1001;

/** The components that exit at once when the hosted API server does not answer (they read its configuration first). */
const NEED_API_SERVER: readonly string[] = [ControlPlaneNames.kubeControllerManager, ControlPlaneNames.kubeScheduler];

type Rendered = Record<string, unknown>;

interface Workload {
  kind?: unknown;
  metadata?: { name?: string };
  spec?: { template?: { spec?: Record<string, unknown> } };
}

/** Applies `change` to the pod spec of every Deployment and StatefulSet `applies` selects. */
function mapPodSpecs(objects: Rendered[], applies: (name: string) => boolean, change: (pod: Record<string, unknown>, name: string) => Record<string, unknown>): Rendered[] {
  return objects.map((object) => {
    const workload = object as Workload;
    const pod = workload.spec?.template?.spec;
    const name = workload.metadata?.name ?? '';
    if ((workload.kind !== 'Deployment' && workload.kind !== 'StatefulSet') || pod === undefined || !applies(name)) return object;
    return { ...object, spec: { ...workload.spec, template: { ...workload.spec?.template, spec: change(pod, name) } } };
  });
}

/**
 * Sets the pod-level user of every workload, as upstream does on management clusters that assign none; etcd also
 * gets it as its file-system group, so its data volume is writable by that user.
 */
export function withDefaultSecurityContext(objects: Rendered[], uid: number | undefined): Rendered[] {
  if (uid === undefined) return objects;
  return mapPodSpecs(objects, () => true, (pod, name) => ({ ...pod, securityContext: { runAsUser: uid, ...(name === ControlPlaneNames.etcd ? { fsGroup: uid } : {}) } }));
}

/** What a component waits for before it starts. */
const API_SERVER_READY = `https://${ControlPlaneNames.kubeAPIServerService}:${String(KUBE_APISERVER_PORT)}/readyz`;
const ETCD_REACHABLE = `tcp://${ControlPlaneNames.etcdClientService}:${String(ETCD_CLIENT_PORT)}`;

/** The init container that holds a component back until `target` is available. */
function proberContainer(image: string, target: string): Record<string, unknown> {
  return {
    name: 'availability-prober',
    image,
    command: ['hcp-operator', 'availability-prober', `--target=${target}`],
    resources: { requests: { cpu: '10m', memory: '50Mi' } },
    securityContext: CONTAINER_SECURITY,
    terminationMessagePolicy: 'FallbackToLogsOnError',
  };
}

/**
 * Gives kube-controller-manager and kube-scheduler the availability prober as an init container (upstream's), so they
 * start once the API server answers instead of crashing into the kubelet's back-off (seen on the first real run:
 * minutes of CrashLoopBackOff in a new HighlyAvailable control plane). kube-apiserver waits the same way until etcd
 * takes connections: started before, its etcd client backed off (1 s, 1.6 s, … 6.5 s) while etcd's Service refused it,
 * and a new control plane's API server became ready up to 7 s after etcd had.
 */
export function withAvailabilityProber(objects: Rendered[], image: string | undefined): Rendered[] {
  if (image === undefined) return objects;
  const waitsFor = (name: string): string | undefined => (NEED_API_SERVER.includes(name) ? API_SERVER_READY : name === ControlPlaneNames.kubeAPIServer ? ETCD_REACHABLE : undefined);
  return mapPodSpecs(objects, (name) => waitsFor(name) !== undefined, (pod, name) => ({ ...pod, initContainers: [proberContainer(image, waitsFor(name) ?? '')] }));
}
