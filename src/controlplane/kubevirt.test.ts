import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { HostedCluster, HostedControlPlane } from '../api/index.ts';
import { parseYaml } from '../lib/yaml-read.ts';
import { toYamlDocuments } from '../lib/yaml.ts';
import { catalogReleaseProvider, kubernetesReleaseImage } from '../release/catalog.ts';
import type { ReleaseInfo } from '../release/info.ts';
import { aHostedCluster, aHostedControlPlane } from '../testing/builders.ts';
import { assertGolden } from '../testing/golden.ts';
import { renderKubevirtCloudControllerManager } from './kubevirt-cloud-controller-manager/render.ts';
import { renderKubevirtCSIController, storageClassEnforcement } from './kubevirt-csi-controller/render.ts';
import { certificatePlan, PkiSecret } from './pki/plan.ts';

const release = catalogReleaseProvider.lookup('quay.io/openshift-release-dev/ocp-release:4.17.0-multi') as ReleaseInfo;

function controlPlane(change: (hc: HostedCluster) => void = () => undefined): HostedControlPlane {
  const hc = aHostedCluster('example', 'clusters');
  change(hc);
  return aHostedControlPlane(hc);
}

const external = (hc: HostedCluster): void => {
  hc.spec.platform.kubevirt = { ...hc.spec.platform.kubevirt, credentials: { infraNamespace: 'guests', infraKubeConfigSecret: { name: 'infra-kubeconfig', key: 'kubeconfig' } } };
};

const manual = (hc: HostedCluster): void => {
  hc.spec.platform.kubevirt = {
    ...hc.spec.platform.kubevirt,
    storageDriver: {
      type: 'Manual',
      manual: {
        storageClassMapping: [
          { group: 'fast', infraStorageClassName: 'nvme', guestStorageClassName: 'fast' },
          { infraStorageClassName: 'ceph-rbd', guestStorageClassName: 'standard' },
          { group: 'fast', infraStorageClassName: 'lvm', guestStorageClassName: 'fast-lvm' },
        ],
        volumeSnapshotClassMapping: [{ group: 'fast', infraVolumeSnapshotClassName: 'nvme-snap', guestVolumeSnapshotClassName: 'fast-snap' }],
      },
    },
  };
};

const golden = (name: string, objects: ReadonlyArray<Record<string, unknown>>): void => assertGolden(join(import.meta.dirname, 'testdata', 'kubevirt', `${name}.yaml`), toYamlDocuments(objects));
const kinds = (objects: ReadonlyArray<Record<string, unknown>>): string[] => objects.map((o) => `${String(o['kind'])}/${String((o['metadata'] as { name: string }).name)}`);

describe('KubeVirt platform components', () => {
  it('When the VMs run on the management cluster, the cloud provider should act there with its own Role and match the golden file', () => {
    const objects = renderKubevirtCloudControllerManager(controlPlane(), release, 'h1');
    golden('cloud-controller-manager-local', objects);
    assert.deepEqual(kinds(objects), ['ServiceAccount/kubevirt-cloud-controller-manager', 'Role/kubevirt-cloud-controller-manager', 'RoleBinding/kubevirt-cloud-controller-manager', 'ConfigMap/kubevirt-cloud-config', 'Deployment/kubevirt-cloud-controller-manager', 'PodDisruptionBudget/kubevirt-cloud-controller-manager']);
  });

  it('When the infrastructure is external, the cloud provider should use its kubeconfig and namespace, with no Role on the management cluster', () => {
    const objects = renderKubevirtCloudControllerManager(controlPlane(external), release, 'h1');
    golden('cloud-controller-manager-external', objects);
    const config = objects.find((o) => o['kind'] === 'ConfigMap') as { data: Record<string, string> };
    assert.deepEqual(parseYaml(config.data['cloud-config'] ?? ''), {
      kubeconfig: '/etc/kubernetes/infra-kubeconfig/kubeconfig',
      loadBalancer: { enabled: true, creationPollInterval: 0, selectorless: true },
      instancesV2: { enabled: true, zoneAndRegionEnabled: false },
      namespace: 'guests',
      infraLabels: { 'hypershift.openshift.io/infra-id': 'example-sffhb' },
    });
    assert.equal(objects.some((o) => o['kind'] === 'Role'), false);
  });

  it('When the cloud-config changes, the cloud provider pods should roll', () => {
    const hashOf = (hcp: HostedControlPlane): unknown => JSON.stringify(renderKubevirtCloudControllerManager(hcp, release, 'h1').find((o) => o['kind'] === 'Deployment')).match(/config-hash":"(\w+)/)?.[1];
    assert.notEqual(hashOf(controlPlane()), hashOf(controlPlane(external)));
  });

  it('When the storage driver is Default, the CSI controller should allow only the infrastructure default class and match the golden file', () => {
    const objects = renderKubevirtCSIController(controlPlane(), release, 'h2');
    golden('csi-controller-local', objects);
    assert.deepEqual(parseYaml(storageClassEnforcement(controlPlane())), { allowDefault: true, allowAll: false });
  });

  it('When the storage is mapped by hand on an external infrastructure, the CSI controller should allow exactly the mapped classes by group', () => {
    const hcp = controlPlane((hc) => {
      external(hc);
      manual(hc);
    });
    const objects = renderKubevirtCSIController(hcp, release, 'h2');
    golden('csi-controller-external-manual', objects);
    assert.deepEqual(parseYaml(storageClassEnforcement(hcp)), {
      allowAll: false,
      allowList: ['ceph-rbd', 'lvm', 'nvme'],
      storageSnapshotMapping: [{ storageClasses: ['ceph-rbd'] }, { storageClasses: ['lvm', 'nvme'], volumeSnapshotClasses: ['nvme-snap'] }],
    });
    assert.equal(objects.some((o) => o['kind'] === 'Role'), false);
  });

  it('When the storage driver is None, there should be no CSI controller and no credential for it', () => {
    const hcp = controlPlane((hc) => {
      hc.spec.platform.kubevirt = { ...hc.spec.platform.kubevirt, storageDriver: { type: 'None' } };
    });
    assert.deepEqual(renderKubevirtCSIController(hcp, release, 'h2'), []);
    assert.equal(certificatePlan(hcp).some((c) => c.secret === PkiSecret.csiControllerClient), false);
    assert.equal(certificatePlan(controlPlane()).find((c) => c.secret === PkiSecret.csiControllerClient)?.commonName, 'system:serviceaccount:openshift-cluster-csi-drivers:kubevirt-csi-controller-sa');
  });

  it('When the release carries no KubeVirt provider or CSI driver (a Kubernetes-native release), neither should be rendered', () => {
    const kube = catalogReleaseProvider.lookup(kubernetesReleaseImage('1.36.3')) as ReleaseInfo;
    assert.deepEqual(renderKubevirtCloudControllerManager(controlPlane(), kube, 'h1'), []);
    assert.deepEqual(renderKubevirtCSIController(controlPlane(), kube, 'h2'), []);
  });
});
