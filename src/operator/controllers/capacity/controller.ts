/**
 * The capacity controller: keeps the capacity gauges (`gauges.ts`) in step with the management cluster's nodes
 * labelled `hypershift.openshift.io/control-plane` and the `hcp-sizing-baseline` ConfigMap. One key for the whole
 * cluster; a node or ConfigMap event recomputes it, nothing runs on a timer. Unlike the add-on, which reads the
 * ConfigMap once at start (the manual says to restart its agent), a changed ConfigMap takes effect at once.
 */
import type { HostedControlPlane } from '../../../api/index.ts';
import { API_VERSION } from '../../../api/v1beta1/kinds.ts';
import { HYPERSHIFT_BASELINE, parseBaselineOverrides, SIZING_BASELINE_CONFIGMAP, withOverrides } from '../../../capacity/baseline.ts';
import type { Workers } from '../../../capacity/model.ts';
import { CONTROL_PLANE_NODE_SELECTOR, workersOfNodes, type SizedNode } from '../../../capacity/nodes.ts';
import { ControlPlaneNames } from '../../../controlplane/names.ts';
import type { KubeObject } from '../../../kube/client.ts';
import { hostedApiKubeconfig, type HostedApiAccess } from '../hosted-api.ts';
import { ourBaseline } from '../../../render/footprint/control-plane-footprint.ts';
import { controlPlaneSecretsSelector } from '../../../render/hostedcluster/names.ts';
import type { Clock } from '../../../runtime/clock.ts';
import { Controller } from '../../../runtime/controller.ts';
import type { Informer } from '../../../runtime/informer.ts';
import type { Logger } from '../../../runtime/logger.ts';
import type { Manager } from '../../../runtime/manager.ts';
import type { Metrics } from '../../../runtime/metrics.ts';
import { CapacityGaugeSet, type CapacityInputs } from './gauges.ts';
import { LoadSampler, type HostedAPIServer } from './load-sampler.ts';

/** What the capacity controller needs. */
export interface CapacityControllerDeps {
  readonly clock: Clock;
  /** The namespace of the `hcp-sizing-baseline` ConfigMap. */
  readonly sizingBaselineNamespace: string;
  /** A kubeconfig that reaches every hosted API server instead of its admin kubeconfig (tests only, as the NodePool controller's). */
  readonly hostedClusterKubeconfig?: string | undefined;
  /** How hosted API servers are reached (published when absent). */
  readonly hostedApiAccess?: HostedApiAccess;
}

type NodeStatus = KubeObject & SizedNode;
interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}
interface Secret extends KubeObject {
  data?: Record<string, string>;
}

const KEY = 'capacity';

/** The ConfigMap's overrides over HyperShift's baseline, ours from the renderers; logs what the add-on logs. */
function inputsOf(workers: Workers, configMap: ConfigMap | undefined, namespace: string, logger: Logger): CapacityInputs {
  if (configMap === undefined) {
    logger.error('failed to get configmap from the hub. Setting the HCP sizing baseline with default values.', { error: `configmaps "${SIZING_BASELINE_CONFIGMAP}" not found`, namespace });
  }
  const overrides = parseBaselineOverrides(configMap?.data);
  for (const [key, value] of Object.entries(overrides.values)) logger.info(`setting ${key} to ${String(value)}`);
  for (const problem of overrides.problems) logger.error(problem);
  logger.info(`The worker nodes have ${workers.vcpus.toFixed(6)} vCPUs`);
  logger.info(`The worker nodes have ${workers.memoryGiB.toFixed(6)} GiB memory`);
  logger.info(`The maximum number of pods the worker nodes can have is ${String(workers.pods)}`);
  const hypershift = withOverrides(HYPERSHIFT_BASELINE, overrides.values);
  return { workers, hypershift, ours: { HighlyAvailable: ourBaseline('HighlyAvailable', hypershift), SingleReplica: ourBaseline('SingleReplica', hypershift) } };
}

/** The inputs of the gauges, recomputed (and logged) only when the workers or the ConfigMap's data changed. */
function computeOnChange(): (workers: Workers, configMap: ConfigMap | undefined, namespace: string, logger: Logger) => CapacityInputs | undefined {
  let last = '';
  return (workers, configMap, namespace, logger) => {
    // Every status update of a labelled Node is an event; most change nothing sizing reads.
    const fingerprint = JSON.stringify([workers, configMap === undefined ? null : (configMap.data ?? {})]);
    if (fingerprint === last) return undefined;
    last = fingerprint;
    return inputsOf(workers, configMap, namespace, logger);
  };
}

/** The ready control planes' API servers, each through its admin kubeconfig (or the tests' stand-in). */
function hostedAPIServers(planes: Informer<HostedControlPlane>, secrets: Informer<Secret>, deps: CapacityControllerDeps): HostedAPIServer[] {
  const override = deps.hostedClusterKubeconfig;
  const kubeconfigOf = (hcp: HostedControlPlane): string | undefined => {
    if (override !== undefined && override !== '') return override;
    const namespace = hcp.metadata.namespace ?? '';
    return hostedApiKubeconfig(secrets.get(`${namespace}/${ControlPlaneNames.adminKubeconfig}`)?.data?.['kubeconfig'], namespace, deps.hostedApiAccess);
  };
  return planes.list().flatMap((hcp) => {
    const kubeconfig = hcp.status?.ready === true ? kubeconfigOf(hcp) : undefined;
    return kubeconfig === undefined ? [] : [{ owner: hcp.metadata.uid ?? '', kubeconfig }];
  });
}

/** Adds the capacity controller and registers its gauges on `metrics`. */
export function addCapacityController(manager: Manager, deps: CapacityControllerDeps, logger: Logger, metrics: Metrics): Controller {
  const nodes = manager.informer<NodeStatus>({ apiVersion: 'v1', kind: 'Node', labelSelector: CONTROL_PLANE_NODE_SELECTOR });
  const configMaps = manager.informer<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', namespace: deps.sizingBaselineNamespace });
  const planes = manager.informer<HostedControlPlane>({ apiVersion: API_VERSION, kind: 'HostedControlPlane' });
  const secrets = manager.informer<Secret>(controlPlaneSecretsSelector);
  const sampler = new LoadSampler({ servers: () => hostedAPIServers(planes, secrets, deps), clock: deps.clock, logger: logger.with({ controller: 'capacity' }) });
  const gauges = new CapacityGaugeSet(metrics, sampler);
  const compute = computeOnChange();
  const reconcile = (_key: string, log: Logger): Promise<Record<string, never>> => {
    const configMap = configMaps.get(`${deps.sizingBaselineNamespace}/${SIZING_BASELINE_CONFIGMAP}`);
    const inputs = compute(workersOfNodes(nodes.list()), configMap, deps.sizingBaselineNamespace, log);
    if (inputs !== undefined) gauges.update(inputs);
    return Promise.resolve({});
  };
  const controller = new Controller({ name: 'capacity', clock: deps.clock, logger, metrics, workers: 1, reconcile });
  controller.watch(nodes, () => [KEY]);
  controller.watch(configMaps, (event) => (event.object.metadata?.name === SIZING_BASELINE_CONFIGMAP ? [KEY] : []));
  manager.add(controller);
  // Nothing labelled and no ConfigMap is still an answer (0, the defaults): computed once at start.
  controller.queue.add(KEY);
  return controller;
}
