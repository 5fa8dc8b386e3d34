import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { NodePool } from '../../api/index.ts';
import { Annotation } from '../../api/v1beta1/well-known.ts';
import { toYamlDocuments } from '../../lib/yaml.ts';
import { aNodePool, nodePoolWithKubevirt } from '../../testing/builders.ts';
import { assertGolden } from '../../testing/golden.ts';
import { renderBootImageCache } from './boot-image-cache.ts';
import type { BootImage } from './boot-image.ts';
import { VmJsonPatchError } from './json-patch.ts';
import { BootImageCacheNotReadyError, renderMachineTemplate, type MachineTemplateInput } from './machine-template.ts';
import { machineName, machineTemplateHash, renderVirtualMachine } from './virtual-machine.ts';

const containerDisk: BootImage = { source: 'registry', url: 'docker://quay.io/containerdisks/rhcos:4.17', image: 'quay.io/containerdisks/rhcos:4.17', hash: 'sha256:abc', cached: false };

function input(nodePool: NodePool, overrides: Partial<MachineTemplateInput> = {}): MachineTemplateInput {
  return { nodePool, hostedClusterAnnotations: undefined, infraID: 'example-sffhb', infraNamespace: 'clusters-example', externalInfra: false, bootImage: containerDisk, ...overrides };
}

/** The VM of the first machine of a template, as the controller would create it. */
function firstVM(templateInput: MachineTemplateInput): Record<string, unknown> {
  const template = renderMachineTemplate(templateInput);
  const userDataSecretName = 'user-data-example-6b1b2c3d-userdata';
  const templateHash = machineTemplateHash(template, userDataSecretName);
  const { name: nodePoolName = '', namespace = '' } = templateInput.nodePool.metadata;
  const name = machineName(nodePoolName, 'x7k2p');
  return renderVirtualMachine(template, { name, namespace: templateInput.infraNamespace, nodePool: `${namespace}/${nodePoolName}`, infraID: templateInput.infraID, userDataSecretName, templateHash }) as unknown as Record<string, unknown>;
}

const golden = (name: string): string => join(import.meta.dirname, 'testdata', `${name}.yaml`);

function everyOption(): NodePool {
  const np = nodePoolWithKubevirt({
    compute: { cores: 4, memory: '16Gi', qosClass: 'Guaranteed' },
    rootVolume: { type: 'Persistent', persistent: { size: '64Gi', storageClass: 'ocs-storagecluster-ceph-rbd', accessModes: ['ReadWriteMany'], volumeMode: 'Block' } },
    networkInterfaceMultiqueue: 'Disable',
    additionalNetworks: [{ name: 'default/net-a' }, { name: 'tenants/net-b' }],
    attachDefaultNetwork: false,
    nodeSelector: { 'node-role.kubernetes.io/virt': '' },
    hostDevices: [{ deviceName: 'nvidia.com/A100', count: 2 }, { deviceName: 'intel.com/qat' }],
  });
  np.metadata.annotations = { [Annotation.NodePoolSupportsKubevirtTopologySpreadConstraints]: 'true' };
  return np;
}

function withDefaults(): NodePool {
  const np = aNodePool();
  np.spec.platform.kubevirt = { ...np.spec.platform.kubevirt, networkInterfaceMultiqueue: 'Enable', attachDefaultNetwork: true } as NonNullable<NodePool['spec']['platform']['kubevirt']>;
  return np;
}

