import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { HostedCluster, HostedControlPlane } from '../../api/index.ts';
import { parseYaml } from '../../lib/yaml-read.ts';
import { toYamlDocuments } from '../../lib/yaml.ts';
import { catalogReleaseProvider, kubernetesReleaseImage } from '../../release/catalog.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { aHostedCluster } from '../../testing/builders.ts';
import { assertGolden } from '../../testing/golden.ts';
import { renderHostedControlPlane } from '../hostedcluster/hostedcontrolplane.ts';
import { guestSnapshotClasses } from './csi.ts';
import { renderGuestComponents } from './render.ts';

const release = catalogReleaseProvider.lookup('quay.io/openshift-release-dev/ocp-release:4.17.0-multi') as ReleaseInfo;
const API = { host: '192.0.2.10', port: 31234 };
const pem = (label: string): string => Buffer.from(`-----BEGIN ${label}-----\nnot a real ${label.toLowerCase()}\n-----END ${label}-----\n`).toString('base64');
/** The konnectivity server published beside the API server, with stand-in PEM blocks for the agent's credentials. */
const KONNECTIVITY = { server: { host: '192.0.2.10', port: 31235 }, credentials: { 'tls.crt': pem('CERTIFICATE'), 'tls.key': pem('PRIVATE KEY'), 'ca.crt': pem('CERTIFICATE') } };

function controlPlane(change: (hc: HostedCluster) => void = () => undefined): HostedControlPlane {
  const hc = aHostedCluster('example', 'clusters');
  change(hc);
  return renderHostedControlPlane({ hc, infraID: 'example-sffhb' }) as unknown as HostedControlPlane;
}

type Named = { kind: string; metadata: { name: string; annotations?: Record<string, string> }; parameters?: Record<string, string>; spec?: { clusterIP?: string; replicas?: number }; data?: Record<string, string> };
const find = (objects: readonly Record<string, unknown>[], kind: string, name: string): Named | undefined => (objects as unknown as Named[]).find((o) => o.kind === kind && o.metadata.name === name);

