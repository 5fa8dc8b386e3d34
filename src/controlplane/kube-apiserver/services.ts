import type { HostedControlPlane, ServicePublishingStrategy } from '../../api/index.ts';
import { MANAGED_BY, selectorLabels } from '../common/placement.ts';
import { ControlPlaneNames, KUBE_APISERVER_PORT } from '../names.ts';

/** The port konnectivity agents in the hosted cluster dial. */
export const KONNECTIVITY_AGENT_PORT = 8091;
const labels = { [MANAGED_BY.key]: MANAGED_BY.value };

/** The publishing strategy of one service of the HostedControlPlane (upstream's defaults when absent). */
export function strategyOf(hcp: HostedControlPlane, service: 'APIServer' | 'Konnectivity'): ServicePublishingStrategy {
  return hcp.spec.services.find((s) => s.service === service)?.servicePublishingStrategy ?? { type: service === 'APIServer' ? 'LoadBalancer' : 'Route' };
}

function service(hcp: HostedControlPlane, name: string, port: number, strategy: ServicePublishingStrategy): Record<string, unknown> {
  const type = strategy.type === 'LoadBalancer' || strategy.type === 'NodePort' ? strategy.type : 'ClusterIP';
  const nodePort = strategy.type === 'NodePort' && strategy.nodePort?.port !== undefined ? { nodePort: strategy.nodePort.port } : {};
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: hcp.metadata.namespace, labels },
    spec: { type, selector: selectorLabels(ControlPlaneNames.kubeAPIServer), ports: [{ name: 'client', port, targetPort: port, protocol: 'TCP', ...nodePort }] },
  };
}

/** A passthrough Route (TLS ends at the pod, so clients verify the control plane's own certificate). */
function route(hcp: HostedControlPlane, name: string, strategy: ServicePublishingStrategy): Record<string, unknown> {
  const host = strategy.route?.hostname;
  return {
    apiVersion: 'route.openshift.io/v1',
    kind: 'Route',
    metadata: { name, namespace: hcp.metadata.namespace, labels },
    spec: { ...(host === undefined || host === '' ? {} : { host }), to: { kind: 'Service', name }, tls: { termination: 'passthrough', insecureEdgeTerminationPolicy: 'None' } },
  };
}

/**
 * The Services that publish kube-apiserver and the konnectivity server per their publishing strategy:
 * LoadBalancer and NodePort as Service types, Route as a ClusterIP Service behind a passthrough Route.
 */
export function renderKubeAPIServerServices(hcp: HostedControlPlane): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const publish = (name: string, port: number, strategy: ServicePublishingStrategy): void => {
    out.push(service(hcp, name, port, strategy));
    if (strategy.type === 'Route') out.push(route(hcp, name, strategy));
  };
  publish(ControlPlaneNames.kubeAPIServerService, KUBE_APISERVER_PORT, strategyOf(hcp, 'APIServer'));
  publish('konnectivity-server', KONNECTIVITY_AGENT_PORT, strategyOf(hcp, 'Konnectivity'));
  return out;
}
