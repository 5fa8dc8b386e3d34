/**
 * The environment's long-running processes (etcd, the API server, containerd, kubelet…) outlive the `hcp local up`
 * that starts them: each is started detached, in the environment's cgroup (so `down` finds it and everything it
 * forks, container shims included), optionally inside a node's network and mount namespaces, with its output in a
 * log file and its PID in a file of the state folder.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tailOfFile } from '../cluster/files.ts';
import { waitFor } from '../cluster/http.ts';
import { EnvironmentError } from './errors.ts';
import { cgroupHierarchies, signal } from './host-cgroups.ts';
import { statePaths, type EnvironmentLayout } from './layout.ts';

/** What to start. */
export interface DaemonSpec {
  /** Names the log (`logs/<name>.log`) and PID (`run/<name>.pid`) files. */
  readonly name: string;
  readonly command: readonly string[];
  /** The network namespace (`ip netns` name) to run in: a node's, for its runtime, kubelet and kube-proxy. */
  readonly netns?: string;
  /** The mount namespace to run in, as a file to enter it through: a node's (see node-mounts.ts). */
  readonly mountNamespace?: string;
  /** The cgroup below the environment's (`<cgroup>/<sub>`). @default 'system' */
  readonly cgroup?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Start it again this many seconds after it exits (a unit's `Restart=always` with `RestartSec`); once, when absent. */
  readonly restartAfterSeconds?: number;
}

/**
 * Joins the cgroups named in HCP_CGROUPS (before the daemon starts, so nothing it forks escapes them), then becomes
 * the daemon, through nsenter when it belongs in a node's namespaces.
 */
const JOIN_CGROUPS = 'for d in $HCP_CGROUPS; do echo $$ > "$d/cgroup.procs"; done; unset HCP_CGROUPS;';
const LAUNCHER = `${JOIN_CGROUPS} exec "$@"`;
/** The same, restarting the command `$HCP_RESTART_SEC` seconds after each exit (the launcher's PID stays the daemon's). */
const RESTARTING_LAUNCHER = `${JOIN_CGROUPS} while :; do "$@"; echo "exited with status $?; restarting in $HCP_RESTART_SEC s"; sleep "$HCP_RESTART_SEC"; done`;

/** Where a daemon's PID (its launcher's) is kept. */
export const pidFile = (layout: EnvironmentLayout, name: string): string => join(statePaths(layout).pids, `${name}.pid`);

/** The log file of a daemon. */
export const logFile = (layout: EnvironmentLayout, name: string): string => join(statePaths(layout).logs, `${name}.log`);

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** When a process started (clock ticks after boot, `/proc/<pid>/stat` field 22); undefined when it is gone. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * The PID of a daemon that is running, from its PID file (`<pid> <start time>`); undefined when it is not. The start
 * time tells the daemon from a later process that was given its PID (the environment starts many: pods, machines).
 */
export function runningPid(layout: EnvironmentLayout, name: string): number | undefined {
  const file = pidFile(layout, name);
  if (!existsSync(file)) return undefined;
  const [pidText = '', started] = readFileSync(file, 'utf8').trim().split(' ');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid) || !isOurs(layout, pid)) return undefined;
  return started === undefined || started === startTimeOf(pid) ? pid : undefined;
}

/** Whether a process belongs to the environment's cgroup (a PID file may outlive its process and the PID be reused). */
function isOurs(layout: EnvironmentLayout, pid: number): boolean {
  try {
    return readFileSync(`/proc/${String(pid)}/cgroup`, 'utf8').includes(`:/${layout.cgroup}/`);
  } catch {
    return false;
  }
}

/** Waits until a just-started launcher has moved itself into the environment's cgroup (it does so first thing). */
async function joined(layout: EnvironmentLayout, name: string, pid: number): Promise<void> {
  for (let i = 0; i < 100 && alive(pid) && !isOurs(layout, pid); i++) await new Promise((r) => setTimeout(r, 20));
  if (!isOurs(layout, pid)) throw new Error(`${name} did not start: its launcher (pid ${String(pid)}) could not join the cgroup ${layout.cgroup}; see ${logFile(layout, name)}`);
}