describe('renderGuestComponents', () => {
  it('When the storage driver is Default, it should match the golden file', () => {
    assertGolden(join(import.meta.dirname, 'testdata', 'guest-default.yaml'), toYamlDocuments(renderGuestComponents({ hcp: controlPlane(), release, apiServer: API, konnectivity: KONNECTIVITY })));
  });

  it('When the konnectivity server is published, its agents should dial it with their certificate and name their node; until then there should be none', () => {
    const objects = renderGuestComponents({ hcp: controlPlane(), release, apiServer: API, konnectivity: KONNECTIVITY });
    const agent = find(objects, 'DaemonSet', 'konnectivity-agent') as unknown as { spec: { template: { spec: { hostNetwork: boolean; containers: Array<{ args: string[] }> } } } };
    const args = agent.spec.template.spec.containers[0]?.args ?? [];
    assert.ok(args.includes('--proxy-server-host=192.0.2.10') && args.includes('--proxy-server-port=31235'));
    assert.ok(args.includes('--agent-identifiers=ipv4=$(HOST_IP)&default-route=true'));
    assert.equal(agent.spec.template.spec.hostNetwork, true);
    assert.deepEqual(Object.keys(find(objects, 'Secret', 'konnectivity-agent')?.data ?? {}), ['tls.crt', 'tls.key']);
    assert.match(find(objects, 'ConfigMap', 'konnectivity-ca-bundle')?.data?.['ca.crt'] ?? '', /^-----BEGIN CERTIFICATE-----/);
    const unpublished = renderGuestComponents({ hcp: controlPlane(), release, apiServer: API });
    assert.equal(unpublished.filter((o) => (o['metadata'] as { name: string }).name.startsWith('konnectivity')).length, 0);
  });

  it('When it renders DNS, the kube-dns Service should sit at the address the kubelets hand out (10th of the service network)', () => {
    const objects = renderGuestComponents({ hcp: controlPlane(), release, apiServer: API });
    assert.equal(find(objects, 'Service', 'kube-dns')?.spec?.clusterIP, '172.31.0.10');
    assert.equal(find(objects, 'Deployment', 'coredns')?.spec?.replicas, 1);
    const ha = renderGuestComponents({ hcp: controlPlane((hc) => (hc.spec.infrastructureAvailabilityPolicy = 'HighlyAvailable')), release, apiServer: API });
    assert.equal(find(ha, 'Deployment', 'coredns')?.spec?.replicas, 2);
  });

  it('When the release carries the network plugin and the network type is the default, it should deploy flannel as the golden file shows', () => {
    const kubeRelease = catalogReleaseProvider.lookup(kubernetesReleaseImage('1.36.3')) as ReleaseInfo;
    const objects = renderGuestComponents({ hcp: controlPlane(), release: kubeRelease, apiServer: API });
    const flannel = objects.filter((o) => JSON.stringify(o).includes('flannel'));
    assertGolden(join(import.meta.dirname, 'testdata', 'guest-flannel.yaml'), toYamlDocuments(flannel));
    const net = JSON.parse(find(objects, 'ConfigMap', 'kube-flannel-cfg')?.data?.['net-conf.json'] ?? '{}') as { Network: string; Backend: { Type: string; Port: number; MTU?: number } };
    assert.deepEqual(net, { Network: '10.132.0.0/14', Backend: { Type: 'vxlan', Port: 9879 } }, 'VXLAN off the kernel and IANA ports, MTU left to each node');
  });

  it('When the cluster declares an overlay MTU, flannel should be given the underlay MTU it implies (VXLAN takes 50 bytes)', () => {
    const kubeRelease = catalogReleaseProvider.lookup(kubernetesReleaseImage('1.36.3')) as ReleaseInfo;
    const hcp = controlPlane((hc) => (hc.spec.operatorConfiguration = { clusterNetworkOperator: { ovnKubernetesConfig: { mtu: 1400 } } }));
    const net = JSON.parse(find(renderGuestComponents({ hcp, release: kubeRelease, apiServer: API }), 'ConfigMap', 'kube-flannel-cfg')?.data?.['net-conf.json'] ?? '{}') as { Backend: { MTU?: number } };
    assert.equal(net.Backend.MTU, 1450);
  });

  it('When the network type is Other, or the release carries no plugin, it should deploy none', () => {
    const kubeRelease = catalogReleaseProvider.lookup(kubernetesReleaseImage('1.36.3')) as ReleaseInfo;
    const other = controlPlane((hc) => (hc.spec.networking = { ...hc.spec.networking, networkType: 'Other' }));
    for (const [hcp, r] of [[other, kubeRelease], [controlPlane(), release]] as const) {
      assert.equal(renderGuestComponents({ hcp, release: r, apiServer: API }).filter((o) => JSON.stringify(o).includes('flannel')).length, 0);
    }
  });

  it('When it renders kube-proxy, it should reach the API server at its published address over the pod network of the cluster', () => {
    const config = find(renderGuestComponents({ hcp: controlPlane(), release, apiServer: API }), 'ConfigMap', 'kube-proxy')?.data ?? {};
    assert.deepEqual((parseYaml(config['config.conf'] ?? '') as { clusterCIDR: string }).clusterCIDR, '10.132.0.0/14');
    assert.equal((parseYaml(config['kubeconfig.conf'] ?? '') as { clusters: Array<{ cluster: { server: string } }> }).clusters[0]?.cluster.server, 'https://192.0.2.10:31234');
  });

  it('When the API server is published at an address, the kubernetes Service should point there; at a host name, nothing is rendered for it', () => {
    const endpoints = find(renderGuestComponents({ hcp: controlPlane(), release, apiServer: API }), 'Endpoints', 'kubernetes') as unknown as { subsets: unknown[] } | undefined;
    assert.deepEqual(endpoints?.subsets, [{ addresses: [{ ip: '192.0.2.10' }], ports: [{ name: 'https', port: 31234, protocol: 'TCP' }] }]);
    assert.equal(find(renderGuestComponents({ hcp: controlPlane(), release, apiServer: { host: 'api.example.com', port: 443 } }), 'Endpoints', 'kubernetes'), undefined);
  });

  it('When the storage is mapped by hand, it should create one guest class per mapping passing the infrastructure class, none marked default', () => {
    const hcp = controlPlane((hc) => {
      hc.spec.platform.kubevirt = {
        ...hc.spec.platform.kubevirt,
        storageDriver: {
          type: 'Manual',
          manual: {
            storageClassMapping: [{ group: 'fast', infraStorageClassName: 'nvme', guestStorageClassName: 'fast' }],
            volumeSnapshotClassMapping: [{ group: 'fast', infraVolumeSnapshotClassName: 'nvme-snap', guestVolumeSnapshotClassName: 'fast-snap' }],
          },
        },
      };
    });
    const objects = renderGuestComponents({ hcp, release, apiServer: API });
    assertGolden(join(import.meta.dirname, 'testdata', 'guest-manual-storage.yaml'), toYamlDocuments([...objects.filter((o) => o['kind'] === 'StorageClass'), ...guestSnapshotClasses(hcp)]));
    const fast = find(objects, 'StorageClass', 'fast');
    assert.deepEqual(fast?.parameters, { bus: 'scsi', infraStorageClassName: 'nvme' });
    assert.equal(fast?.metadata.annotations, undefined);
    assert.equal(find(objects, 'StorageClass', 'kubevirt-csi-infra-default'), undefined);
  });

  it('When the storage driver is None or the release has no CSI driver, it should put nothing of the driver in the cluster', () => {
    const none = controlPlane((hc) => (hc.spec.platform.kubevirt = { ...hc.spec.platform.kubevirt, storageDriver: { type: 'None' } }));
    const kube = catalogReleaseProvider.lookup(kubernetesReleaseImage('1.36.3')) as ReleaseInfo;
    for (const objects of [renderGuestComponents({ hcp: none, release, apiServer: API }), renderGuestComponents({ hcp: controlPlane(), release: kube, apiServer: API })]) {
      assert.equal(objects.some((o) => JSON.stringify(o).includes('csi')), false);
    }
  });
});
