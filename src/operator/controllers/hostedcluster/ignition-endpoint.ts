import { ControlPlaneNames } from '../../../controlplane/names.ts';
import { ignitionStrategyOf } from '../../../controlplane/ignition-server/render.ts';
import { HostedClusterNames } from '../../../render/hostedcluster/names.ts';
import { controlPlaneOf, type Scope } from './scope.ts';

/**
 * Where machines fetch their configuration (`status.ignitionEndpoint`), as upstream reports it: a Route's host name, a
 * NodePort's address and node port, or a load balancer's address (ours: upstream offers no LoadBalancer here) — once
 * the ignition Service exists. Undefined while unknown, so a value set before stays.
 */
export function ignitionEndpointOf(scope: Scope): string | undefined {
  const hcp = controlPlaneOf(scope);
  if (hcp === undefined) return undefined;
  const namespace = HostedClusterNames.controlPlaneNamespace(scope.hc);
  const service = scope.deps.service(`${namespace}/${ControlPlaneNames.ignitionServer}`);
  if (service === undefined) return undefined;
  const strategy = ignitionStrategyOf(hcp);
  if (strategy.type === 'Route') return strategy.route?.hostname === undefined || strategy.route.hostname === '' ? undefined : strategy.route.hostname;
  if (strategy.type === 'NodePort') {
    const port = service.spec?.ports?.[0]?.nodePort;
    const address = strategy.nodePort?.address;
    if (port === undefined || address === undefined || address === '') return undefined;
    return `${address.includes(':') ? `[${address}]` : address}:${String(port)}`;
  }
  const ingress = service.status?.loadBalancer?.ingress?.[0];
  const host = strategy.loadBalancer?.hostname ?? ingress?.hostname ?? ingress?.ip;
  return host === undefined || host === '' ? undefined : host;
}