describe('renderMachineTemplate and renderVirtualMachine', () => {
  it('When the NodePool has the defaults of hcp create cluster kubevirt, it should match the golden VM', () => {
    assertGolden(golden('vm-defaults'), toYamlDocuments([firstVM(input(withDefaults()))]));
  });

  it('When every platform option is set on external infrastructure, it should match the golden VM', () => {
    assertGolden(golden('vm-every-option'), toYamlDocuments([firstVM(input(everyOption(), { externalInfra: true, infraNamespace: 'guests' }))]));
  });

  it('When the boot image is cached, it should clone the cache and the cache DataVolume should match the golden file', () => {
    const cached = { ...containerDisk, cached: true };
    const np = withDefaults();
    const cache = renderBootImageCache(np, '6f1c0a4e-1d0b-4a51-9a43-6a9c1f0e7d11', cached, 'clusters-example');
    const vm = firstVM(input(np, { bootImage: cached, cacheName: cache.metadata.name }));
    assertGolden(golden('vm-cached-boot-image'), toYamlDocuments([cache, vm]));
  });

  it('When the boot image is cached but the cache does not exist yet, it should refuse with upstream\'s message', () => {
    assert.throws(() => renderMachineTemplate(input(withDefaults(), { bootImage: { ...containerDisk, cached: true } })), BootImageCacheNotReadyError);
  });

  it('When the boot image is an HTTP disk, it should be downloaded by CDI, not pulled', () => {
    const http: BootImage = { source: 'http', url: 'https://example.com/rhcos.qcow2.gz', image: 'https://example.com/rhcos.qcow2.gz', hash: 'abc', cached: false };
    const template = renderMachineTemplate(input(withDefaults(), { bootImage: http }));
    assert.deepEqual(template.spec.dataVolumeTemplates[0]?.spec.source, { http: { url: 'https://example.com/rhcos.qcow2.gz' } });
  });

  it('When both the HostedCluster and the NodePool carry a JSON patch, it should apply the HostedCluster\'s first', () => {
    const np = withDefaults();
    np.metadata.annotations = { [Annotation.KubeVirtVMJSONPatch]: '[{"op": "replace", "path": "/spec/template/spec/domain/cpu/cores", "value": 8}]' };
    const hostedClusterAnnotations = { [Annotation.KubeVirtVMJSONPatch]: '[{"op": "replace", "path": "/spec/template/spec/domain/cpu/cores", "value": 6}, {"op": "add", "path": "/spec/template/spec/domain/firmware/bootloader/efi", "value": {"secureBoot": false}}]' };
    const template = renderMachineTemplate(input(np, { hostedClusterAnnotations }));
    assert.deepEqual(template.spec.template.spec.domain.cpu, { cores: 8 });
    assert.deepEqual((template.spec.template.spec.domain as Record<string, unknown>)['firmware'], { bootloader: { efi: { secureBoot: false } } });
  });

  it('When a JSON patch is malformed or cannot apply, it should fail with upstream\'s messages', () => {
    const np = withDefaults();
    np.metadata.annotations = { [Annotation.KubeVirtVMJSONPatch]: '{"op": "add"' };
    assert.throws(() => renderMachineTemplate(input(np)), (e: Error) => e instanceof VmJsonPatchError && e.message.startsWith('failed to parse the hypershift.openshift.io/kubevirt-vm-jsonpatch annotation; wrong jsonpatch format: '));
    np.metadata.annotations = { [Annotation.KubeVirtVMJSONPatch]: '[{"op": "remove", "path": "/spec/template/spec/nothing"}]' };
    assert.throws(() => renderMachineTemplate(input(np)), (e: Error) => e instanceof VmJsonPatchError && e.message.startsWith('failed to apply json patch annotation: '));
  });

  it('When a JSON patch removes the pool labels or the instance metadata, the VM should still carry the labels the caches select by', () => {
    const np = withDefaults();
    np.metadata.annotations = { [Annotation.KubeVirtVMJSONPatch]: '[{"op": "remove", "path": "/metadata/labels"}, {"op": "remove", "path": "/spec/template/metadata"}]' };
    const vm = firstVM(input(np)) as { metadata: { labels: Record<string, string> }; spec: { template: { metadata: { labels: Record<string, string> } } } };
    for (const labels of [vm.metadata.labels, vm.spec.template.metadata.labels]) {
      assert.equal(labels['hypershift.openshift.io/nodepool-name'], 'example');
      assert.equal(labels['hypershift.openshift.io/infra-id'], 'example-sffhb');
    }
  });

  it('When a JSON patch removes the volume lists, it should still attach the bootstrap data', () => {
    const np = withDefaults();
    np.metadata.annotations = { [Annotation.KubeVirtVMJSONPatch]: '[{"op": "remove", "path": "/spec/template/spec/volumes"}]' };
    const vm = firstVM(input(np)) as { spec: { template: { spec: { volumes: { name: string }[] } } } };
    assert.deepEqual(vm.spec.template.spec.volumes.map((v) => v.name), ['cloudinitvolume']);
  });
});

describe('machineTemplateHash and machineName', () => {
  it('When only the key order differs, it should give the same hash; when the bootstrap data changes, a new one', () => {
    const template = renderMachineTemplate(input(withDefaults()));
    const reordered = { spec: template.spec, metadata: template.metadata };
    assert.equal(machineTemplateHash(reordered, 'a'), machineTemplateHash(template, 'a'));
    assert.notEqual(machineTemplateHash(template, 'b'), machineTemplateHash(template, 'a'));
  });

  it('When the NodePool name is long, it should keep the VM name a 63-character DNS label', () => {
    const name = machineName(`${'a'.repeat(56)}-${'b'.repeat(30)}`, 'x7k2p');
    assert.ok(name.length <= 63, name);
    assert.match(name, /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    assert.equal(machineName('example-extra-cpu', 'zh9l5'), 'example-extra-cpu-zh9l5');
  });
});
