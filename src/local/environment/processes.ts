/**
 * The command lines of the environment's daemons. Pure: functions of the layout and binary paths, so every flag the
 * host forces is reviewable and tested without starting anything.
 */
import { join } from 'node:path/posix';
import { CONTROLLERS, etcdArgs } from '../cluster/components.ts';
import { statePaths, type EnvironmentLayout, type NodeLayout } from './layout.ts';
import { nodePaths } from './node-config.ts';
import { componentKubeconfig } from './pki.ts';
import type { DaemonSpec } from './daemons.ts';

/** The binaries the daemons run, by name. */
export type DaemonBinaries = Readonly<
  Record<'etcd' | 'kube-apiserver' | 'kube-controller-manager' | 'kube-scheduler' | 'kubelet' | 'kube-proxy' | 'containerd' | 'crane' | 'distribution' | 'versitygw', string>
>;

const pki = (layout: EnvironmentLayout, file: string): string => join(statePaths(layout).pki, file);

/** etcd on loopback (the local clusters' flags), its data in the state folder; disposable, so without fsync. */
export function etcdDaemon(layout: EnvironmentLayout, bin: DaemonBinaries): DaemonSpec {
  return { name: 'etcd', command: [bin.etcd, ...etcdArgs({ dir: layout.stateDir, etcdClientPort: layout.ports.etcdClient, etcdPeerPort: layout.ports.etcdPeer })] };
}

/** The image registry the node pulls every image from (go-containerregistry's registry, blobs on disk). */
export function registryDaemon(layout: EnvironmentLayout, bin: DaemonBinaries): DaemonSpec {
  return {
    name: 'registry',
    command: [bin.crane, 'registry', 'serve', `--address=${layout.hostAddress}:${String(layout.ports.registry)}`, `--disk=${statePaths(layout).registryData}`],
    // It reads whole blobs into memory while images are pushed and pulled, then idles holding ~190 MiB; a soft limit
    // makes the Go runtime hand that back (measured by bench/local-up).
    env: { GOMEMLIMIT: '48MiB' },
  };
}

/**
 * kube-apiserver on the host's bridge address, which is also the `kubernetes` Service's endpoint (pods reach it
 * through kube-proxy). Node authorization and NodeRestriction as in a real cluster; a client certificate towards
 * kubelets so `kubectl logs/exec` work.
 */
export function apiServerDaemon(layout: EnvironmentLayout, bin: DaemonBinaries): DaemonSpec {
  return {
    name: 'kube-apiserver',
    command: [
      bin['kube-apiserver'],
      `--etcd-servers=http://127.0.0.1:${String(layout.ports.etcdClient)}`,
      `--secure-port=${String(layout.ports.apiServer)}`,
      `--bind-address=${layout.hostAddress}`,
      `--advertise-address=${layout.hostAddress}`,
      `--tls-cert-file=${pki(layout, 'apiserver.crt')}`,
      `--tls-private-key-file=${pki(layout, 'apiserver.key')}`,
      `--client-ca-file=${pki(layout, 'client-ca.crt')}`,
      `--kubelet-client-certificate=${pki(layout, 'kubelet-client.crt')}`,
      `--kubelet-client-key=${pki(layout, 'kubelet-client.key')}`,
      // Node host names resolve nowhere on this host.
      '--kubelet-preferred-address-types=InternalIP,Hostname',
      '--service-account-issuer=https://kubernetes.default.svc',
      `--service-account-key-file=${pki(layout, 'sa.pub')}`,
      `--service-account-signing-key-file=${pki(layout, 'sa.key')}`,
      `--service-cluster-ip-range=${layout.serviceCidr}`,
      '--authorization-mode=Node,RBAC',
      '--enable-admission-plugins=NodeRestriction',
      '--allow-privileged=true',
      '--profiling=false',
      `--cert-dir=${pki(layout, 'generated')}`,
    ],
  };
}

