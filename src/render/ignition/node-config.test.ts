import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toYaml } from '../../lib/yaml.ts';
import { assertGolden } from '../../testing/golden.ts';
import { ignitionPointer } from '../nodepool/bootstrap.ts';
import { decodeDataURL, IgnitionConfigError, materialiseIgnition, parseIgnitionPointer } from './materialise.ts';
import { kubeletSettableLabel, NodePaths, renderNodeIgnition, type NodeIgnitionInput } from './node-config.ts';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBroot\n-----END CERTIFICATE-----\n';
const input: NodeIgnitionInput = {
  apiServerURL: 'https://api.example.hcp.local:6443',
  clusterCA: CA,
  bootstrapToken: 'abcdef.0123456789abcdef',
  clusterDNS: '172.31.0.10',
  clusterDomain: 'cluster.local',
  sandboxImage: 'registry.k8s.io/pause:3.10.1',
  pullSecret: '{"auths":{"quay.io":{"auth":"dXNlcjpwYXNz"}}}',
  nodeLabels: { 'hypershift.openshift.io/nodePool': 'workers', 'node-role.kubernetes.io/worker': '', 'topology.kubernetes.io/zone': 'z1', 'node.kubernetes.io/exclude-from-external-load-balancers': 'true' },
  taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, { key: 'spot', effect: 'PreferNoSchedule' }],
  sshAuthorizedKeys: ['ssh-ed25519 AAAAC3Nza example'],
  additionalTrustBundle: '-----BEGIN CERTIFICATE-----\nMIIBextra\n-----END CERTIFICATE-----\n',
};

const dir = join(import.meta.dirname, 'testdata');

describe('node Ignition config', () => {
  it('When a generation is rendered, the served config and what it writes should match the golden files', () => {
    const config = renderNodeIgnition(input);
    assertGolden(join(dir, 'node-ignition.json'), `${JSON.stringify(config, null, 2)}\n`);
    assertGolden(join(dir, 'node-ignition-materialised.yaml'), toYaml(materialiseIgnition(config)));
  });

  it('When labels are in the kubernetes.io domains, only those NodeRestriction lets a kubelet set should reach --node-labels', () => {
    const unit = materialiseIgnition(renderNodeIgnition(input)).units.find((u) => u.name === 'kubelet.service')?.contents ?? '';
    assert.match(unit, /--node-labels=hypershift.openshift.io\/nodePool=workers,node.kubernetes.io\/exclude-from-external-load-balancers=true,topology.kubernetes.io\/zone=z1( |\n)/);
    assert.doesNotMatch(unit, /node-role/);
    for (const [key, settable] of [['node-role.kubernetes.io/worker', false], ['example.k8s.io/x', false], ['kubernetes.io/hostname', true], ['kubelet.kubernetes.io/x', true], ['team', true], ['example.com/tier', true]] as const) {
      assert.equal(kubeletSettableLabel(key), settable, key);
    }
  });

  it('When a stored label would break the kubelet\'s unit (a newline, a space), it should be left out, the unit one ExecStart line', () => {
    const hostile = { ...input, nodeLabels: { team: 'a\nExecStartPre=/bin/sh -c id', 'a b': 'x', tier: 'gold' } };
    const unit = materialiseIgnition(renderNodeIgnition(hostile)).units.find((u) => u.name === 'kubelet.service')?.contents ?? '';
    assert.match(unit, /--node-labels=tier=gold\n/);
    assert.doesNotMatch(unit, /ExecStartPre|a b/);
  });

  it('When there are no labels, keys or trust bundle, the config should leave those parts out', () => {
    const materialised = materialiseIgnition(renderNodeIgnition({ ...input, nodeLabels: {}, sshAuthorizedKeys: [], additionalTrustBundle: undefined, taints: [] }));
    assert.deepEqual(materialised.sshAuthorizedKeys, {});
    assert.equal(materialised.files.some((f) => f.path === NodePaths.trustBundle), false);
    assert.doesNotMatch(materialised.units.find((u) => u.name === 'kubelet.service')?.contents ?? '', /--node-labels/);
  });

  it('When the pull secret has credentials for the sandbox image\'s registry, containerd\'s own configuration should carry them, privately', () => {
    const containerd = (overrides: Partial<NodeIgnitionInput>) => materialiseIgnition(renderNodeIgnition({ ...input, ...overrides })).files.find((f) => f.path === NodePaths.containerdConfig);
    const withAuth = containerd({ sandboxImage: '10.250.0.1:5443/hcp/pause@sha256:' + 'a'.repeat(64), pullSecret: '{"auths":{"10.250.0.1:5443":{"auth":"dXNlcjpwYXNz"}}}' });
    assert.equal(withAuth?.mode, 0o600);
    assert.match(withAuth?.contents ?? '', /\[plugins\.'io\.containerd\.cri\.v1\.images'\.registry\.configs\."10\.250\.0\.1:5443"\.auth\]\n {2}username = "user"\n {2}password = "pass"\n/);
    for (const overrides of [{}, { pullSecret: 'not json' }]) {
      const without = containerd(overrides);
      assert.equal(without?.mode, 0o644);
      assert.doesNotMatch(without?.contents ?? '', /configs|password/);
    }
  });

  it('When a machine reads the pointer its user data holds, it should find the endpoint, headers and CA the NodePool rendered', () => {
    const pointer = ignitionPointer({ nodePool: { metadata: { name: 'workers', namespace: 'clusters' } }, hash: '1a2b3c4d', token: 'tok', ignitionEndpoint: '10.0.0.5:30443', ignitionCA: CA });
    assert.deepEqual(parseIgnitionPointer(JSON.stringify(pointer)), {
      source: 'https://10.0.0.5:30443/ignition',
      headers: { Authorization: `Bearer ${Buffer.from('tok').toString('base64')}`, NodePool: 'clusters/workers', TargetConfigVersionHash: '1a2b3c4d' },
      ca: CA,
    });
    assert.throws(() => parseIgnitionPointer('{"ignition":{"version":"3.2.0"}}'), /no https:\/\/ config to merge/);
  });

  it('When a config holds what the reader does not understand, it should refuse by name instead of writing part of it', () => {
    assert.throws(() => materialiseIgnition({ ignition: { version: '2.2.0' } }), IgnitionConfigError);
    assert.throws(() => materialiseIgnition({ ignition: { version: '3.2.0' }, storage: { directories: [] } }), /storage.directories/);
    assert.throws(() => materialiseIgnition({ ignition: { version: '3.2.0' }, storage: { files: [{ path: 'relative', contents: { source: 'data:,x' } }] } }), /absolute path/);
    assert.throws(() => decodeDataURL('https://example.com/x'), /only data: URLs/);
    assert.equal(decodeDataURL('data:,a%20b'), 'a b');
  });
});
