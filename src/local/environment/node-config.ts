/**
 * The configuration files of the local environment's node: containerd, the CNI network, kubelet and kube-proxy.
 * Pure functions of the layout, so the settings each host reality forces are reviewable in one place and tested
 * without starting anything.
 */
import { join } from 'node:path/posix';
import { toYaml } from '../../lib/yaml.ts';
import { registryApiHost } from '../../release/image-reference.ts';
import { statePaths, type EnvironmentLayout, type NodeLayout } from './layout.ts';

/** The registries whose images the environment serves from its own registry (their names stay the real ones). */
export const MIRRORED_REGISTRIES = ['registry.k8s.io', 'quay.io', 'docker.io'] as const;

/** The pause image every pod sandbox starts from (Kubernetes' own name and the version kubeadm pairs with v1.36). */
export const PAUSE_IMAGE = 'registry.k8s.io/pause:3.10.2';

/** Folders and sockets of a node. */
export function nodePaths(node: NodeLayout): {
  readonly containerdConfig: string;
  readonly containerdRoot: string;
  readonly containerdState: string;
  readonly containerdSocket: string;
  readonly containerdOpt: string;
  readonly registryHosts: string;
  readonly runcRoot: string;
  readonly cniConfDir: string;
  readonly cniIpam: string;
  readonly kubeletRoot: string;
  readonly kubeletConfig: string;
  readonly kubeletCerts: string;
  readonly kubeletKubeconfig: string;
  readonly podLogs: string;
  readonly resolvConf: string;
  readonly kubeProxyConfig: string;
} {
  const dir = node.dir;
  return {
    containerdConfig: join(dir, 'containerd.toml'),
    containerdRoot: join(dir, 'containerd', 'root'),
    containerdState: join(dir, 'containerd', 'state'),
    containerdSocket: join(dir, 'containerd', 'containerd.sock'),
    containerdOpt: join(dir, 'containerd', 'opt'),
    registryHosts: join(dir, 'containerd', 'certs.d'),
    runcRoot: join(dir, 'runc'),
    cniConfDir: join(dir, 'cni', 'net.d'),
    cniIpam: join(dir, 'cni', 'ipam'),
    kubeletRoot: join(dir, 'kubelet'),
    kubeletConfig: join(dir, 'kubelet.yaml'),
    kubeletCerts: join(dir, 'kubelet-pki'),
    kubeletKubeconfig: join(dir, 'kubelet.kubeconfig'),
    podLogs: join(dir, 'pod-logs'),
    resolvConf: join(dir, 'resolv.conf'),
    kubeProxyConfig: join(dir, 'kube-proxy.yaml'),
  };
}

/** Where a node's runtime finds its CNI plugins and network configuration. */
export interface CNIFolders {
  readonly binDir: string;
  readonly confDir: string;
}

/**
 * A joining machine's CNI folders: the standard ones, as on any node — in the machine's mount namespace they are its
 * own folders (`node-mounts.ts`), where the hosted cluster's network plugin installs its plugins and configuration.
 */
export const MACHINE_CNI: CNIFolders = { binDir: '/opt/cni/bin', confDir: '/etc/cni/net.d' };

const toml = (value: string | boolean | number | readonly string[]): string =>
  Array.isArray(value) ? `[${value.map((v) => JSON.stringify(v)).join(', ')}]` : JSON.stringify(value);

/**
 * containerd 2.x (configuration version 3), private to this node: its own root, state, sockets and runc root, so it
 * never meets another containerd on the host. `restrict_oom_score_adj`: the host denies CAP_SYS_RESOURCE, so a
 * container may not lower its OOM score and every sandbox would fail without it. cgroupfs, because PID 1 is not
 * systemd. NRI is off (its socket would be shared host-wide).
 */
