import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { HostedControlPlane } from '../api/index.ts';
import { toYamlDocuments } from '../lib/yaml.ts';
import { catalogReleaseProvider, kubernetesReleaseImage } from '../release/catalog.ts';
import type { ReleaseInfo } from '../release/info.ts';
import { aHostedCluster, aHostedControlPlane } from '../testing/builders.ts';
import { assertGolden } from '../testing/golden.ts';
import { renderControlPlane } from './render.ts';

const release = catalogReleaseProvider.lookup('quay.io/openshift-release-dev/ocp-release:4.17.0-multi') as ReleaseInfo;
const IGNITION = { image: 'quay.io/hcp-kubevirt/operator@sha256:0123', apiServerURL: 'https://api.example.com:6443' };
const hashes = { etcd: 'e1', 'kube-apiserver': 'k1', 'kube-controller-manager': 'c1', 'kube-scheduler': 's1', 'kubevirt-cloud-controller-manager': 'v1', 'kubevirt-csi-controller': 'd1', 'ignition-server': 'i1' };

function controlPlane(policy: 'HighlyAvailable' | 'SingleReplica'): HostedControlPlane {
  const hc = aHostedCluster('example', 'clusters');
  hc.spec.controllerAvailabilityPolicy = policy;
  return { ...(aHostedControlPlane(hc)) };
}

type Workload = { kind: string; metadata: { name: string }; spec: { replicas?: number; maxUnavailable?: number; minAvailable?: number } };
const byKind = (objects: readonly Record<string, unknown>[], kind: string): Workload[] => (objects as unknown as Workload[]).filter((o) => o.kind === kind);

