import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { environmentLayout } from './layout.ts';
import { cniConfList, containerdConfig, kubeletConfig, kubeProxyConfig, MACHINE_CNI, registryHostsToml } from './node-config.ts';

const layout = environmentLayout('/state', 2);
const [node, second] = layout.nodes;
if (node === undefined || second === undefined) throw new Error('two nodes expected');

describe('node configuration', () => {
  it('When containerd is configured, it should keep every socket and folder in the state folder and restrict OOM score changes', () => {
    const toml = containerdConfig(node, '/usr/sbin/runc', { binDir: '/usr/lib/cni', confDir: '/state/node-1/cni/net.d' });
    assert.match(toml, /^root = "\/state\/node-1\/containerd\/root"$/m);
    assert.match(toml, /^ {2}address = "\/state\/node-1\/containerd\/containerd.sock"$/m);
    assert.match(toml, /restrict_oom_score_adj = true/);
    assert.match(toml, /SystemdCgroup = false/);
    assert.match(toml, /sandbox = "registry.k8s.io\/pause:3.10.2"/);
    assert.match(toml, /netns_mounts_under_state_dir = true/);
    assert.doesNotMatch(toml, /"\/(run|var)\//);
  });

  it('When a joining machine\'s containerd is configured, it should look for CNI plugins and configuration where a node image keeps them, which its network plugin fills', () => {
    const toml = containerdConfig(node, '/usr/sbin/runc', MACHINE_CNI);
    assert.match(toml, /^ {2}bin_dirs = \["\/opt\/cni\/bin"\]$/m);
    assert.match(toml, /^ {2}conf_dir = "\/etc\/cni\/net.d"$/m);
  });

  it('When a registry is mirrored, it should send pulls of its names to the environment registry under the same path', () => {
    const toml = registryHostsToml(layout, 'registry.k8s.io');
    assert.match(toml, /^server = "https:\/\/registry.k8s.io"$/m);
    assert.match(toml, /^\[host."http:\/\/10.250.0.1:5000\/v2\/registry.k8s.io"\]$/m);
    assert.match(toml, /override_path = true/);
  });

  it('When a second node kubelet is configured, it should accept cgroup v1 and keep its own cgroup root, address, runtime and pod logs', () => {
    const config = parse(kubeletConfig(layout, second)) as Record<string, unknown>;
    assert.equal(config['failCgroupV1'], false);
    assert.equal(config['cgroupDriver'], 'cgroupfs');
    assert.equal(config['cgroupRoot'], '/hcp-local/node-2');
    assert.equal(config['address'], '10.250.0.3');
    assert.deepEqual(config['clusterDNS'], ['10.96.0.10']);
    assert.equal(config['containerRuntimeEndpoint'], 'unix:///state/node-2/containerd/containerd.sock');
    assert.equal(config['podLogsDir'], '/state/node-2/pod-logs');
  });

  it('When kube-proxy is configured, it should leave the host-wide conntrack settings alone', () => {
    const config = parse(kubeProxyConfig(layout, node, '/k')) as { conntrack: Record<string, unknown>; mode: string };
    assert.equal(config.mode, 'iptables');
    assert.equal(config.conntrack['maxPerCore'], 0);
    assert.equal(config.conntrack['tcpEstablishedTimeout'], '0s');
  });

  it('When a second node pod network is configured, it should hand out that node pod range from a bridge in the node namespace', () => {
    const conf = JSON.parse(cniConfList(second)) as { plugins: Array<{ type: string; ipam?: { ranges: unknown; dataDir: string } }> };
    assert.equal(conf.plugins[0]?.type, 'bridge');
    assert.deepEqual(conf.plugins[0]?.ipam?.ranges, [[{ subnet: '10.244.1.0/24' }]]);
    assert.equal(conf.plugins[0]?.ipam?.dataDir, '/state/node-2/cni/ipam');
  });
});
