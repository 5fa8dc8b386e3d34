import { ControlPlaneNames, KUBE_APISERVER_PORT } from '../../../controlplane/names.ts';
import type { ServicePublishingStrategy } from '../../../api/index.ts';
import { KONNECTIVITY_AGENT_PORT, KONNECTIVITY_SERVICE, strategyOf } from '../../../controlplane/kube-apiserver/services.ts';
import { inNamespace, type Scope } from './scope.ts';

/** A published host and port; undefined until the platform has assigned it. */
export type Endpoint = { host: string; port: number } | undefined;
type Published = 'APIServer' | 'Konnectivity';

const at = (host: string | undefined, port: number | undefined): Endpoint => (host === undefined || host === '' || port === undefined ? undefined : { host, port });

/** The Service that publishes each endpoint and the port it serves on. */
const SERVICES: Record<Published, { readonly name: string; readonly port: number }> = {
  APIServer: { name: ControlPlaneNames.kubeAPIServerService, port: KUBE_APISERVER_PORT },
  Konnectivity: { name: KONNECTIVITY_SERVICE, port: KONNECTIVITY_AGENT_PORT },
};

function loadBalancer(scope: Scope, published: Published, strategy: ServicePublishingStrategy): Endpoint {
  const { name, port } = SERVICES[published];
  const ingress = scope.deps.service(inNamespace(scope, name))?.status?.loadBalancer?.ingress?.[0];
  return at(strategy.loadBalancer?.hostname ?? ingress?.hostname ?? ingress?.ip, port);
}

function nodePort(scope: Scope, published: Published, strategy: ServicePublishingStrategy): Endpoint {
  const port = scope.deps.service(inNamespace(scope, SERVICES[published].name))?.spec?.ports?.[0]?.nodePort;
  return at(strategy.nodePort?.address, port);
}

/**
 * Where the API server (or the konnectivity server its nodes' agents dial) is published, per its strategy: a
 * LoadBalancer's ingress (or the hostname the spec names), a NodePort's address and node port, or a Route's host on
 * 443. Undefined until the platform has assigned it.
 */
export function publishedEndpoint(scope: Scope, published: Published = 'APIServer'): Endpoint {
  const strategy = strategyOf(scope.hcp, published);
  if (strategy.type === 'LoadBalancer') return loadBalancer(scope, published, strategy);
  if (strategy.type === 'NodePort') return nodePort(scope, published, strategy);
  return at(strategy.route?.hostname, 443);
}
