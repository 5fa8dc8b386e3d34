import type { Taint } from '../../api/index.ts';
import { toBase64 } from '../../lib/base64.ts';
import { toYaml } from '../../lib/yaml.ts';
import { ImageReferenceError, parseImageReference, registryApiHost } from '../../release/image-reference.ts';
import { credentialsFor, PullSecretError, type RegistryCredentials } from '../../release/registry-auth.ts';
import { NODE_AGENT_PATH, NODE_AGENT_SCRIPT, NODE_AGENT_UNIT, nodeAgentUnit } from './node-agent.ts';
import { NodePaths } from './node-paths.ts';
import { LABEL_KEY, LABEL_VALUE } from '../../api/schema/patterns.ts';

/**
 * The Ignition spec version of the configuration the ignition endpoint serves. 3.2.0 is what upstream's pointer
 * declares and what every Ignition 2.x release (Fedora CoreOS, RHCOS, Flatcar) reads; nothing here needs a later one.
 */
export const NODE_IGNITION_VERSION = '3.2.0';

/** Re-exported: callers name the contract's paths through the configuration that writes them. */
export { NodePaths };

/** Everything one NodePool generation's machines need to become Nodes of the hosted cluster. */
export interface NodeIgnitionInput {
  /** `https://host:port` of the hosted API server as machines reach it (the published endpoint). */
  readonly apiServerURL: string;
  /** PEM of the hosted cluster's root CA: it signs the API server's certificate and the kubelets' client certificates. */
  readonly clusterCA: string;
  /** A `bootstrap.kubernetes.io/token` of the hosted cluster, `<id>.<secret>`. */
  readonly bootstrapToken: string;
  /** The cluster DNS Service address the kubelet writes into pods' `resolv.conf`. */
  readonly clusterDNS: string;
  readonly clusterDomain: string;
  /** The pause image of the release: the runtime's sandbox image. */
  readonly sandboxImage: string;
  /** The pull secret (`.dockerconfigjson`) the kubelet pulls images with. */
  readonly pullSecret: string;
  /** Labels the kubelet registers with (only those NodeRestriction lets a kubelet set; see {@link kubeletSettableLabels}). */
  readonly nodeLabels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  /** Keys authorised for the image's `core` user. */
  readonly sshAuthorizedKeys: readonly string[];
  /** PEM of extra CAs the machine trusts (the HostedCluster's `additionalTrustBundle`). */
  readonly additionalTrustBundle?: string | undefined;
}

/**
 * The label prefixes a kubelet may set on its own Node under NodeRestriction: any key outside the `kubernetes.io`
 * and `k8s.io` domains, and inside them only these. Others (`node-role.kubernetes.io/…`) are the operator's to set.
 */
const KUBELET_LABEL_DOMAINS = ['kubelet.kubernetes.io', 'node.kubernetes.io'];
const KUBELET_LABEL_KEYS = new Set(['kubernetes.io/hostname', 'kubernetes.io/arch', 'kubernetes.io/os', 'beta.kubernetes.io/instance-type', 'node.kubernetes.io/instance-type', 'failure-domain.beta.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/zone', 'topology.kubernetes.io/region', 'topology.kubernetes.io/zone']);

/** Whether a kubelet may register with this label (NodeRestriction admission's rule). */
export function kubeletSettableLabel(key: string): boolean {
  const domain = key.includes('/') ? (key.split('/')[0] ?? '') : '';
  const restricted = domain === 'kubernetes.io' || domain === 'k8s.io' || domain.endsWith('.kubernetes.io') || domain.endsWith('.k8s.io');
  if (!restricted) return true;
  return KUBELET_LABEL_KEYS.has(key) || KUBELET_LABEL_DOMAINS.some((allowed) => domain === allowed || domain.endsWith(`.${allowed}`));
}

const LABEL_KEY_RE = new RegExp(LABEL_KEY);
const LABEL_VALUE_RE = new RegExp(LABEL_VALUE);

