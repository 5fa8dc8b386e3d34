import type { ServicePublishingStrategy } from '../../../api/index.ts';
import { ControlPlaneNames } from '../../../controlplane/names.ts';
import { joinHostPort } from '../../../lib/host-port.ts';
import { ignitionStrategyOf } from '../../../controlplane/ignition-server/render.ts';
import { HostedClusterNames } from '../../../render/hostedcluster/names.ts';
import type { ServiceStatus } from '../hostedcontrolplane/scope.ts';
import { controlPlaneOf, type Scope } from './scope.ts';

const known = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);

/** A NodePort's address and the port the cluster assigned. */
function nodePortEndpoint(strategy: ServicePublishingStrategy, service: ServiceStatus): string | undefined {
  const port = service.spec?.ports?.[0]?.nodePort;
  const address = known(strategy.nodePort?.address);
  return port === undefined || address === undefined ? undefined : joinHostPort(address, port);
}

/** The host name the spec names, else the load balancer's assigned address. */
function loadBalancerEndpoint(strategy: ServicePublishingStrategy, service: ServiceStatus): string | undefined {
  const ingress = service.status?.loadBalancer?.ingress?.[0];
  return known(strategy.loadBalancer?.hostname) ?? known(ingress?.hostname) ?? known(ingress?.ip);
}

/**
 * Where machines fetch their configuration (`status.ignitionEndpoint`), as upstream reports it: a Route's host name, a
 * NodePort's address and node port, or a load balancer's address (ours: upstream offers no LoadBalancer here) — once
 * the ignition Service exists. Undefined while unknown, so a value set before stays.
 */
export function ignitionEndpointOf(scope: Scope): string | undefined {
  const hcp = controlPlaneOf(scope);
  const service = scope.deps.service(`${HostedClusterNames.controlPlaneNamespace(scope.hc)}/${ControlPlaneNames.ignitionServer}`);
  if (hcp === undefined || service === undefined) return undefined;
  const strategy = ignitionStrategyOf(hcp);
  if (strategy.type === 'Route') return known(strategy.route?.hostname);
  return strategy.type === 'NodePort' ? nodePortEndpoint(strategy, service) : loadBalancerEndpoint(strategy, service);
}
