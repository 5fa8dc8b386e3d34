import { ControlPlaneNames, KUBE_APISERVER_PORT } from '../../../controlplane/names.ts';
import type { ServicePublishingStrategy } from '../../../api/index.ts';
import { strategyOf } from '../../../controlplane/kube-apiserver/services.ts';
import { inNamespace, type Scope } from './scope.ts';

type Endpoint = { host: string; port: number } | undefined;
const at = (host: string | undefined, port: number | undefined): Endpoint => (host === undefined || host === '' || port === undefined ? undefined : { host, port });

function loadBalancer(scope: Scope, strategy: ServicePublishingStrategy): Endpoint {
  const ingress = scope.deps.service(inNamespace(scope, ControlPlaneNames.kubeAPIServerService))?.status?.loadBalancer?.ingress?.[0];
  return at(strategy.loadBalancer?.hostname ?? ingress?.hostname ?? ingress?.ip, KUBE_APISERVER_PORT);
}

function nodePort(scope: Scope, strategy: ServicePublishingStrategy): Endpoint {
  const port = scope.deps.service(inNamespace(scope, ControlPlaneNames.kubeAPIServerService))?.spec?.ports?.[0]?.nodePort;
  return at(strategy.nodePort?.address, port);
}

/**
 * Where the API server is published, per its strategy: a LoadBalancer's ingress (or the hostname the spec names),
 * a NodePort's address and node port, or a Route's host on 443. Undefined until the platform has assigned it.
 */
export function publishedEndpoint(scope: Scope): Endpoint {
  const strategy = strategyOf(scope.hcp, 'APIServer');
  if (strategy.type === 'LoadBalancer') return loadBalancer(scope, strategy);
  if (strategy.type === 'NodePort') return nodePort(scope, strategy);
  return at(strategy.route?.hostname, 443);
}