/**
 * The labels of `labels` a kubelet may register with. Only well-formed ones: they go on the kubelet's command line in
 * its unit, where a newline would start a directive of its own. The API refuses others; one stored before it did is
 * left out rather than written.
 */
export const kubeletSettableLabels = (labels: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(labels)
      .filter(([key, value]) => kubeletSettableLabel(key) && key.length <= 317 && LABEL_KEY_RE.test(key) && LABEL_VALUE_RE.test(value))
      .sort(([a], [b]) => a.localeCompare(b)),
  );

const dataURL = (text: string): string => `data:;base64,${toBase64(text)}`;
const file = (path: string, mode: number, contents: string): Record<string, unknown> => ({ path, mode, overwrite: true, contents: { source: dataURL(contents) } });

/** The bootstrap kubeconfig: the kubelet's only credential until its client certificate is issued. */
function bootstrapKubeconfig(input: NodeIgnitionInput): string {
  return toYaml({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'hosted', cluster: { server: input.apiServerURL, 'certificate-authority-data': toBase64(input.clusterCA) } }],
    users: [{ name: 'kubelet-bootstrap', user: { token: input.bootstrapToken } }],
    contexts: [{ name: 'bootstrap', context: { cluster: 'hosted', user: 'kubelet-bootstrap' } }],
    'current-context': 'bootstrap',
  });
}

/** The KubeletConfiguration: client certificates rotated, serving certificates requested from the cluster. */
function kubeletConfiguration(input: NodeIgnitionInput): string {
  return toYaml({
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    authentication: { anonymous: { enabled: false }, webhook: { enabled: true }, x509: { clientCAFile: NodePaths.clusterCA } },
    authorization: { mode: 'Webhook' },
    cgroupDriver: 'systemd',
    clusterDNS: [input.clusterDNS],
    clusterDomain: input.clusterDomain,
    containerRuntimeEndpoint: `unix://${NodePaths.containerdSocket}`,
    rotateCertificates: true,
    serverTLSBootstrap: true,
    registerWithTaints: input.taints.map((taint) => ({ key: taint.key, effect: taint.effect, ...(taint.value === undefined ? {} : { value: taint.value }) })),
  });
}

/**
 * containerd 2's configuration (version 3): the release's sandbox image, the image's registry hosts folder and runc
 * under systemd's cgroups. The folder is named because containerd's default (`/etc/containerd/certs.d:/etc/docker/certs.d`)
 * is not split by the transfer service its CRI pulls through, so a node image's mirrors would be silently ignored.
 */
function containerdConfig(input: NodeIgnitionInput, sandboxAuth: readonly string[]): string {
  return [
    'version = 3',
    '',
    "[plugins.'io.containerd.cri.v1.images'.registry]",
    `  config_path = ${JSON.stringify(NodePaths.registryHosts)}`,
    ...sandboxAuth,
    '',
    "[plugins.'io.containerd.cri.v1.images'.pinned_images]",
    `  sandbox = ${JSON.stringify(input.sandboxImage)}`,
    '',
    "[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]",
    '  SystemdCgroup = true',
    '',
  ].join('\n');
}

/**
 * The pull secret's credentials for the sandbox image's registry, as containerd's own per-registry `auth`: unlike
 * CRI-O, containerd pulls the pod sandbox image itself, without the credentials the kubelet reads from `config.json`.
 * (containerd 2 marks `configs` deprecated in favour of `hosts.toml`, which holds no credentials; 2.4 still reads it.)
 * Nothing when the pull secret has no entry for that registry, or is not a Docker config.
 */
function sandboxRegistryAuth(input: NodeIgnitionInput): string[] {
  let registry: string;
  let credentials: RegistryCredentials | undefined;
  try {
    registry = parseImageReference(input.sandboxImage).registry;
    credentials = credentialsFor(input.pullSecret, registry);
  } catch (error) {
    if (error instanceof ImageReferenceError || error instanceof PullSecretError) return [];
    throw error;
  }
  if (credentials === undefined) return [];
  // containerd asks by the host it talks to.
  return ['', `[plugins.'io.containerd.cri.v1.images'.registry.configs.${JSON.stringify(registryApiHost(registry))}.auth]`, `  username = ${JSON.stringify(credentials.username)}`, `  password = ${JSON.stringify(credentials.password)}`];
}

