import type { HostedControlPlane, ServicePublishingStrategy } from '../../api/index.ts';
import { passthroughRoute, publishedService } from '../common/publishing.ts';
import { ControlPlaneNames, KUBE_APISERVER_PORT } from '../names.ts';

/** The port konnectivity agents in the hosted cluster dial. */
export const KONNECTIVITY_AGENT_PORT = 8091;
/** The Service that publishes the konnectivity server to the agents. */
export const KONNECTIVITY_SERVICE = 'konnectivity-server';

/** The publishing strategy of one service of the HostedControlPlane (upstream's defaults when absent). */
export function strategyOf(hcp: HostedControlPlane, service: 'APIServer' | 'Konnectivity'): ServicePublishingStrategy {
  return hcp.spec.services.find((s) => s.service === service)?.servicePublishingStrategy ?? { type: service === 'APIServer' ? 'LoadBalancer' : 'Route' };
}

/**
 * The Services that publish kube-apiserver and the konnectivity server per their publishing strategy:
 * LoadBalancer and NodePort as Service types, Route as a ClusterIP Service behind a passthrough Route.
 */
export function renderKubeAPIServerServices(hcp: HostedControlPlane): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const publish = (name: string, port: number, strategy: ServicePublishingStrategy): void => {
    out.push(publishedService(hcp, { name, component: ControlPlaneNames.kubeAPIServer, portName: 'client', port, targetPort: port }, strategy));
    if (strategy.type === 'Route') out.push(passthroughRoute(hcp, name, strategy));
  };
  publish(ControlPlaneNames.kubeAPIServerService, KUBE_APISERVER_PORT, strategyOf(hcp, 'APIServer'));
  publish(KONNECTIVITY_SERVICE, KONNECTIVITY_AGENT_PORT, strategyOf(hcp, 'Konnectivity'));
  return out;
}
