import { ControlPlaneNames, KUBE_APISERVER_PORT } from '../../../controlplane/names.ts';
import { PkiSecret } from '../../../controlplane/pki/plan.ts';
import { csiDriverEnabled } from '../../../controlplane/kubevirt-csi-controller/render.ts';
import { fromBase64, toBase64 } from '../../../lib/base64.ts';
import { toYaml } from '../../../lib/yaml.ts';
import { renderKubeconfig } from '../../../pki/kubeconfig.ts';
import { writePkiSecret } from './pki.ts';
import { inNamespace, type Scope } from './scope.ts';


/** The API server URL users reach: the published endpoint once known, else the in-cluster Service. */
export function externalServer(scope: Scope): string {
  const endpoint = scope.hcp.status?.controlPlaneEndpoint;
  if (endpoint !== undefined && endpoint.host !== '') return `https://${endpoint.host}:${String(endpoint.port)}`;
  return `https://${ControlPlaneNames.kubeAPIServerService}.${scope.hcp.metadata.namespace ?? ''}.svc:${String(KUBE_APISERVER_PORT)}`;
}

const INTERNAL_SERVER = `https://${ControlPlaneNames.kubeAPIServerService}:${String(KUBE_APISERVER_PORT)}`;

/** The kubeconfig Secrets: the admin's (external URL), and the in-network ones of the admin and each component. */
const KUBECONFIGS: ReadonlyArray<{ secret: string; client: string; server: (scope: Scope) => string; when?: (scope: Scope) => boolean }> = [
  { secret: ControlPlaneNames.adminKubeconfig, client: PkiSecret.adminClient, server: externalServer },
  { secret: ControlPlaneNames.serviceNetworkAdminKubeconfig, client: PkiSecret.adminClient, server: () => INTERNAL_SERVER },
  { secret: ControlPlaneNames.kcmKubeconfig, client: PkiSecret.kcmClient, server: () => INTERNAL_SERVER },
  { secret: ControlPlaneNames.schedulerKubeconfig, client: PkiSecret.schedulerClient, server: () => INTERNAL_SERVER },
  { secret: ControlPlaneNames.csiControllerKubeconfig, client: PkiSecret.csiControllerClient, server: () => INTERNAL_SERVER, when: (scope) => csiDriverEnabled(scope.hcp) },
];

/**
 * Renders the kubeconfig Secrets from the certificates of the PKI phase and writes those whose content changed
 * (a renewed certificate, a newly published endpoint); unchanged ones cost no request.
 */
export async function ensureKubeconfigs(scope: Scope): Promise<void> {
  const caPem = fromBase64(scope.pki.get(PkiSecret.rootCA)?.['tls.crt']);
  for (const k of KUBECONFIGS) {
    if (k.when !== undefined && !k.when(scope)) continue;
    const client = scope.pki.get(k.client);
    const config = renderKubeconfig({ name: 'admin', server: k.server(scope), caPem, user: { clientCertificatePem: fromBase64(client?.['tls.crt']), clientKeyPem: fromBase64(client?.['tls.key']) } });
    const data = { kubeconfig: toBase64(toYaml(config)) };
    scope.pki.set(k.secret, data);
    if (scope.deps.secret(inNamespace(scope, k.secret))?.data?.['kubeconfig'] === data.kubeconfig) continue;
    await writePkiSecret(scope, k.secret, data);
  }
}
