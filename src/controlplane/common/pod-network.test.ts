import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster, HostedControlPlane } from '../../api/index.ts';
import { catalogReleaseProvider, kubernetesReleaseImage } from '../../release/catalog.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { aHostedCluster, aHostedControlPlane } from '../../testing/builders.ts';
import { allocatesNodeCIDRs, hostPrefixOf, podNetworkOf } from './pod-network.ts';

const kubeRelease = catalogReleaseProvider.lookup(kubernetesReleaseImage('1.36.3')) as ReleaseInfo;
const openshiftRelease = catalogReleaseProvider.lookup('quay.io/openshift-release-dev/ocp-release:4.17.0-multi') as ReleaseInfo;

function controlPlane(networking: Partial<NonNullable<HostedCluster['spec']['networking']>> = {}): HostedControlPlane {
  const hc = aHostedCluster('example', 'clusters');
  hc.spec.networking = { ...hc.spec.networking, ...networking };
  return aHostedControlPlane(hc);
}

describe('the pod network of a hosted cluster', () => {
  it('When the network type is the default and the release carries flannel, flannel should stand in for OVN-Kubernetes and nodes get pod ranges', () => {
    const network = podNetworkOf(controlPlane(), kubeRelease);
    assert.equal(network.kind, 'flannel');
    assert.equal(network.kind === 'flannel' ? network.standsInFor : '', 'OVNKubernetes');
    assert.equal(allocatesNodeCIDRs(controlPlane(), kubeRelease), true);
  });

  it('When the network type is Other or Calico, the user should bring the plugin and nodes get pod ranges only with allocateNodeCIDRs Enabled', () => {
    for (const networkType of ['Other', 'Calico'] as const) assert.deepEqual(podNetworkOf(controlPlane({ networkType }), kubeRelease), { kind: 'user', networkType });
    assert.equal(allocatesNodeCIDRs(controlPlane({ networkType: 'Other' }), kubeRelease), false);
    assert.equal(allocatesNodeCIDRs(controlPlane({ networkType: 'Other', allocateNodeCIDRs: 'Enabled' }), kubeRelease), true);
  });

  it('When the release carries no plugin the operator deploys, it should say the plugin is missing and allocate nothing', () => {
    assert.deepEqual(podNetworkOf(controlPlane(), openshiftRelease), { kind: 'missing', networkType: 'OVNKubernetes' });
    assert.equal(allocatesNodeCIDRs(controlPlane(), openshiftRelease), false);
  });

  it('When the cluster network gives no host prefix, each node should get a /23 as on OpenShift; else the given one', () => {
    assert.equal(hostPrefixOf(controlPlane()), 23);
    assert.equal(hostPrefixOf(controlPlane({ clusterNetwork: [{ cidr: '10.132.0.0/14', hostPrefix: 24 }] })), 24);
  });
});
