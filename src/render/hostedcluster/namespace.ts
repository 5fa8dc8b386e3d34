import type { HostedCluster } from '../../api/index.ts';
import { Annotation, Label } from '../../api/v1beta1/well-known.ts';
import type { KubeManifest } from '../../api/manifest.ts';
import { clusterKey, HostedClusterNames } from './names.ts';

/**
 * The control-plane namespace with upstream's labels. Pod security is `privileged` as upstream's default: etcd and
 * the API server need host-independent volumes and fixed users that `restricted` would refuse on OpenShift.
 */
export function renderControlPlaneNamespace(hc: HostedCluster): KubeManifest {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: HostedClusterNames.controlPlaneNamespace(hc),
      labels: {
        [Label.HostedControlPlane]: 'true',
        'pod-security.kubernetes.io/enforce': 'privileged',
        'pod-security.kubernetes.io/audit': 'privileged',
        'pod-security.kubernetes.io/warn': 'privileged',
        'security.openshift.io/scc.podSecurityLabelSync': 'false',
      },
      annotations: { [Annotation.Cluster]: clusterKey(hc) },
    },
  };
}
