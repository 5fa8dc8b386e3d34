import { METRICS_CLIENT_USER } from '../../controlplane/pki/plan.ts';
import { guestMeta } from './labels.ts';

/** The ClusterRole (and its binding) that lets the control plane's metrics scraper read what it scrapes. */
export const METRICS_READER_ROLE = 'hcp:control-plane-metrics-reader';

/**
 * What the metrics scraper may read in the hosted cluster. Its certificate's group `system:monitoring` already reads
 * `/metrics` (Kubernetes' bootstrap policy), but not the scheduler's `/metrics/resources`, which Prometheus found
 * answering 403; the components authorize through the hosted API server, so the grant lives here.
 */
export function renderMetricsReader(): Array<Record<string, unknown>> {
  const rbac = 'rbac.authorization.k8s.io';
  return [
    { apiVersion: `${rbac}/v1`, kind: 'ClusterRole', metadata: guestMeta(METRICS_READER_ROLE), rules: [{ nonResourceURLs: ['/metrics', '/metrics/resources'], verbs: ['get'] }] },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: guestMeta(METRICS_READER_ROLE),
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: METRICS_READER_ROLE },
      subjects: [{ apiGroup: rbac, kind: 'User', name: METRICS_CLIENT_USER }],
    },
  ];
}
