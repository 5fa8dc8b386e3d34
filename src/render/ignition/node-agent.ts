/**
 * The node agent: a bash script the served Ignition config installs on every machine, which carries out in-place
 * NodePool upgrades (`management.upgradeType: InPlace`) of the machine's kubelet. The operator drains the Node and
 * annotates it with the config it wants; the agent installs that config's kubelet and answers through annotations.
 * The protocol is documented in docs/node-image.md ("In-place updates").
 */
import { NODE_AGENT_TEMPLATE } from './node-agent-template.ts';
import { NodePaths } from './node-paths.ts';

/**
 * The Node annotations of the in-place protocol. The first four are the OpenShift machine-config daemon's names, which
 * users already script against; the operator writes `desiredConfig` and `kubeletImage`, the agent the others.
 */
export const InPlaceAnnotations = {
  /** The config the operator wants on the machine (an opaque name, such as the NodePool's config hash). */
  desiredConfig: 'machineconfiguration.openshift.io/desiredConfig',
  /** The config the machine runs: set by the agent once it is applied, removed while an update is under way. */
  currentConfig: 'machineconfiguration.openshift.io/currentConfig',
  /** One of {@link InPlaceState}. */
  state: 'machineconfiguration.openshift.io/state',
  /** Why the state is Degraded: one line naming the step that failed; absent otherwise. */
  reason: 'machineconfiguration.openshift.io/reason',
  /** The container image whose `usr/bin/kubelet` the desired config runs. */
  kubeletImage: 'hcp-kubevirt.io/kubelet-image',
} as const;

/**
 * The values of the `state` annotation. `Working`: an update is under way. `Done`: `currentConfig` is the desired
 * config. `Degraded`: the last attempt failed (see `reason`); the old kubelet still runs and the agent tries again.
 */
export const InPlaceState = { Working: 'Working', Done: 'Done', Degraded: 'Degraded' } as const;

/** Where the served config installs the agent's script. */
export const NODE_AGENT_PATH = '/usr/local/bin/hcp-node-agent';

/** The agent's systemd unit, written and enabled by the served config. */
export const NODE_AGENT_UNIT = 'hcp-node-agent.service';

/** The kubelet's client certificate and key, one PEM, as the kubelet keeps it current while it rotates them. */
const KUBELET_CLIENT_PEM = `${NodePaths.certDir}/kubelet-client-current.pem`;

/** The template with each `@@name@@` replaced by its value; a mark without a value is a mistake, refused at load. */
function fillNames(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/@@([\w.]+)@@/g, (mark, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`hcp-node-agent.sh: no value for ${mark}`);
    return value;
  });
}

/**
 * The agent (bash; needs only bash, coreutils, curl, jq, tar, gzip, base64 and ctr, all in the node image contract).
 *
 * Each pass reads the machine's Node with the kubelet's own client certificate; when `desiredConfig` differs from
 * `currentConfig` it marks the Node Working, pulls the `kubeletImage` with ctr (into a containerd namespace of its
 * own, with the pull secret's credentials for that image's registry only), takes the last `usr/bin/kubelet` of the
 * image's layers for this machine's platform, checks that it runs, swaps it in (the old one kept as
 * `kubelet.previous`), restarts the kubelet and waits for its health endpoint, then reports the config current and
 * Done. Any failure reports Degraded with a one-line reason and leaves (or puts back) the old kubelet; the next pass
 * tries again. `--once` makes one pass and exits with its status.
 *
 * Environment (for the local environment, which runs it beside a re-rooted kubelet, and for tests): `HCP_NODE_ROOT`
 * prefixes the contract's paths; `HCP_NODE_NAME`, `HCP_CTR`, `HCP_CONTAINERD_SOCKET`, `HCP_REGISTRY_HOSTS`,
 * `HCP_KUBELET_RESTART` (run with `sh -c`), `HCP_KUBELET_HEALTHZ`, `HCP_KUBELET_HEALTHZ_SECONDS` and
 * `HCP_AGENT_INTERVAL` replace the defaults set at the top of the script.
 *
 * The source is `hcp-node-agent.sh` beside this file (shellcheck checks it in the lint tier); its `@@name@@` marks are
 * filled here with the contract's paths and the protocol's names.
 */
export const NODE_AGENT_SCRIPT = fillNames(NODE_AGENT_TEMPLATE, {
  'NodePaths.containerdSocket': NodePaths.containerdSocket,
  'NodePaths.registryHosts': NodePaths.registryHosts,
  'NodePaths.kubelet': NodePaths.kubelet,
  'NodePaths.clusterCA': NodePaths.clusterCA,
  'NodePaths.bootstrapKubeconfig': NodePaths.bootstrapKubeconfig,
  'NodePaths.pullSecret': NodePaths.pullSecret,
  KUBELET_CLIENT_PEM,
  'InPlaceAnnotations.desiredConfig': InPlaceAnnotations.desiredConfig,
  'InPlaceAnnotations.currentConfig': InPlaceAnnotations.currentConfig,
  'InPlaceAnnotations.state': InPlaceAnnotations.state,
  'InPlaceAnnotations.reason': InPlaceAnnotations.reason,
  'InPlaceAnnotations.kubeletImage': InPlaceAnnotations.kubeletImage,
  'InPlaceState.Working': InPlaceState.Working,
  'InPlaceState.Done': InPlaceState.Done,
  'InPlaceState.Degraded': InPlaceState.Degraded,
});
/** The agent's systemd unit: started after the kubelet, restarted for ever, as the kubelet's own unit is. */
export function nodeAgentUnit(): string {
  return [
    '[Unit]',
    'Description=Applies in-place NodePool updates to the kubelet (hosted control planes on KubeVirt)',
    'After=kubelet.service',
    '',
    '[Service]',
    `ExecStart=${NODE_AGENT_PATH}`,
    'Restart=always',
    'RestartSec=10',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}
