/**
 * Where the node image contract (docs/node-image.md) puts things; the served configuration writes these paths and the
 * node agent reads them. A module of its own because the configuration embeds the agent's script, which names them.
 */
export const NodePaths = {
  kubelet: '/usr/bin/kubelet',
  clusterCA: '/etc/kubernetes/ca.crt',
  bootstrapKubeconfig: '/etc/kubernetes/bootstrap-kubeconfig',
  kubeletConfig: '/etc/kubernetes/kubelet.yaml',
  /** Written by the kubelet once its client certificate is issued. */
  kubeconfig: '/var/lib/kubelet/kubeconfig',
  certDir: '/var/lib/kubelet/pki',
  /** The kubelet reads registry credentials from `config.json` in its root folder and hands them to the runtime. */
  pullSecret: '/var/lib/kubelet/config.json',
  containerdConfig: '/etc/containerd/config.toml',
  /** Where the node image keeps its registries' `hosts.toml` (mirrors, CAs): the served containerd config points there. */
  registryHosts: '/etc/containerd/certs.d',
  containerdSocket: '/run/containerd/containerd.sock',
  trustBundle: '/etc/pki/ca-trust/source/anchors/hcp-additional-trust-bundle.pem',
  sysctl: '/etc/sysctl.d/90-hcp-kubernetes.conf',
  modules: '/etc/modules-load.d/hcp-kubernetes.conf',
} as const;
