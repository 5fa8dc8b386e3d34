import type { KubevirtKind } from './kubevirt-envelope.ts';

/** Where a set of CRDs comes from: a Go module at a pinned version, and the files (or Go map entries) in it. */
export interface CrdSource {
  readonly id: string;
  readonly module: string;
  readonly version: string;
  /** CRD YAML files inside the module. */
  readonly files?: readonly string[];
  /** The files are install manifests: every object of them is kept, not only the CRDs. */
  readonly allObjects?: boolean;
  /** A generated Go file mapping names to CRD YAML (CDI). */
  readonly goCrdMap?: { readonly file: string; readonly entries: readonly string[] };
  /** KubeVirt: a generated Go file mapping singular names to schemas, wrapped into CRDs here. */
  readonly kubevirtSchemas?: { readonly file: string; readonly entries: readonly KubevirtKind[] };
}

/** Pinned versions: the ones upstream HyperShift builds against (see shared/reference/real-apiserver.md §4). */
export const THIRD_PARTY_CRDS: readonly CrdSource[] = [
  {
    id: 'kubevirt',
    module: 'kubevirt.io/kubevirt',
    version: 'v1.8.4',
    kubevirtSchemas: {
      file: 'pkg/virt-operator/resource/generate/components/validations_generated.go',
      entries: ['virtualmachine', 'virtualmachineinstance'],
    },
  },
  {
    id: 'cdi',
    module: 'kubevirt.io/containerized-data-importer',
    version: 'v1.65.0',
    goCrdMap: { file: 'pkg/operator/resources/crds_generated.go', entries: ['datavolume'] },
  },
  {
    id: 'openshift-api',
    module: 'github.com/openshift/api',
    version: 'v0.0.0-20260805160557-b61243060d5f',
    files: [
      'route/v1/zz_generated.crd-manifests/routes.crd.yaml',
      'config/v1/zz_generated.crd-manifests/0000_10_config-operator_01_networks-Default.crd.yaml',
    ],
  },
  {
    id: 'volume-snapshot',
    module: 'github.com/kubernetes-csi/external-snapshotter/client/v8',
    version: 'v8.6.0',
    files: [
      'config/crd/snapshot.storage.k8s.io_volumesnapshotclasses.yaml',
      'config/crd/snapshot.storage.k8s.io_volumesnapshotcontents.yaml',
      'config/crd/snapshot.storage.k8s.io_volumesnapshots.yaml',
    ],
  },
  {
    // The Prometheus Operator's ServiceMonitor, which the operator writes per control plane where it is served.
    // v0.94.0: the newest the module proxy serves for the repository's root module (v0.95.x answer 403).
    id: 'prometheus-operator',
    module: 'github.com/prometheus-operator/prometheus-operator',
    version: 'v0.94.0',
    files: ['example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml'],
  },
  {
    id: 'multus',
    module: 'github.com/k8snetworkplumbingwg/network-attachment-definition-client',
    version: 'v1.7.7',
    files: ['artifacts/networks-crd.yaml'],
  },
];

/** Upstream HyperShift's own HostedCluster/NodePool CRDs, for the compatibility tests (a cluster of their own). */
export const UPSTREAM_HYPERSHIFT_CRDS: CrdSource = {
  id: 'hypershift-upstream',
  module: 'github.com/openshift/hypershift',
  version: 'v0.1.81',
  files: [
    'cmd/install/assets/crds/hypershift-operator/zz_generated.crd-manifests/hostedclusters-Hypershift-Default.crd.yaml',
    'cmd/install/assets/crds/hypershift-operator/zz_generated.crd-manifests/nodepools-Default.crd.yaml',
  ],
};
