/**
 * A machine made of processes that joins a hosted cluster the way a VM does: it follows its user data (the Ignition
 * pointer) to the ignition endpoint, materialises the config it gets into a root folder of its own, and runs that
 * config's kubelet against a containerd in the network namespace of the virt-launcher pod its VM runs in. It is the join proof of
 * the bootstrap issue and the seed of the `process` machine backend; what the host forces (cgroupfs, cgroup v1, the
 * runtime's private folders, re-rooted paths) is added as a kubelet drop-in and containerd settings, never by editing
 * what the endpoint served.
 */
import { constants, copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path/posix';
import { materialiseIgnition, parseIgnitionPointer, type MaterialisedIgnition } from '../../render/ignition/materialise.ts';
import { NodePaths } from '../../render/ignition/node-config.ts';
import { NODE_AGENT_PATH, NODE_AGENT_UNIT } from '../../render/ignition/node-agent.ts';
import { toYaml } from '../../lib/yaml.ts';
import { pidFile, runningPid, startAndWait, startDaemon } from './daemons.ts';
import { run } from './host.ts';
import { ensureCgroup, killCgroup, removeCgroup } from './host-cgroups.ts';
import { unmountUnder } from './host-mounts.ts';
import { attachMachineNetwork } from './host-network.ts';
import { nodeLayout, type EnvironmentLayout, type NodeLayout } from './layout.ts';
import { hostKubeletSettings, nodePaths } from './node-config.ts';
import { ensureNodeMountNamespace, KUBELET_FIXED_PATHS, MACHINE_PRIVATE_PATHS } from './node-mounts.ts';
import { writeRuntimeFiles } from './node-files.ts';
import { containerdDaemon } from './processes.ts';
import { fetchIgnitionConfig } from './ignition-fetch.ts';
import { isExecutable, kubeCacheDir, locateBinaries } from '../binaries/locate.ts';
import { KUBE_VERSION, PREVIOUS_KUBE_VERSION } from '../binaries/versions.ts';
import { CONTAINERD, toolDir } from '../binaries/tools.ts';
import { findCommand } from './prerequisites.ts';

/**
 * The kubelet, containerd and runc a joining machine runs: the kubelet of the Kubernetes version its boot image names
 * (`quay.io/hcp-kubevirt/node:v1.35.4`: the previous minor's, from the cache) or, by default, the environment's own.
 */
export function joinBinaries(kubeVersion: string = KUBE_VERSION): JoinMachineOptions['binaries'] {
  const kubelet = kubeVersion === KUBE_VERSION ? locateBinaries().kubelet : join(kubeCacheDir(kubeVersion), 'kubelet');
  const runc = findCommand('runc');
  if (kubelet === undefined || runc === undefined) throw new Error('kubelet or runc missing: bring the local environment up first');
  if (!isExecutable(kubelet)) throw new Error(`no kubelet ${kubeVersion} in ${kubelet}: the local environment builds the kubelets of ${KUBE_VERSION} and ${PREVIOUS_KUBE_VERSION} only`);
  return { kubelet, containerd: join(toolDir(CONTAINERD), 'containerd'), runc, ctr: join(toolDir(CONTAINERD), 'ctr') };
}

/** A joining machine: its name (the VM's, which the kubelet registers as) and its slot beyond the environment's nodes. */
export interface JoinMachineOptions {
  readonly layout: EnvironmentLayout;
  readonly machine: string;
  /** 9 and up: its network namespace, address and pod range follow the environment's node numbering. */
  readonly slot: number;
  /** The user data of the machine's VM (the Ignition pointer). */
  readonly userData: string;
  readonly binaries: { readonly kubelet: string; readonly containerd: string; readonly runc: string; readonly ctr: string };
  /** The virt-launcher pod the machine lives in: one of its processes, its address, and the node running it. */
  readonly launcher: LauncherNetwork;
}

/** Where a machine's network comes from: its virt-launcher pod (a process of it, its address, its node). */
export interface LauncherNetwork {
  readonly pid: number;
  readonly address: string;
  readonly node: NodeLayout;
}

const rootOf = (node: NodeLayout): string => join(node.dir, 'root');
/** How long a machine's containerd may take to open its socket. */
const RUNTIME_START_TIMEOUT_MS = 60_000;

/** Writes every file of the config below the machine's root, with its mode. */
function writeFiles(root: string, config: MaterialisedIgnition): void {
  for (const file of config.files) {
    const path = join(root, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents, { mode: file.mode });
  }
}

/** The kubelet's arguments from the config's unit, every absolute path re-rooted below the machine's root. */
export function kubeletArguments(config: MaterialisedIgnition, root: string): string[] {
  const unit = config.units.find((u) => u.name === 'kubelet.service')?.contents ?? '';
  const execStart = /^ExecStart=(\S+)\s+(.*)$/m.exec(unit);
  if (execStart === null) throw new Error('the served config has no kubelet unit with an ExecStart line');
  return (execStart[2] ?? '').split(/\s+/).filter((a) => a !== '').map((arg) => arg.replace(/^(--[a-z-]+=)(\/.*)$/, (_m, flag: string, path: string) => `${flag}${join(root, path)}`));
}

/**
 * The restart policy of the config's kubelet unit (`Restart=always`, `RestartSec=`), honoured as systemd would: a
 * kubelet that exits (its bootstrap token not yet in the hosted cluster, say) is started again.
 */
export function kubeletRestartSeconds(config: MaterialisedIgnition): number | undefined {
  const unit = config.units.find((u) => u.name === 'kubelet.service')?.contents ?? '';
  if (!/^Restart=(always|on-failure)$/m.test(unit)) return undefined;
  return Number(/^RestartSec=(\d+)s?$/m.exec(unit)?.[1] ?? 0.1);
}

/** What this host needs on top of the served kubelet configuration (a drop-in, as a node image would ship one). */
function hostDropIn(layout: EnvironmentLayout, node: NodeLayout, root: string): string {
  return toYaml({
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    ...hostKubeletSettings(layout, node),
    authentication: { x509: { clientCAFile: join(root, NodePaths.clusterCA) } },
  });
}

/** The daemon names of a joining machine. */
const daemonNames = (node: NodeLayout): { containerd: string; kubelet: string; agent: string } => ({ containerd: `containerd-${String(node.index)}`, kubelet: `kubelet-${String(node.index)}`, agent: `node-agent-${String(node.index)}` });

/**
 * Puts the kubelet where the node image contract keeps it, as a copy of its own (reflinked where the file system can):
 * the node agent replaces that file in place, which must never reach the environment's cache.
 */
function installKubelet(root: string, kubelet: string): void {
  const target = join(root, NodePaths.kubelet);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(kubelet, target, constants.COPYFILE_FICLONE);
}

/** The kubelet's default `healthzPort`, which neither the served configuration nor the host's drop-in changes. */
const KUBELET_HEALTHZ_PORT = 10248;

/** How often the agent of a process machine looks at its Node (a VM's looks every 10 s: these are cheaper to wake). */
const AGENT_INTERVAL_SECONDS = 5;

/**
 * The node agent the served config installed, run as systemd would run its unit, with this host's differences in its
 * environment: the re-rooted paths, the machine's own containerd and registry hosts, the kubelet's health endpoint on
 * the machine's address, and a kubelet restarted by stopping it (its launcher starts it again after the unit's
 * RestartSec, as systemd would).
 */
function nodeAgentDaemon(options: JoinMachineOptions, node: NodeLayout, root: string, mountNamespace: string): Parameters<typeof startDaemon>[1] {
  const p = nodePaths(node);
  const kubeletPid = pidFile(options.layout, daemonNames(node).kubelet);
  return {
    name: daemonNames(node).agent,
    command: ['bash', join(root, NODE_AGENT_PATH)],
    netns: node.netns,
    mountNamespace,
    cgroup: node.cgroup,
    restartAfterSeconds: 10,
    env: {
      HCP_NODE_ROOT: root,
      HCP_NODE_NAME: options.machine,
      HCP_CTR: options.binaries.ctr,
      HCP_CONTAINERD_SOCKET: p.containerdSocket,
      HCP_REGISTRY_HOSTS: p.registryHosts,
      // The PID file holds the launcher's PID and start time: the kubelet is its child. The command returns once the
      // old kubelet is gone, so that the health endpoint the agent then asks is the new kubelet's.
      HCP_KUBELET_RESTART: `p=$(pgrep -x kubelet -P "$(cut -d ' ' -f 1 '${kubeletPid}')"); if [ -n "$p" ]; then kill -TERM $p; while kill -0 $p 2>/dev/null; do sleep 0.2; done; fi`,
      // The host's drop-in binds the kubelet's health endpoint to the machine's address, not the loopback.
      HCP_KUBELET_HEALTHZ: `http://${node.address}:${String(KUBELET_HEALTHZ_PORT)}/healthz`,
      HCP_AGENT_INTERVAL: String(AGENT_INTERVAL_SECONDS),
    },
  };
}

/**
 * Fetches the machine's config through its user data and starts its containerd and kubelet. Resolves with the moment
 * the config was fetched; throws with the endpoint's status when it refuses.
 */
export async function startJoinMachine(options: JoinMachineOptions): Promise<{ fetchedAt: number; node: NodeLayout }> {
  const { layout, binaries } = options;
  // The machine's address is its pod's, as a VM's is with KubeVirt's masquerade binding.
  const node = { ...nodeLayout(layout.stateDir, options.slot), address: options.launcher.address };
  const answer = await fetchIgnitionConfig(parseIgnitionPointer(options.userData));
  if (answer.status !== 200) throw new Error(`the ignition endpoint answered ${String(answer.status)}: ${answer.body.trim()}`);
  const fetchedAt = Date.now();
  const config = materialiseIgnition(JSON.parse(answer.body) as Record<string, unknown>);
  const root = rootOf(node);
  writeFiles(root, config);
  installKubelet(root, binaries.kubelet);
  restoreIdentity(layout, options.slot, root);
  const dropIns = join(root, 'etc/kubernetes/kubelet.conf.d');
  mkdirSync(dropIns, { recursive: true });
  writeFileSync(join(dropIns, '90-hcp-local-host.conf'), hostDropIn(layout, node, root));
  writeRuntimeFiles(layout, node, binaries.runc, true);
  await attachMachineNetwork(node, options.launcher);
  ensureCgroup(`${layout.cgroup}/${node.cgroup}`);
  const names = daemonNames(node);
  const mountNamespace = await ensureNodeMountNamespace(layout, node, node.cgroup, [...KUBELET_FIXED_PATHS, ...MACHINE_PRIVATE_PATHS]);
  // The kubelet exits at once when the runtime's socket is not there yet.
  const socket = nodePaths(node).containerdSocket;
  await startAndWait(layout, RUNTIME_START_TIMEOUT_MS, { ...containerdDaemon(node, binaries, mountNamespace), cgroup: node.cgroup }, () => Promise.resolve(existsSync(socket)));
  const kubelet = [join(root, NodePaths.kubelet), ...kubeletArguments(config, root), `--config-dir=${dropIns}`, `--root-dir=${join(root, 'var/lib/kubelet')}`, `--hostname-override=${options.machine}`, `--node-ip=${node.address}`];
  const restartAfterSeconds = kubeletRestartSeconds(config);
  await startDaemon(layout, { name: names.kubelet, command: kubelet, netns: node.netns, mountNamespace, cgroup: node.cgroup, ...(restartAfterSeconds === undefined ? {} : { restartAfterSeconds }) });
  if (config.units.some((u) => u.name === NODE_AGENT_UNIT && u.enabled)) await startDaemon(layout, nodeAgentDaemon(options, node, root, mountNamespace));
  return { fetchedAt, node };
}

/**
 * What a machine keeps across a restart, as a VM keeps its disk: its kubelet's client credentials (the node's
 * identity) and its kubelet (which an in-place update may have replaced).
 */
const KEPT = [NodePaths.kubeconfig, NodePaths.certDir, NodePaths.kubelet] as const;
const identityStash = (layout: EnvironmentLayout, slot: number): string => join(layout.stateDir, `machine-identity-${String(slot)}`);

/** Moves `from` to `to`, replacing what is there (both below the state folder: one file system, so a rename). */
function moveOver(from: string, to: string): void {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(dirname(to), { recursive: true });
  renameSync(from, to);
}

/**
 * A machine started again finds what its last run kept: its kubelet goes on as the node it is, instead of
 * bootstrapping anew (a bootstrap for an existing Node is refused, as OpenShift's machine approver refuses it), and
 * runs the kubelet it last ran.
 */
function restoreIdentity(layout: EnvironmentLayout, slot: number, root: string): void {
  const stash = identityStash(layout, slot);
  if (!existsSync(stash)) return;
  for (const path of KEPT) if (existsSync(join(stash, path))) moveOver(join(stash, path), join(root, path));
  rmSync(stash, { recursive: true, force: true });
}

/** Keeps the machine's identity aside when `keep` (a stash from an earlier stop stays while its root has none); drops it otherwise. */
function stashIdentity(layout: EnvironmentLayout, node: NodeLayout, keep: boolean): void {
  const stash = identityStash(layout, node.index);
  const kept = KEPT.filter((path) => existsSync(join(rootOf(node), path)));
  if (keep && !kept.some((path) => path !== NodePaths.kubelet)) return;
  rmSync(stash, { recursive: true, force: true });
  if (keep) for (const path of kept) moveOver(join(rootOf(node), path), join(stash, path));
}

/**
 * Stops a joining machine and removes everything it made: processes, pods, mounts, its name for the pod's network,
 * cgroup, folder — but, when `keepIdentity` (it is about to start again), its kubelet's credentials.
 */
export async function stopJoinMachine(layout: EnvironmentLayout, slot: number, keepIdentity = false): Promise<void> {
  const node = nodeLayout(layout.stateDir, slot);
  const cgroup = `${layout.cgroup}/${node.cgroup}`;
  await killCgroup(cgroup, 5_000);
  await unmountUnder(node.dir);
  await run(['ip', 'netns', 'delete', node.netns]).catch(() => undefined);
  removeCgroup(cgroup);
  stashIdentity(layout, node, keepIdentity);
  rmSync(node.dir, { recursive: true, force: true });
  for (const name of Object.values(daemonNames(node))) if (runningPid(layout, name) !== undefined) throw new Error(`${name} still runs`);
}
