import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { archiveEntries, externalInfraFolder, groupFolder, guestFolder, objectPath, podLogPath, safeSegment, secretListPath } from './layout.ts';

describe('groupFolder', () => {
  it('When the apiVersion has a group, it should be the group; for the legacy group, core', () => {
    assert.equal(groupFolder('apps/v1'), 'apps');
    assert.equal(groupFolder('kubevirt.io/v1'), 'kubevirt.io');
    assert.equal(groupFolder('v1'), 'core');
  });
});

describe('objectPath', () => {
  it('When the object is namespaced, it should go under namespaces/<ns>/<group>/<resource>/<name>.yaml', () => {
    assert.equal(objectPath({ apiVersion: 'cdi.kubevirt.io/v1beta1', resource: 'datavolumes' }, 'clusters-example', 'disk'), 'namespaces/clusters-example/cdi.kubevirt.io/datavolumes/disk.yaml');
    assert.equal(objectPath({ apiVersion: 'v1', resource: 'pods' }, 'clusters-example', 'etcd-0'), 'namespaces/clusters-example/core/pods/etcd-0.yaml');
  });

  it('When the object has no namespace, it should go under cluster-scoped-resources', () => {
    assert.equal(objectPath({ apiVersion: 'v1', resource: 'nodes' }, undefined, 'worker-1'), 'cluster-scoped-resources/core/nodes/worker-1.yaml');
    assert.equal(objectPath({ apiVersion: 'storage.k8s.io/v1', resource: 'storageclasses' }, '', 'local'), 'cluster-scoped-resources/storage.k8s.io/storageclasses/local.yaml');
  });
});

describe('podLogPath', () => {
  it('When the log is the current one, it should be <pod>-<container>.log; the previous one ends in -previous.log', () => {
    assert.equal(podLogPath('clusters-example', 'etcd-0', 'etcd', 'current'), 'namespaces/clusters-example/core/pods/logs/etcd-0-etcd.log');
    assert.equal(podLogPath('clusters-example', 'etcd-0', 'etcd', 'previous'), 'namespaces/clusters-example/core/pods/logs/etcd-0-etcd-previous.log');
  });
});

describe('safeSegment', () => {
  it('When a name could leave its folder, it should be made harmless', () => {
    assert.equal(safeSegment('a/../b'), 'a_.._b');
    assert.equal(safeSegment('..'), '_..');
    assert.equal(safeSegment(''), '_');
    assert.equal(safeSegment('kube-apiserver-6d9f.17a2b'), 'kube-apiserver-6d9f.17a2b');
  });

  it('When a namespace or pod name holds a separator, it should not leave the dump folder', () => {
    assert.equal(podLogPath('../etc', 'p', 'c', 'current'), 'namespaces/.._etc/core/pods/logs/p-c.log');
    assert.equal(secretListPath('a/b'), 'namespaces/a_b/core/secrets.yaml');
  });
});

describe('folders', () => {
  it('When the guest or an external infrastructure is dumped, it should go where upstream puts it', () => {
    assert.equal(guestFolder('example'), 'hostedcluster-example');
    assert.equal(externalInfraFolder('0b6a7c2e-1111-4222-8333-944445555666'), 'external-infra-clusters/nodepool-0b6a7c2e-1111-4222-8333-944445555666');
  });
});

describe('archiveEntries', () => {
  it('When the artifact directory already holds an archive, it should archive everything else, sorted', () => {
    assert.deepEqual(archiveEntries(['summary.txt', 'hypershift-dump.tar.gz', 'namespaces', 'cluster-scoped-resources']), ['cluster-scoped-resources', 'namespaces', 'summary.txt']);
  });
});
