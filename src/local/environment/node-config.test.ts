import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { environmentLayout } from './layout.ts';
import { cniConfList, containerdConfig, kubeletConfig, kubeProxyConfig, registryHostsToml } from './node-config.ts';

const layout = environmentLayout('/state');

describe('node configuration', () => {
  it('When containerd is configured, it should keep every socket and folder in the state folder and restrict OOM score changes', () => {
    const toml = containerdConfig(layout, '/usr/sbin/runc', '/usr/lib/cni');
    assert.match(toml, /^root = "\/state\/node\/containerd\/root"$/m);
    assert.match(toml, /^ {2}address = "\/state\/node\/containerd\/containerd.sock"$/m);
    assert.match(toml, /restrict_oom_score_adj = true/);
    assert.match(toml, /SystemdCgroup = false/);
    assert.match(toml, /sandbox = "registry.k8s.io\/pause:3.10.2"/);
    assert.match(toml, /netns_mounts_under_state_dir = true/);
    assert.doesNotMatch(toml, /"\/(run|var)\//);
  });

  it('When a registry is mirrored, it should send pulls of its names to the environment registry under the same path', () => {
    const toml = registryHostsToml(layout, 'registry.k8s.io');
    assert.match(toml, /^server = "https:\/\/registry.k8s.io"$/m);
    assert.match(toml, /^\[host."http:\/\/10.250.0.1:5000\/v2\/registry.k8s.io"\]$/m);
    assert.match(toml, /override_path = true/);
  });

  it('When the kubelet is configured, it should accept cgroup v1, use cgroupfs below the environment cgroup and the node address', () => {
    const config = parse(kubeletConfig(layout, '/state/pki/client-ca.crt')) as Record<string, unknown>;
    assert.equal(config['failCgroupV1'], false);
    assert.equal(config['cgroupDriver'], 'cgroupfs');
    assert.equal(config['cgroupRoot'], '/hcp-local/node');
    assert.equal(config['address'], '10.250.0.2');
    assert.deepEqual(config['clusterDNS'], ['10.96.0.10']);
    assert.equal(config['containerRuntimeEndpoint'], 'unix:///state/node/containerd/containerd.sock');
  });

  it('When kube-proxy is configured, it should leave the host-wide conntrack settings alone', () => {
    const config = parse(kubeProxyConfig(layout, '/k')) as { conntrack: Record<string, unknown>; mode: string };
    assert.equal(config.mode, 'iptables');
    assert.equal(config.conntrack['maxPerCore'], 0);
    assert.equal(config.conntrack['tcpEstablishedTimeout'], '0s');
  });

  it('When the pod network is configured, it should hand out the node pod range from a bridge in the node namespace', () => {
    const conf = JSON.parse(cniConfList(layout)) as { plugins: Array<{ type: string; ipam?: { ranges: unknown; dataDir: string } }> };
    assert.equal(conf.plugins[0]?.type, 'bridge');
    assert.deepEqual(conf.plugins[0]?.ipam?.ranges, [[{ subnet: '10.244.0.0/24' }]]);
    assert.equal(conf.plugins[0]?.ipam?.dataDir, '/state/node/cni/ipam');
  });
});
