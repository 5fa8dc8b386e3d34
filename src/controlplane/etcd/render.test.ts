import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { HostedControlPlane } from '../../api/index.ts';
import { toYamlDocuments } from '../../lib/yaml.ts';
import { catalogReleaseProvider } from '../../release/catalog.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { aHostedCluster, aHostedControlPlane } from '../../testing/builders.ts';
import { assertGolden } from '../../testing/golden.ts';
import { etcdBootstrapped, renderEtcd } from './render.ts';
import { OurAnnotation } from '../../api/v1beta1/well-known.ts';

const hcp = (version?: string): HostedControlPlane => ({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedControlPlane', metadata: { name: 'demo', namespace: 'clusters-demo' }, spec: {} as HostedControlPlane['spec'], ...(version === undefined ? {} : { status: { ready: true, initialized: true, version } }) });

describe('whether etcd may still be bootstrapped', () => {
  it('When no quorum of members has been ready and the control plane never ran, it should still be new', () => {
    assert.equal(etcdBootstrapped(hcp(), undefined), false);
    assert.equal(etcdBootstrapped(hcp(), { spec: { replicas: 3 }, status: { readyReplicas: 1 } }), false);
  });

  it('When a quorum is ready, the StatefulSet remembers it, or the control plane ran, it should exist for good', () => {
    assert.equal(etcdBootstrapped(hcp(), { spec: { replicas: 3 }, status: { readyReplicas: 2 } }), true);
    assert.equal(etcdBootstrapped(hcp(), { metadata: { annotations: { [OurAnnotation.EtcdBootstrapped]: 'true' } }, spec: { replicas: 3 }, status: { readyReplicas: 0 } }), true, 'members lost later do not make it new again');
    assert.equal(etcdBootstrapped(hcp('1.36.3'), undefined), true);
  });
});

describe('etcd restored at creation', () => {
  const release = catalogReleaseProvider.lookup('quay.io/openshift-release-dev/ocp-release:4.17.0-multi') as ReleaseInfo;
  const restoredPlane = (): HostedControlPlane => {
    const hc = aHostedCluster('example', 'clusters');
    hc.spec.controllerAvailabilityPolicy = 'HighlyAvailable';
    hc.spec.etcd = { managementType: 'Managed', managed: { storage: { type: 'PersistentVolume', restoreSnapshotURL: ['s3://backups/example/1795770000.db'] } } };
    return aHostedControlPlane(hc);
  };

  it('When restoreSnapshotURL is set, each member should fetch and check the snapshot, then restore it as itself, before etcd starts (golden)', () => {
    const objects = renderEtcd(restoredPlane(), release, 'e1', { operatorImage: 'quay.io/hcp-kubevirt/operator@sha256:0123' });
    const statefulSet = objects.filter((o) => o['kind'] === 'StatefulSet');
    assertGolden(join(import.meta.dirname, 'testdata', 'etcd-restored-HighlyAvailable.yaml'), toYamlDocuments(statefulSet));
  });

  it('When restoreSnapshotURL is set and the operator image is unknown, it should refuse to render members that would start empty', () => {
    assert.throws(() => renderEtcd(restoredPlane(), release, 'e1'), /needs the operator image/);
  });

  it('When the cluster has run, the restore containers should stay, so the StatefulSet does not roll', () => {
    const template = (bootstrapped: boolean): unknown => renderEtcd(restoredPlane(), release, 'e1', { operatorImage: 'op', bootstrapped }).find((o) => o['kind'] === 'StatefulSet')?.['spec'];
    assert.deepEqual((template(true) as { template: unknown }).template, (template(false) as { template: unknown }).template);
  });
});
