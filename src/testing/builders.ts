import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostedCluster, HostedControlPlane, NodePool } from '../api/index.ts';
import { renderHostedControlPlane } from '../render/hostedcluster/hostedcontrolplane.ts';
import { parseYaml } from '../lib/yaml-read.ts';
import type { VirtualMachine } from '../platform/kubevirt/virtual-machine-types.ts';

/** A realistic, valid KubeVirt HostedCluster (as `hcp create cluster kubevirt` would produce it). */
export function aHostedCluster(name = 'example', namespace = 'clusters'): HostedCluster {
  return {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'HostedCluster',
    metadata: { name, namespace },
    spec: {
      release: { image: 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi' },
      infraID: `${name}-sffhb`,
      dns: { baseDomain: '' },
      pullSecret: { name: `${name}-pull-secret` },
      sshKey: { name: `${name}-ssh-key` },
      networking: {
        networkType: 'OVNKubernetes',
        clusterNetwork: [{ cidr: '10.132.0.0/14' }],
        serviceNetwork: [{ cidr: '172.31.0.0/16' }],
      },
      etcd: { managementType: 'Managed', managed: { storage: { type: 'PersistentVolume', persistentVolume: { size: '8Gi' } } } },
      platform: { type: 'KubeVirt', kubevirt: { baseDomainPassthrough: true } },
      secretEncryption: { type: 'aescbc', aescbc: { activeKey: { name: `${name}-etcd-encryption-key` } } },
      services: [
        { service: 'APIServer', servicePublishingStrategy: { type: 'LoadBalancer' } },
        { service: 'Ignition', servicePublishingStrategy: { type: 'Route' } },
        { service: 'Konnectivity', servicePublishingStrategy: { type: 'Route' } },
        { service: 'OAuthServer', servicePublishingStrategy: { type: 'Route' } },
      ],
    },
  };
}

/** The HostedControlPlane the operator makes of a HostedCluster (tests of the layers below render use it as input). */
export function aHostedControlPlane(hc: HostedCluster, infraID = 'example-sffhb'): HostedControlPlane {
  return renderHostedControlPlane({ hc, infraID }) as unknown as HostedControlPlane;
}

/** A realistic, valid KubeVirt NodePool of `clusterName`. */
export function aNodePool(name = 'example', clusterName = name, namespace = 'clusters'): NodePool {
  return {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'NodePool',
    metadata: { name, namespace },
    spec: {
      clusterName,
      replicas: 2,
      release: { image: 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi' },
      management: { upgradeType: 'Replace', autoRepair: false },
      platform: {
        type: 'KubeVirt',
        kubevirt: {
          compute: { cores: 2, memory: '4Gi' },
          rootVolume: { type: 'Persistent', persistent: { size: '32Gi' } },
        },
      },
    },
  };
}

/** Wraps a bare `spec.platform.kubevirt` (as in the nodepool conformance fixtures) into a NodePool. */
export function nodePoolWithKubevirt(kubevirt: Record<string, unknown>): NodePool {
  const np = aNodePool('test-nodepool', 'test-cluster');
  np.spec.replicas = 3;
  np.spec.arch = 'amd64';
  np.spec.platform = { type: 'KubeVirt', kubevirt: kubevirt as unknown as NonNullable<NodePool['spec']['platform']['kubevirt']> };
  return np;
}

/**
 * A VirtualMachine as the operator renders it (the platform's golden file `vm-defaults.yaml`), in `namespace`,
 * booting `image` and reading its user data from Secret `userDataSecret`.
 */
export function aRenderedVM(image: string, namespace = 'clusters-example', userDataSecret = 'user-data-example-6b1b2c3d-userdata'): VirtualMachine {
  const text = readFileSync(join(import.meta.dirname, '..', 'platform', 'kubevirt', 'testdata', 'vm-defaults.yaml'), 'utf8');
  const vm = parseYaml(text.split(/^---$/m)[0] ?? '') as VirtualMachine;
  vm.metadata.namespace = namespace;
  const source = vm.spec.dataVolumeTemplates[0]?.spec.source;
  if (source?.registry !== undefined) source.registry.url = `docker://${image}`;
  const drive = vm.spec.template.spec.volumes.find((v) => v.cloudInitConfigDrive !== undefined)?.cloudInitConfigDrive;
  if (drive !== undefined) drive.secretRef.name = userDataSecret;
  return vm;
}
