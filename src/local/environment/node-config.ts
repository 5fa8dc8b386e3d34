/**
 * The configuration files of the local environment's node: containerd, the CNI network, kubelet and kube-proxy.
 * Pure functions of the layout, so the settings each host reality forces are reviewable in one place and tested
 * without starting anything.
 */
import { join } from 'node:path/posix';
import { toYaml } from '../../lib/yaml.ts';
import { statePaths, type EnvironmentLayout } from './layout.ts';

/** The registries whose images the environment serves from its own registry (their names stay the real ones). */
export const MIRRORED_REGISTRIES = ['registry.k8s.io', 'quay.io', 'docker.io'] as const;

/** The pause image every pod sandbox starts from (Kubernetes' own name and the version kubeadm pairs with v1.36). */
export const PAUSE_IMAGE = 'registry.k8s.io/pause:3.10.2';

/** Folders and sockets of the node. */
export function nodePaths(layout: EnvironmentLayout): {
  readonly containerdConfig: string;
  readonly containerdRoot: string;
  readonly containerdState: string;
  readonly containerdSocket: string;
  readonly registryHosts: string;
  readonly runcRoot: string;
  readonly cniConfDir: string;
  readonly cniIpam: string;
  readonly kubeletRoot: string;
  readonly kubeletConfig: string;
  readonly kubeletCerts: string;
  readonly podLogs: string;
  readonly resolvConf: string;
  readonly kubeProxyConfig: string;
} {
  const node = statePaths(layout).node;
  return {
    containerdConfig: join(node, 'containerd.toml'),
    containerdRoot: join(node, 'containerd', 'root'),
    containerdState: join(node, 'containerd', 'state'),
    containerdSocket: join(node, 'containerd', 'containerd.sock'),
    registryHosts: join(node, 'containerd', 'certs.d'),
    runcRoot: join(node, 'runc'),
    cniConfDir: join(node, 'cni', 'net.d'),
    cniIpam: join(node, 'cni', 'ipam'),
    kubeletRoot: join(node, 'kubelet'),
    kubeletConfig: join(node, 'kubelet.yaml'),
    kubeletCerts: join(node, 'kubelet-pki'),
    podLogs: join(node, 'pod-logs'),
    resolvConf: join(node, 'resolv.conf'),
    kubeProxyConfig: join(node, 'kube-proxy.yaml'),
  };
}

const toml = (value: string | boolean | number | readonly string[]): string =>
  Array.isArray(value) ? `[${value.map((v) => JSON.stringify(v)).join(', ')}]` : JSON.stringify(value);

/**
 * containerd 2.x (configuration version 3), private to this node: its own root, state, sockets and runc root, so it
 * never meets another containerd on the host. `restrict_oom_score_adj`: the host denies CAP_SYS_RESOURCE, so a
 * container may not lower its OOM score and every sandbox would fail without it. cgroupfs, because PID 1 is not
 * systemd. NRI is off (its socket would be shared host-wide).
 */
export function containerdConfig(layout: EnvironmentLayout, runc: string, cniBinDir: string): string {
  const p = nodePaths(layout);
  const lines = [
    'version = 3',
    `root = ${toml(p.containerdRoot)}`,
    `state = ${toml(p.containerdState)}`,
    '',
    '[grpc]',
    `  address = ${toml(p.containerdSocket)}`,
    '[ttrpc]',
    `  address = ${toml(`${p.containerdSocket}.ttrpc`)}`,
    '[debug]',
    `  address = ${toml(`${p.containerdSocket}.debug`)}`,
    '',
    "[plugins.'io.containerd.internal.v1.opt']",
    `  path = ${toml(join(statePaths(layout).node, 'containerd', 'opt'))}`,
    "[plugins.'io.containerd.nri.v1.nri']",
    '  disable = true',
    "[plugins.'io.containerd.cri.v1.images']",
    "  snapshotter = 'overlayfs'",
    "[plugins.'io.containerd.cri.v1.images'.pinned_images]",
    `  sandbox = ${toml(PAUSE_IMAGE)}`,
    "[plugins.'io.containerd.cri.v1.images'.registry]",
    `  config_path = ${toml(p.registryHosts)}`,
    "[plugins.'io.containerd.cri.v1.runtime']",
    '  restrict_oom_score_adj = true',
    '  enable_selinux = false',
    "[plugins.'io.containerd.cri.v1.runtime'.cni]",
    `  bin_dirs = ${toml([cniBinDir])}`,
    `  conf_dir = ${toml(p.cniConfDir)}`,
    "[plugins.'io.containerd.cri.v1.runtime'.containerd]",
    "  default_runtime_name = 'runc'",
    "[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]",
    "  runtime_type = 'io.containerd.runc.v2'",
    "[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]",
    `  BinaryName = ${toml(runc)}`,
    `  Root = ${toml(p.runcRoot)}`,
    '  SystemdCgroup = false',
    "[plugins.'io.containerd.grpc.v1.cri']",
    // Pod network namespaces are mounted under the state folder rather than the host-wide /var/run/netns.
    '  netns_mounts_under_state_dir = true',
    '',
  ];
  return lines.join('\n');
}