/** Starts a daemon unless it is running already; returns its PID once it is in the environment's cgroup. */
export async function startDaemon(layout: EnvironmentLayout, spec: DaemonSpec): Promise<number> {
  const running = runningPid(layout, spec.name);
  if (running !== undefined) return running;
  const paths = statePaths(layout);
  mkdirSync(paths.logs, { recursive: true });
  mkdirSync(paths.pids, { recursive: true });
  const cgroup = `${layout.cgroup}/${spec.cgroup ?? 'system'}`;
  const cgroups = cgroupHierarchies().map((h) => join(h, cgroup));
  const namespaces = [...(spec.netns === undefined ? [] : [`--net=/run/netns/${spec.netns}`]), ...(spec.mountNamespace === undefined ? [] : [`--mount=${spec.mountNamespace}`])];
  const command = namespaces.length > 0 ? ['nsenter', ...namespaces, '--', ...spec.command] : [...spec.command];
  const log = openSync(logFile(layout, spec.name), 'a');
  try {
    const restart = spec.restartAfterSeconds === undefined ? {} : { HCP_RESTART_SEC: String(spec.restartAfterSeconds) };
    const child = spawn('/bin/sh', ['-c', spec.restartAfterSeconds === undefined ? LAUNCHER : RESTARTING_LAUNCHER, spec.name, ...command], {
      detached: true,
      stdio: ['ignore', log, log],
      env: { ...process.env, ...spec.env, ...restart, HCP_CGROUPS: cgroups.join(' ') },
    });
    child.unref();
    const pid = child.pid;
    if (pid === undefined) throw new Error(`${spec.name} could not be started`);
    writeFileSync(pidFile(layout, spec.name), `${String(pid)} ${startTimeOf(pid) ?? ''}`.trim() + '\n');
    await joined(layout, spec.name, pid);
    return pid;
  } finally {
    closeSync(log);
  }
}

/** Stops a running daemon (SIGTERM, then SIGKILL after `graceMs`) and forgets its PID file; nothing when it is not running. */
export async function stopDaemon(layout: EnvironmentLayout, name: string, graceMs = 10_000): Promise<void> {
  const pid = runningPid(layout, name);
  if (pid === undefined) return;
  signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (alive(pid)) signal(pid, 'SIGKILL');
  rmSync(pidFile(layout, name), { force: true });
}

/** Forgets a daemon's PID file (after `down` ended every process). */
export function forgetDaemons(layout: EnvironmentLayout): void {
  rmSync(statePaths(layout).pids, { recursive: true, force: true });
}

/** The last lines of a daemon's log, for error messages. */
export const logTail = (layout: EnvironmentLayout, name: string, lines = 20): string => tailOfFile(logFile(layout, name), lines);

/** Starts a daemon and waits until `ready`; a daemon that exits or never gets ready fails with its log's tail. */
export async function startAndWait(layout: EnvironmentLayout, timeoutMs: number, spec: DaemonSpec, ready: () => Promise<boolean>): Promise<void> {
  await startDaemon(layout, spec);
  const died = (): Error | undefined =>
    runningPid(layout, spec.name) === undefined ? new EnvironmentError(`${spec.name} exited; last lines of ${logFile(layout, spec.name)}:\n${logTail(layout, spec.name)}`) : undefined;
  try {
    await waitFor(spec.name, ready, { timeoutMs, intervalMs: 250, abortWhen: died });
  } catch (error) {
    if (error instanceof EnvironmentError) throw error;
    throw new EnvironmentError(`${(error as Error).message}; last lines of its log:\n${logTail(layout, spec.name)}`);
  }
}