/** kube-controller-manager with the default controllers (Services need the endpoint controllers, nodes the lifecycle one). */
export function controllerManagerDaemon(layout: EnvironmentLayout, bin: DaemonBinaries): DaemonSpec {
  const kubeconfig = componentKubeconfig(layout, 'kube-controller-manager');
  return {
    name: 'kube-controller-manager',
    command: [
      bin['kube-controller-manager'],
      `--kubeconfig=${kubeconfig}`,
      `--authentication-kubeconfig=${kubeconfig}`,
      `--authorization-kubeconfig=${kubeconfig}`,
      `--bind-address=${layout.hostAddress}`,
      `--secure-port=${String(layout.ports.controllerManager)}`,
      `--cert-dir=${pki(layout, 'controller-manager')}`,
      '--leader-elect=false',
      `--controllers=*,${CONTROLLERS.filter((c) => c.startsWith('certificatesigningrequest')).join(',')}`,
      '--use-service-account-credentials=true',
      `--service-account-private-key-file=${pki(layout, 'sa.key')}`,
      `--root-ca-file=${pki(layout, 'server-ca.crt')}`,
      `--cluster-signing-cert-file=${pki(layout, 'client-ca.crt')}`,
      `--cluster-signing-key-file=${pki(layout, 'client-ca.key')}`,
      `--cluster-name=${layout.clusterName}`,
      `--service-cluster-ip-range=${layout.serviceCidr}`,
      `--cluster-cidr=${layout.podCidr}`,
    ],
  };
}

/** kube-scheduler: control-plane pods are placed by it like any other. */
export function schedulerDaemon(layout: EnvironmentLayout, bin: DaemonBinaries): DaemonSpec {
  const kubeconfig = componentKubeconfig(layout, 'kube-scheduler');
  return {
    name: 'kube-scheduler',
    command: [
      bin['kube-scheduler'],
      `--kubeconfig=${kubeconfig}`,
      `--authentication-kubeconfig=${kubeconfig}`,
      `--authorization-kubeconfig=${kubeconfig}`,
      `--bind-address=${layout.hostAddress}`,
      `--secure-port=${String(layout.ports.scheduler)}`,
      `--cert-dir=${pki(layout, 'scheduler')}`,
      '--leader-elect=false',
    ],
  };
}

/** The names of a node's daemons (`containerd-1`, `kubelet-1`, `kube-proxy-1`). */
export const nodeDaemonNames = (node: NodeLayout): readonly string[] => ['containerd', 'kubelet', 'kube-proxy'].map((d) => `${d}-${String(node.index)}`);

/**
 * containerd in the node's network namespace (so the pods' networks hang off the node's, not the host's) and mount
 * namespace (which the kubelet's volumes are mounted in): `mountNamespace` is the file entering it.
 */
export function containerdDaemon(node: NodeLayout, bin: Pick<DaemonBinaries, 'containerd'>, mountNamespace: string): DaemonSpec {
  const shimDir = join(bin.containerd, '..');
  return {
    name: `containerd-${String(node.index)}`,
    command: [bin.containerd, `--config=${nodePaths(node).containerdConfig}`],
    netns: node.netns,
    mountNamespace,
    cgroup: 'runtime',
    // containerd finds its shim on PATH.
    env: { PATH: `${shimDir}:${process.env['PATH'] ?? '/usr/sbin:/usr/bin:/sbin:/bin'}` },
  };
}

/** The kubelet, registering the node with its bridge address, in the node's namespaces. */
export function kubeletDaemon(node: NodeLayout, bin: DaemonBinaries, mountNamespace: string): DaemonSpec {
  const p = nodePaths(node);
  return {
    name: `kubelet-${String(node.index)}`,
    command: [
      bin.kubelet,
      `--config=${p.kubeletConfig}`,
      `--kubeconfig=${p.kubeletKubeconfig}`,
      `--root-dir=${p.kubeletRoot}`,
      `--cert-dir=${p.kubeletCerts}`,
      `--node-ip=${node.address}`,
      `--hostname-override=${node.name}`,
    ],
    netns: node.netns,
    mountNamespace,
    cgroup: 'runtime',
  };
}

/** kube-proxy in the node's network namespace: its rules live and die with that namespace. */
export function kubeProxyDaemon(node: NodeLayout, bin: DaemonBinaries, mountNamespace: string): DaemonSpec {
  return { name: `kube-proxy-${String(node.index)}`, command: [bin['kube-proxy'], `--config=${nodePaths(node).kubeProxyConfig}`], netns: node.netns, mountNamespace, cgroup: 'runtime' };
}
