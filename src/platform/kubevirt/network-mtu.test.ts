import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster, HostedControlPlane } from '../../api/index.ts';
import { aHostedCluster, aHostedControlPlane } from '../../testing/builders.ts';
import { infraNetworkMTUCondition } from './network-mtu.ts';

function controlPlane(change: (hc: HostedCluster) => void): HostedControlPlane {
  const hc = aHostedCluster('example', 'clusters');
  change(hc);
  return aHostedControlPlane(hc, 'example-x');
}

const withMTU = (mtu: number) => (hc: HostedCluster): void => {
  hc.spec.operatorConfiguration = { clusterNetworkOperator: { ovnKubernetesConfig: { mtu } } };
};

describe('infraNetworkMTUCondition', () => {
  it('When the OVN-Kubernetes MTU leaves room for a 9000-byte infrastructure network, it should report AsExpected', () => {
    assert.deepEqual(infraNetworkMTUCondition(controlPlane(withMTU(8800))), { type: 'ValidKubeVirtInfraNetworkMTU', status: 'True', reason: 'AsExpected', message: 'All is well' });
  });

  it('When the OVN-Kubernetes MTU is below 8800, it should report the suboptimal MTU with what to change', () => {
    const condition = infraNetworkMTUCondition(controlPlane(withMTU(1400)));
    assert.equal(condition?.status, 'False');
    assert.equal(condition?.reason, 'KubeVirtSuboptimalMTUDetected');
    assert.match(condition?.message ?? '', /^A suboptimal MTU size has been detected \(the cluster's OVN-Kubernetes MTU is 1400\)\. .*9000 bytes or greater on the infrastructure cluster/);
  });

  it('When no MTU is declared or the network is not OVN-Kubernetes, it should report nothing (as upstream)', () => {
    assert.equal(infraNetworkMTUCondition(controlPlane(() => undefined)), undefined);
    assert.equal(infraNetworkMTUCondition(controlPlane((hc) => {
      withMTU(1400)(hc);
      hc.spec.networking = { ...hc.spec.networking, networkType: 'Other' };
    })), undefined);
  });
});
