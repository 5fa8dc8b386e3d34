import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BinaryName } from '../binaries/versions.ts';
import type { ClusterAccess } from './access.ts';
import { createClusterCertificates, issueClientCertificate, toPem } from './certificates.ts';
import { apiServerArgs, controllerManagerArgs, etcdArgs, type ClusterLayout } from './components.ts';
import { writeCertificates, writeKubeconfig } from './files.ts';
import { httpCall, waitFor } from './http.ts';
import { freePort } from './ports.ts';
import { startProcess, type ManagedProcess } from './process.ts';

/** A running local cluster: etcd, kube-apiserver and kube-controller-manager on loopback. */
export interface LocalCluster extends ClusterAccess {
  /** The CA that signed the API server's serving certificate. */
  readonly caPem: string;
  readonly processes: readonly ManagedProcess[];
  /** Stops the processes (and removes the folder unless `keepFiles`). */
  stop(options?: { keepFiles?: boolean }): Promise<void>;
}

/** Options of {@link startCluster}. */
export interface StartClusterOptions {
  readonly name: string;
  /** A fresh folder for the cluster's data, certificates and logs. */
  readonly dir: string;
  readonly binaries: Readonly<Record<BinaryName, string>>;
  /** How long each process may take to become ready. @default 60000 */
  readonly timeoutMs?: number;
  /** Whether to run kube-controller-manager (garbage collection, namespaces, workloads, CSRs). @default true */
  readonly controllerManager?: boolean;
  /** More kube-apiserver flags (e.g. an authentication file a test checks), after the harness's own. */
  readonly extraApiServerArgs?: readonly string[];
}

async function layoutFor(name: string, dir: string): Promise<ClusterLayout> {
  return {
    name,
    dir,
    etcdClientPort: await freePort(),
    etcdPeerPort: await freePort(),
    apiServerPort: await freePort(),
    controllerManagerPort: await freePort(),
  };
}

/** Raised when a process does not become ready; carries the tail of its log. */
export class ClusterStartError extends Error {
  constructor(process: ManagedProcess, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`${process.name} failed to start: ${reason}\n--- last lines of ${process.logFile} ---\n${process.logTail()}`);
    this.name = 'ClusterStartError';
  }
}

const exitedEarly = (p: ManagedProcess, exit: { code?: number | null }): (() => Error | undefined) => () =>
  exit.code === undefined ? undefined : new Error(`${p.name} exited with code ${String(exit.code)}`);

async function startAndWait(proc: ManagedProcess, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const exit: { code?: number | null } = {};
  void proc.exited.then((code) => (exit.code = code));
  try {
    await waitFor(proc.name, ready, { timeoutMs, abortWhen: exitedEarly(proc, exit) });
  } catch (error) {
    throw new ClusterStartError(proc, error);
  }
}

/** Context shared by the start steps. */
interface Boot {
  readonly options: StartClusterOptions;
  readonly layout: ClusterLayout;
  readonly server: string;
  readonly caPem: string;
  readonly admin: { cert: string; key: string };
  readonly processes: ManagedProcess[];
  readonly timeoutMs: number;
}

function launch(boot: Boot, name: BinaryName, args: string[]): ManagedProcess {
  const proc = startProcess({ name, binary: boot.options.binaries[name], args, logFile: join(boot.layout.dir, 'logs', `${name}.log`) });
  boot.processes.push(proc);
  return proc;
}

async function bootProcesses(boot: Boot): Promise<void> {
  const { layout, timeoutMs } = boot;
  const etcd = launch(boot, 'etcd', etcdArgs(layout));
  const etcdHealthy = async (): Promise<boolean> => (await httpCall(`http://127.0.0.1:${layout.etcdClientPort}/health`)).body.includes('"true"');
  await startAndWait(etcd, etcdHealthy, timeoutMs);
  const apiServer = launch(boot, 'kube-apiserver', [...apiServerArgs(layout), ...(boot.options.extraApiServerArgs ?? [])]);
  const tls = { ca: boot.caPem, ...boot.admin };
  await startAndWait(apiServer, async () => (await httpCall(`${boot.server}/readyz`, { tls })).status === 200, timeoutMs);
  if (boot.options.controllerManager !== false) {
    const kcm = launch(boot, 'kube-controller-manager', controllerManagerArgs(layout));
    const kcmHealthy = async (): Promise<boolean> =>
      (await httpCall(`https://127.0.0.1:${layout.controllerManagerPort}/healthz`, { tls: { insecure: true } })).status === 200;
    await startAndWait(kcm, kcmHealthy, timeoutMs);
  }
  const defaultNamespace = async (): Promise<boolean> => (await httpCall(`${boot.server}/api/v1/namespaces/default`, { tls })).status === 200;
  await startAndWait(apiServer, defaultNamespace, timeoutMs);
}

async function prepareFiles(options: StartClusterOptions, layout: ClusterLayout, server: string): Promise<{ admin: { cert: string; key: string }; caPem: string }> {
  mkdirSync(join(options.dir, 'logs'), { recursive: true });
  const certs = await createClusterCertificates(options.name);
  await writeCertificates(options.dir, certs);
  const caPem = (await toPem(certs.serverCa)).cert;
  const admin = await issueClientCertificate(certs, { name: 'admin', groups: ['system:masters'] });
  writeKubeconfig({ path: join(options.dir, 'admin.kubeconfig'), name: options.name, server, caPem, user: { clientCertificatePem: admin.cert, clientKeyPem: admin.key } });
  const kcm = await issueClientCertificate(certs, { name: 'system:kube-controller-manager' });
  writeKubeconfig({ path: join(layout.dir, 'controller-manager.kubeconfig'), name: options.name, server, caPem, user: { clientCertificatePem: kcm.cert, clientKeyPem: kcm.key } });
  return { admin, caPem };
}

/** Whether a start failed only because another program took one of the chosen ports first. */
const lostAPortRace = (error: unknown): boolean => error instanceof ClusterStartError && error.message.includes('address already in use');

async function startOnce(options: StartClusterOptions): Promise<LocalCluster> {
  const layout = await layoutFor(options.name, options.dir);
  const server = `https://127.0.0.1:${layout.apiServerPort}`;
  const { admin, caPem } = await prepareFiles(options, layout, server);
  const boot: Boot = { options, layout, server, caPem, admin, processes: [], timeoutMs: options.timeoutMs ?? 60_000 };
  const stop = async (opts: { keepFiles?: boolean } = {}): Promise<void> => {
    await Promise.all(boot.processes.map((p) => p.stop()));
    if (opts.keepFiles !== true) rmSync(options.dir, { recursive: true, force: true });
  };
  try {
    await bootProcesses(boot);
  } catch (error) {
    await stop({ keepFiles: true });
    throw error;
  }
  const adminKubeconfig = join(options.dir, 'admin.kubeconfig');
  return { name: options.name, dir: options.dir, server, caPem, adminKubeconfig, kubectl: options.binaries.kubectl, processes: boot.processes, stop };
}

const START_ATTEMPTS = 3;

/**
 * Starts a cluster in `options.dir` on free loopback ports and waits until the API server is ready, the controller
 * manager is healthy and the `default` namespace exists. A port taken by another program between choosing and
 * binding it is retried with fresh ports (the folder is wiped first). On failure every started process is stopped
 * and the error carries the tail of the failing process's log.
 */
export async function startCluster(options: StartClusterOptions): Promise<LocalCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      if (attempt >= START_ATTEMPTS || !lostAPortRace(error)) throw error;
      rmSync(options.dir, { recursive: true, force: true });
    }
  }
}