/** `hosts.toml` of one mirrored registry: images are pulled from the environment's registry under the same names. */
export function registryHostsToml(layout: EnvironmentLayout, registry: string): string {
  const local = `http://${layout.hostAddress}:${String(layout.ports.registry)}/v2/${registry}`;
  // Docker Hub's API lives on another host than its image names.
  const upstream = registry === 'docker.io' ? 'https://registry-1.docker.io' : `https://${registry}`;
  return [`server = ${toml(upstream)}`, '', `[host.${toml(local)}]`, `  capabilities = ${toml(['pull', 'resolve'])}`, '  override_path = true', ''].join('\n');
}

/** The pod network: a bridge in the node's namespace with host-local addresses from the node's pod range. */
export function cniConfList(layout: EnvironmentLayout): string {
  const conf = {
    cniVersion: '1.0.0',
    name: 'hcp-local',
    plugins: [
      {
        type: 'bridge',
        bridge: 'cni0',
        isGateway: true,
        ipMasq: false,
        // A pod reaching itself through a Service it backs goes out and back through the bridge port.
        hairpinMode: true,
        ipam: { type: 'host-local', dataDir: nodePaths(layout).cniIpam, ranges: [[{ subnet: layout.nodePodCidr }]], routes: [{ dst: '0.0.0.0/0' }] },
      },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  };
  return `${JSON.stringify(conf, null, 2)}\n`;
}

/**
 * The kubelet. `failCgroupV1: false`: the host has cgroup v1 only, which kubelet 1.35+ refuses otherwise.
 * `cgroupRoot`: every pod under the environment's cgroup, so `down` finds them. Image garbage collection is off:
 * images come from the environment's registry and are few.
 */
export function kubeletConfig(layout: EnvironmentLayout, clientCaFile: string): string {
  const p = nodePaths(layout);
  return toYaml({
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    address: layout.nodeAddress,
    authentication: { anonymous: { enabled: false }, webhook: { enabled: true }, x509: { clientCAFile: clientCaFile } },
    authorization: { mode: 'Webhook' },
    cgroupDriver: 'cgroupfs',
    cgroupRoot: `/${layout.cgroup}/node`,
    failCgroupV1: false,
    failSwapOn: false,
    clusterDNS: [layout.dnsServiceAddress],
    clusterDomain: 'cluster.local',
    containerRuntimeEndpoint: `unix://${p.containerdSocket}`,
    podLogsDir: p.podLogs,
    resolvConf: p.resolvConf,
    tlsCertFile: join(p.kubeletCerts, 'kubelet.crt'),
    tlsPrivateKeyFile: join(p.kubeletCerts, 'kubelet.key'),
    evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '2%', 'imagefs.available': '2%', 'nodefs.inodesFree': '2%' },
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    serializeImagePulls: false,
    maxPods: 250,
    healthzBindAddress: layout.nodeAddress,
    readOnlyPort: 0,
    // The kubelet would otherwise write /proc/sys values that belong to the whole host.
    protectKernelDefaults: false,
  });
}

/** kube-proxy in iptables mode inside the node's namespace; it leaves the host-wide conntrack settings alone. */
export function kubeProxyConfig(layout: EnvironmentLayout, kubeconfig: string): string {
  return toYaml({
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig },
    mode: 'iptables',
    clusterCIDR: layout.podCidr,
    hostnameOverride: layout.nodeName,
    bindAddress: layout.nodeAddress,
    healthzBindAddress: `${layout.nodeAddress}:10256`,
    metricsBindAddress: `${layout.nodeAddress}:10249`,
    nodePortAddresses: [`${layout.nodeAddress}/32`],
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
  });
}
