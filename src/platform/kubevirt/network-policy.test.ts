import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toYamlDocuments } from '../../lib/yaml.ts';
import { assertGolden } from '../../testing/golden.ts';
import { blockedNetworksOf, renderVirtLauncherNetworkPolicy } from './network-policy.ts';

describe('renderVirtLauncherNetworkPolicy', () => {
  it('When the VMs run beside the control plane, it should block the management networks but allow the control plane, and match the golden file', () => {
    const centralized = renderVirtLauncherNetworkPolicy({ namespace: 'clusters-example', infraID: 'example-sffhb', blockedCIDRs: ['10.128.0.0/14', '172.30.0.0/16', 'fd01::/48'], controlPlanePeers: true, nodePortAddresses: ['192.168.1.10', '192.168.1.10', 'fd00::10'] });
    const external = renderVirtLauncherNetworkPolicy({ namespace: 'guests', infraID: 'example-sffhb', blockedCIDRs: undefined, controlPlanePeers: false });
    assertGolden(join(import.meta.dirname, 'testdata', 'network-policies.yaml'), toYamlDocuments([centralized, external]));
  });

  it('When the network configuration lists pod and service networks, it should block both; without a spec, nothing', () => {
    assert.deepEqual(blockedNetworksOf({ spec: { clusterNetwork: [{ cidr: '10.128.0.0/14' }], serviceNetwork: ['172.30.0.0/16'] } }), ['10.128.0.0/14', '172.30.0.0/16']);
    assert.equal(blockedNetworksOf(undefined), undefined);
  });
});