describe('renderControlPlane', () => {
  for (const policy of ['HighlyAvailable', 'SingleReplica'] as const) {
    it(`When the policy is ${policy}, it should match the golden file`, () => {
      const objects = renderControlPlane({ hcp: controlPlane(policy), release, configHashes: hashes, encryptionKey: 'a2V5', kubeadminPassword: 'abcde-fghij-kmnop-qrstu', ignitionServer: IGNITION });
      assertGolden(join(import.meta.dirname, 'testdata', `control-plane-${policy}.yaml`), toYamlDocuments(objects));
    });
  }

  it('When the cluster is annotated with the API servers\' GOGC, GOMEMLIMIT and a priority class, its control plane should carry them and kube-apiserver run with them', () => {
    const hc = aHostedCluster('example', 'clusters');
    hc.metadata.annotations = { 'hypershift.openshift.io/kube-apiserver-gogc': '50', 'hypershift.openshift.io/kube-apiserver-gomemlimit': '200MiB', 'hypershift.openshift.io/api-critical-priority-class': 'urgent', unrelated: 'x' };
    const hcp = aHostedControlPlane(hc);
    assert.equal(hcp.metadata.annotations?.['unrelated'], undefined);
    const objects = renderControlPlane({ hcp, release, configHashes: hashes, encryptionKey: 'a2V5' });
    type Pods = { spec: { template: { spec: { priorityClassName?: string; containers: Array<{ name: string; env?: unknown }> } } } };
    const apiServer = (objects as unknown as Array<Workload & Pods>).find((o) => o.kind === 'Deployment' && o.metadata.name === 'kube-apiserver');
    assert.deepEqual(apiServer?.spec.template.spec.containers.find((c) => c.name === 'kube-apiserver')?.env, [{ name: 'GOGC', value: '50' }, { name: 'GOMEMLIMIT', value: '200MiB' }]);
    assert.equal(apiServer?.spec.template.spec.priorityClassName, 'urgent');
  });

  it('When the cluster has no kubeadmin user, it should render no token file and kube-apiserver should not read one', () => {
    const objects = renderControlPlane({ hcp: controlPlane('HighlyAvailable'), release, configHashes: hashes, encryptionKey: 'a2V5' });
    const yaml = toYamlDocuments(objects);
    assert.doesNotMatch(yaml, /kubeadmin|token-auth-file/);
  });

  it('When HighlyAvailable, it should run 3 etcd and API servers, 2 of the rest but the CSI controller, each budget letting one pod go', () => {
    const objects = renderControlPlane({ hcp: controlPlane('HighlyAvailable'), release, configHashes: hashes, encryptionKey: 'a2V5' });
    const replicas = Object.fromEntries([...byKind(objects, 'StatefulSet'), ...byKind(objects, 'Deployment')].map((w) => [w.metadata.name, w.spec.replicas]));
    assert.deepEqual(replicas, { etcd: 3, 'kube-apiserver': 3, 'kube-controller-manager': 2, 'kube-scheduler': 2, 'kubevirt-cloud-controller-manager': 2, 'kubevirt-csi-controller': 1 });
    for (const pdb of byKind(objects, 'PodDisruptionBudget')) assert.equal(pdb.spec.maxUnavailable, 1);
  });

  it('When SingleReplica, it should run one of each, each budget keeping its pod', () => {
    const objects = renderControlPlane({ hcp: controlPlane('SingleReplica'), release, configHashes: hashes, encryptionKey: 'a2V5' });
    for (const w of [...byKind(objects, 'StatefulSet'), ...byKind(objects, 'Deployment')]) assert.equal(w.spec.replicas, 1, w.metadata.name);
    for (const pdb of byKind(objects, 'PodDisruptionBudget')) assert.equal(pdb.spec.minAvailable, 1);
  });

  it('When the ignition endpoint is rendered, it should be published per the Ignition strategy and read only Secrets of its namespace', () => {
    const hcp = controlPlane('HighlyAvailable');
    const objects = renderControlPlane({ hcp, release, configHashes: hashes, encryptionKey: 'a2V5', ignitionServer: IGNITION });
    const role = objects.find((o) => o['kind'] === 'Role' && (o['metadata'] as { name: string }).name === 'ignition-server') as { metadata: { namespace: string }; rules: unknown[] };
    assert.deepEqual(role.rules, [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'patch'] }]);
    assert.equal(byKind(objects, 'Deployment').find((d) => d.metadata.name === 'ignition-server')?.spec.replicas, 2);
    assert.equal(byKind(objects, 'Route').some((r) => r.metadata.name === 'ignition-server'), true, 'the default Ignition strategy is a Route');
    hcp.spec.services = [...hcp.spec.services.filter((s) => s.service !== 'Ignition'), { service: 'Ignition', servicePublishingStrategy: { type: 'NodePort', nodePort: { address: '10.0.0.5', port: 30443 } } }];
    const nodePort = renderControlPlane({ hcp, release, configHashes: hashes, encryptionKey: 'a2V5', ignitionServer: IGNITION });
    const service = nodePort.find((o) => o['kind'] === 'Service' && (o['metadata'] as { name: string }).name === 'ignition-server') as { spec: { type: string; ports: Array<{ nodePort: number; port: number }> } };
    assert.deepEqual([service.spec.type, service.spec.ports[0]?.port, service.spec.ports[0]?.nodePort], ['NodePort', 443, 30443]);
    assert.equal(byKind(nodePort, 'Route').some((r) => r.metadata.name === 'ignition-server'), false);
  });

  it('When the management cluster assigns pods no user, every workload should run as upstream 1001 and etcd own its volume by that group', () => {
    const objects = renderControlPlane({ hcp: controlPlane('HighlyAvailable'), release, configHashes: hashes, encryptionKey: 'a2V5', defaultSecurityContextUid: 1001 });
    type Pod = Workload & { spec: { template: { spec: { securityContext?: Record<string, unknown> } } } };
    const workloads = [...byKind(objects, 'StatefulSet'), ...byKind(objects, 'Deployment')] as Pod[];
    assert.equal(workloads.length, 6);
    for (const w of workloads) {
      const expected = w.metadata.name === 'etcd' ? { runAsUser: 1001, fsGroup: 1001 } : { runAsUser: 1001 };
      assert.deepEqual(w.spec.template.spec.securityContext, expected, w.metadata.name);
    }
  });

  it('When the management cluster assigns pod users itself (OpenShift), it should set none', () => {
    const objects = renderControlPlane({ hcp: controlPlane('SingleReplica'), release, configHashes: hashes, encryptionKey: 'a2V5' });
    assert.doesNotMatch(toYamlDocuments(objects), /runAsUser|fsGroup/);
  });

  it('When the operator runs from an image, kube-controller-manager and kube-scheduler should wait for the API server, and the API server for etcd, with its prober', () => {
    const objects = renderControlPlane({ hcp: controlPlane('SingleReplica'), release, configHashes: hashes, encryptionKey: 'a2V5', availabilityProberImage: 'example.com/op@sha256:1' });
    type Pod = Workload & { spec: { template: { spec: { initContainers?: Array<{ image: string; command: string[] }> } } } };
    const inits = Object.fromEntries(([...byKind(objects, 'StatefulSet'), ...byKind(objects, 'Deployment')] as Pod[]).map((w) => [w.metadata.name, w.spec.template.spec.initContainers]));
    const prober = [{ image: 'example.com/op@sha256:1', command: ['hcp-operator', 'availability-prober', '--target=https://kube-apiserver:6443/readyz'] }];
    assert.deepEqual(inits['kube-controller-manager']?.map((c) => ({ image: c.image, command: c.command })), prober);
    assert.deepEqual(inits['kube-scheduler']?.map((c) => ({ image: c.image, command: c.command })), prober);
    assert.equal(inits['etcd'], undefined);
    assert.deepEqual(inits['kube-apiserver']?.map((c) => ({ image: c.image, command: c.command })), [{ image: 'example.com/op@sha256:1', command: ['hcp-operator', 'availability-prober', '--target=tcp://etcd-client:2379'] }]);
  });

  it('When pods run, etcd should get no Service-link variables (it reads ETCD_* as flags) and kube-controller-manager should keep its plugin folder writable', () => {
    const objects = renderControlPlane({ hcp: controlPlane('SingleReplica'), release, configHashes: hashes, encryptionKey: 'a2V5' });
    type Pod = Workload & { spec: { template: { spec: { enableServiceLinks?: boolean; containers: Array<{ name: string; args?: string[] }> } } } };
    const workloads = [...byKind(objects, 'StatefulSet'), ...byKind(objects, 'Deployment')] as Pod[];
    for (const w of workloads) assert.equal(w.spec.template.spec.enableServiceLinks, false, w.metadata.name);
    const kcm = workloads.find((w) => w.metadata.name === 'kube-controller-manager')?.spec.template.spec.containers[0];
    assert.ok(kcm?.args?.includes('--flex-volume-plugin-dir=/tmp/volume-plugins'));
  });

  it('When flannel runs the pod network, kube-controller-manager should give each Node its pod range of the cluster network; else none', () => {
    type Pod = Workload & { spec: { template: { spec: { containers: Array<{ args?: string[] }> } } } };
    const kcmArgs = (r: ReleaseInfo): string[] => (byKind(renderControlPlane({ hcp: controlPlane('SingleReplica'), release: r, configHashes: hashes, encryptionKey: 'a2V5' }), 'Deployment') as Pod[]).find((w) => w.metadata.name === 'kube-controller-manager')?.spec.template.spec.containers[0]?.args ?? [];
    const withFlannel = kcmArgs(catalogReleaseProvider.lookup(kubernetesReleaseImage('1.36.3')) as ReleaseInfo);
    assert.ok(['--allocate-node-cidrs=true', '--cluster-cidr=10.132.0.0/14', '--node-cidr-mask-size=23'].every((a) => withFlannel.includes(a)), withFlannel.join(' '));
    assert.ok(kcmArgs(release).includes('--allocate-node-cidrs=false'));
  });
});