const labelArgument = (labels: Record<string, string>): string =>
  Object.entries(labels).map(([key, value]) => `${key}=${value}`).join(',');

/** The kubelet's unit: after the runtime, restarted for ever, as every node image's kubelet unit is. */
function kubeletUnit(input: NodeIgnitionInput): string {
  const labels = kubeletSettableLabels(input.nodeLabels);
  const args = [
    `--config=${NodePaths.kubeletConfig}`,
    `--bootstrap-kubeconfig=${NodePaths.bootstrapKubeconfig}`,
    `--kubeconfig=${NodePaths.kubeconfig}`,
    `--cert-dir=${NodePaths.certDir}`,
    ...(Object.keys(labels).length === 0 ? [] : [`--node-labels=${labelArgument(labels)}`]),
  ];
  return [
    '[Unit]',
    'Description=Kubernetes node agent (hosted control planes on KubeVirt)',
    'Wants=network-online.target',
    'After=network-online.target containerd.service',
    'Requires=containerd.service',
    '',
    '[Service]',
    `ExecStart=${NodePaths.kubelet} ${args.join(' ')}`,
    'Restart=always',
    'RestartSec=5',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}

const SYSCTL = ['net.ipv4.ip_forward = 1', 'net.ipv6.conf.all.forwarding = 1', 'net.bridge.bridge-nf-call-iptables = 1', 'net.bridge.bridge-nf-call-ip6tables = 1', ''].join('\n');
const MODULES = ['overlay', 'br_netfilter', ''].join('\n');

/**
 * The Ignition config (spec {@link NODE_IGNITION_VERSION}) that turns a machine booted from an image meeting the node
 * image contract (`docs/node-image.md`) into a Node of the hosted cluster: the cluster CA, a bootstrap kubeconfig,
 * the kubelet's configuration and unit, containerd's configuration, registry credentials, kernel settings, the
 * `core` user's SSH keys, the extra trust bundle, and the node agent that carries out in-place upgrades
 * (`node-agent.ts`). Pure: the ignition endpoint renders it per request.
 */
export function renderNodeIgnition(input: NodeIgnitionInput): Record<string, unknown> {
  const sandboxAuth = sandboxRegistryAuth(input);
  const files = [
    file(NodePaths.clusterCA, 0o644, input.clusterCA),
    file(NodePaths.bootstrapKubeconfig, 0o600, bootstrapKubeconfig(input)),
    file(NodePaths.kubeletConfig, 0o644, kubeletConfiguration(input)),
    file(NodePaths.pullSecret, 0o600, input.pullSecret),
    // With the sandbox registry's credentials in it, containerd's configuration is as private as the pull secret.
    file(NodePaths.containerdConfig, sandboxAuth.length === 0 ? 0o644 : 0o600, containerdConfig(input, sandboxAuth)),
    file(NodePaths.sysctl, 0o644, SYSCTL),
    file(NodePaths.modules, 0o644, MODULES),
    ...(input.additionalTrustBundle === undefined || input.additionalTrustBundle === '' ? [] : [file(NodePaths.trustBundle, 0o644, input.additionalTrustBundle)]),
    file(NODE_AGENT_PATH, 0o755, NODE_AGENT_SCRIPT),
  ];
  const users = input.sshAuthorizedKeys.length === 0 ? [] : [{ name: 'core', sshAuthorizedKeys: [...input.sshAuthorizedKeys] }];
  return {
    ignition: { version: NODE_IGNITION_VERSION },
    passwd: { users },
    storage: { files },
    systemd: {
      units: [
        { name: 'containerd.service', enabled: true },
        { name: 'kubelet.service', enabled: true, contents: kubeletUnit(input) },
        { name: NODE_AGENT_UNIT, enabled: true, contents: nodeAgentUnit() },
      ],
    },
  };
}
