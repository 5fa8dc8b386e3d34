import type { HostedControlPlane, ServicePublishingStrategy } from '../../api/index.ts';
import { MANAGED_BY, selectorLabels } from './placement.ts';

const labels = { [MANAGED_BY.key]: MANAGED_BY.value };

/** What a component publishes: the Service's name, the component it selects, and one port (Service port → pod port). */
export interface Published {
  readonly name: string;
  readonly component: string;
  readonly portName: string;
  readonly port: number;
  readonly targetPort: number;
}

/**
 * The Service of a component per its publishing strategy: LoadBalancer and NodePort as Service types (a NodePort's
 * port when the strategy names one), ClusterIP otherwise (a Route then points at it).
 */
export function publishedService(hcp: HostedControlPlane, published: Published, strategy: ServicePublishingStrategy): Record<string, unknown> {
  const type = strategy.type === 'LoadBalancer' || strategy.type === 'NodePort' ? strategy.type : 'ClusterIP';
  const nodePort = strategy.type === 'NodePort' && strategy.nodePort?.port !== undefined ? { nodePort: strategy.nodePort.port } : {};
  return {
    apiVersion: 'v1',
    kind: 'Service',
    // Labelled with its own name, which is what a ServiceMonitor selects it by.
    metadata: { name: published.name, namespace: hcp.metadata.namespace, labels: { ...labels, app: published.name } },
    spec: { type, selector: selectorLabels(published.component), ports: [{ name: published.portName, port: published.port, targetPort: published.targetPort, protocol: 'TCP', ...nodePort }] },
  };
}

/** A passthrough Route to the Service `name`: TLS ends in the pod, so clients verify the component's own certificate. */
export function passthroughRoute(hcp: HostedControlPlane, name: string, strategy: ServicePublishingStrategy): Record<string, unknown> {
  const host = strategy.route?.hostname;
  return {
    apiVersion: 'route.openshift.io/v1',
    kind: 'Route',
    metadata: { name, namespace: hcp.metadata.namespace, labels },
    spec: { ...(host === undefined || host === '' ? {} : { host }), to: { kind: 'Service', name }, tls: { termination: 'passthrough', insecureEdgeTerminationPolicy: 'None' } },
  };
}
