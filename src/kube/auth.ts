import type { RequestOptions } from 'node:https';

/**
 * Where one API server is and how a request to it is authenticated: what client-node's KubeConfig offers for a
 * kubeconfig, and what {@link inClusterAuth} offers for a pod's service account without loading client-node.
 */
export interface ClusterAuth {
  getCurrentCluster(): { readonly server: string } | null;
  applyToHTTPSOptions(options: RequestOptions): Promise<void>;
}
