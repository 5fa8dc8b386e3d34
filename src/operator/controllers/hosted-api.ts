import { ControlPlaneNames, KUBE_APISERVER_PORT } from '../../controlplane/names.ts';
import { fromBase64 } from '../../lib/base64.ts';
import { setBounded } from '../../lib/bounded-map.ts';
import { isPlainObject } from '../../lib/objects.ts';
import { toYaml } from '../../lib/yaml.ts';
import { parseYaml } from '../../lib/yaml-read.ts';

/**
 * How the operator reaches hosted API servers: through the address the cluster is published at (what users reach,
 * and the only way from outside the management cluster), or — running in the management cluster — through the API
 * server's Service, as upstream's control-plane operator does: no trip out to a load balancer or node port and back,
 * and no dependence on the published name resolving inside the cluster.
 */
export type HostedApiAccess = 'published' | 'service-network';

/** The API server's Service URL from any namespace of the management cluster (its certificate carries the name). */
export const serviceNetworkServer = (controlPlaneNamespace: string): string => `https://${ControlPlaneNames.kubeAPIServerService}.${controlPlaneNamespace}.svc:${String(KUBE_APISERVER_PORT)}`;

/**
 * The kubeconfig the operator uses for a hosted cluster, from the control plane's admin kubeconfig Secret data
 * (base64): as it is when published access is chosen, else with every cluster's server set to the Service's URL.
 * Undefined while the Secret has none.
 */
export function hostedApiKubeconfig(adminKubeconfigData: string | undefined, controlPlaneNamespace: string, access: HostedApiAccess = 'published'): string | undefined {
  if (adminKubeconfigData === undefined) return undefined;
  if (access === 'published') return fromBase64(adminKubeconfigData);
  // Asked on every reconcile and capacity sample: the YAML is rewritten once per change of the Secret.
  const known = rewritten.get(controlPlaneNamespace);
  if (known?.data === adminKubeconfigData) return known.text;
  const text = withServer(fromBase64(adminKubeconfigData), serviceNetworkServer(controlPlaneNamespace));
  setBounded(rewritten, controlPlaneNamespace, { data: adminKubeconfigData, text }, MAX_REWRITTEN);
  return text;
}

/** The last rewrite per control-plane namespace, bounded like the operator's other per-tenant memos. */
const rewritten = new Map<string, { readonly data: string; readonly text: string }>();
const MAX_REWRITTEN = 1_000;

/** A kubeconfig with every cluster's server set to `server` (as it is when it is not one). */
function withServer(text: string, server: string): string {
  const config = parseYaml(text);
  if (!isPlainObject(config) || !Array.isArray(config['clusters'])) return text;
  const clusters = (config['clusters'] as unknown[]).map((entry) => (isPlainObject(entry) && isPlainObject(entry['cluster']) ? { ...entry, cluster: { ...entry['cluster'], server } } : entry));
  return toYaml({ ...config, clusters });
}