export function containerdConfig(node: NodeLayout, runc: string, cni: CNIFolders): string {
  const p = nodePaths(node);
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
    `  path = ${toml(p.containerdOpt)}`,
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
    `  bin_dirs = ${toml([cni.binDir])}`,
    `  conf_dir = ${toml(cni.confDir)}`,
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
  const upstream = `https://${registryApiHost(registry)}`;
  return [`server = ${toml(upstream)}`, '', `[host.${toml(local)}]`, `  capabilities = ${toml(['pull', 'resolve'])}`, '  override_path = true', ''].join('\n');
}

/**
 * The management and infrastructure clusters' pod network (the environment's own, not a hosted cluster's): a bridge
 * in the node's namespace with host-local addresses from the node's pod range, which every other node routes.
 */
export function cniConfList(node: NodeLayout): string {
  const conf = {
    cniVersion: '1.0.0',
    name: 'hcp-local',
    plugins: [
      {
        type: 'bridge',
        bridge: 'cni0',
        isGateway: true,
        // The environment's nodes route each other's pod ranges.
        ipMasq: false,
        // A pod reaching itself through a Service it backs goes out and back through the bridge port.
        hairpinMode: true,
        ipam: { type: 'host-local', dataDir: nodePaths(node).cniIpam, ranges: [[{ subnet: node.podCidr }]], routes: [{ dst: '0.0.0.0/0' }] },
      },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  };
  return `${JSON.stringify(conf, null, 2)}\n`;
}

/**
 * What this host forces on any kubelet of the environment, whoever wrote the rest of its configuration (the
 * environment's own nodes, or a joining machine's served config): `failCgroupV1: false`, the host having cgroup v1 only,
 * which kubelet 1.35+ refuses otherwise; cgroupfs, PID 1 not being systemd; `cgroupRoot` under the environment's cgroup,
 * so `down` finds every pod; the node's private runtime socket and folders; no image garbage collection (images come
 * from the environment's registry and are few); no writes to host-wide /proc/sys values.
 */
export function hostKubeletSettings(layout: EnvironmentLayout, node: NodeLayout): Record<string, unknown> {
  const p = nodePaths(node);
  return {
    address: node.address,
    healthzBindAddress: node.address,
    cgroupDriver: 'cgroupfs',
    cgroupRoot: `/${layout.cgroup}/${node.cgroup}`,
    failCgroupV1: false,
    failSwapOn: false,
    containerRuntimeEndpoint: `unix://${p.containerdSocket}`,
    podLogsDir: p.podLogs,
    resolvConf: p.resolvConf,
    evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '2%', 'imagefs.available': '2%', 'nodefs.inodesFree': '2%' },
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    serializeImagePulls: false,
    readOnlyPort: 0,
    protectKernelDefaults: false,
  };
}

/** The kubelet of an environment node: the host's settings, the management cluster's CA, DNS and serving certificate. */
export function kubeletConfig(layout: EnvironmentLayout, node: NodeLayout): string {
  const p = nodePaths(node);
  return toYaml({
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    ...hostKubeletSettings(layout, node),
    authentication: { anonymous: { enabled: false }, webhook: { enabled: true }, x509: { clientCAFile: join(statePaths(layout).pki, 'client-ca.crt') } },
    authorization: { mode: 'Webhook' },
    clusterDNS: [layout.dnsServiceAddress],
    clusterDomain: 'cluster.local',
    tlsCertFile: join(p.kubeletCerts, 'kubelet.crt'),
    tlsPrivateKeyFile: join(p.kubeletCerts, 'kubelet.key'),
    maxPods: 250,
  });
}

/** kube-proxy in iptables mode inside the node's namespace; it leaves the host-wide conntrack settings alone. */
export function kubeProxyConfig(layout: EnvironmentLayout, node: NodeLayout, kubeconfig: string): string {
  return toYaml({
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig },
    mode: 'iptables',
    clusterCIDR: layout.podCidr,
    hostnameOverride: node.name,
    bindAddress: node.address,
    healthzBindAddress: `${node.address}:10256`,
    metricsBindAddress: `${node.address}:10249`,
    nodePortAddresses: [`${node.address}/32`],
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
  });
}
