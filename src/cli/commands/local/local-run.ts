import { writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { BUILD_INFO, DEFAULT_OPERATOR_IMAGE } from '../../build-info.ts';
import type { CommandContext } from '../../framework/command.ts';
import { throwIfAny, UserError } from '../../framework/errors.ts';
import { FlagReader, type ParsedArgs } from '../../framework/parse.ts';
import type { EnvironmentLayout } from '../../../local/environment/layout.ts';
import { existingLayout, layoutForUp, machineBackendForUp, recordedMachineBackend } from '../../../local/environment/state.ts';
import { upEnvironment, type RunningEnvironment } from '../../../local/environment/up.ts';
import { downEnvironment } from '../../../local/environment/down.ts';
import { environmentStatus, type EnvironmentStatus, type InfraClusterStatus } from '../../../local/environment/status.ts';
import type { InfraAccess } from '../../../local/environment/infra-cluster.ts';
import { describeMissing, missingPrerequisites, packagesFor } from '../../../local/environment/prerequisites.ts';
import { run as runHost } from '../../../local/environment/host.ts';
import { LOCAL_RELEASE_IMAGE } from '../../../local/environment/local-images.ts';
import { localClusterFlags } from '../../../local/environment/cluster-flags.ts';
import { releaseRegistryPaths } from '../../../local/environment/release-registry.ts';
import { recordedUserRegistry, registryAccessPaths, userRegistryForUp, type UserRegistry } from '../../../local/environment/registry-access.ts';
import { readRegistryConfigFile, readTrustBundleFile } from '../../framework/files.ts';
import { projectRoot } from '../../../local/project-root.ts';
import { locateBinaries } from '../../../local/binaries/locate.ts';
import { hasTrueCondition } from '../../../lib/conditions.ts';
import { appsDomainOf } from '../../../api/v1beta1/dns.ts';
import type { HostedCluster } from '../../../api/index.ts';
import { nodeExecutable } from '../../node-executable.ts';
import { quietContext, reporter, seconds } from '../../framework/progress.ts';
import { runNested } from '../../framework/run.ts';
import { asUserErrors } from '../../framework/environment-errors.ts';
import type { Reporter } from '../../../lib/progress.ts';

/** The environment's state folder: the flag, else the XDG state directory. */
function stateDirOf(f: FlagReader, env: NodeJS.ProcessEnv): string {
  const given = f.string('state-dir');
  if (given !== '') return given;
  const xdg = env['XDG_STATE_HOME'];
  return join(xdg !== undefined && xdg !== '' ? xdg : join(env['HOME'] ?? homedir(), '.local', 'state'), 'hcp-kubevirt', 'local');
}

interface LocalFlags {
  readonly stateDir: string;
  readonly json: boolean;
  readonly f: FlagReader;
}

/** The flags every `hcp local` command shares. */
export function readFlags(args: ParsedArgs, ctx: CommandContext): LocalFlags {
  const f = new FlagReader(args.values);
  const output = f.string('output');
  throwIfAny(output === 'text' || output === 'json' ? [] : [new UserError(`invalid argument "${output}" for "--output" flag: want text or json`, 'usage')]);
  return { stateDir: stateDirOf(f, ctx.env), json: output === 'json', f };
}

/** Installs the missing Debian packages (`--install-prerequisites`). */
export async function installPrerequisites(ctx: CommandContext, json: boolean, vmMachines = false): Promise<void> {
  const packages = packagesFor(missingPrerequisites(vmMachines));
  if (packages.length === 0) return;
  if (!json) ctx.stderr(`installing ${packages.join(' ')} with apt-get\n`);
  await runHost(['apt-get', 'update', '-qq']);
  await runHost(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages]);
  const still = missingPrerequisites(vmMachines);
  if (still.length > 0) throw new UserError(describeMissing(still));
}

/**
 * Installs (or re-applies, which changes nothing) the operator from the image the environment just published (or the
 * published release's), trusting the environment's registries, with the TechPreviewNoUpgrade feature set (as
 * upstream's CI installs it): the environment is where gated kinds such as HCPEtcdBackup are tried. Monitoring
 * dashboards are on, so each hosted cluster gets its dashboard ConfigMap, and the web console runs beside the operator.
 */
export async function installOperator(env: Pick<RunningEnvironment, 'kubeconfig' | 'operatorImage' | 'trustBundle'>, report: Reporter, ctx: CommandContext): Promise<void> {
  await report.step('installing the operator (hcp install)', async () => {
    const args = ['install', `--kubeconfig=${env.kubeconfig}`, `--hypershift-image=${env.operatorImage}`, `--additional-trust-bundle=${env.trustBundle}`, '--tech-preview-no-upgrade', '--monitoring-dashboards', '--console', '--wait-until-available'];
    await runNested(ctx, args, quietContext(ctx));
  });
}

/** What `up --hosted-cluster` made: the cluster, its kubeconfig and its worker Nodes. */
export interface HostedClusterResult {
  readonly name: string;
  readonly namespace: string;
  readonly kubeconfig: string;
  readonly availabilityPolicy: string;
  readonly nodes: readonly string[];
  /** Where its applications are published (`apps.<name>.<base domain>`; the manual's default ingress). */
  readonly appsDomain: string;
}

/** The most worker machines `up` makes (each a kubelet and containerd on this host). */
const MAX_WORKERS = 10;

/** `--node-pool-replicas`, checked before anything starts. */
function workersFlag(f: FlagReader): number {
  const workers = f.number('node-pool-replicas');
  throwIfAny(Number.isInteger(workers) && workers >= 0 && workers <= MAX_WORKERS ? [] : [new UserError(`invalid --node-pool-replicas ${String(workers)}: want 0 to ${String(MAX_WORKERS)}`)]);
  return workers;
}

/** Waits until `count` Nodes of the hosted cluster are Ready; returns their names, or says where to look. */
export async function workersReady(kubeconfigText: string, count: number, stateDir: string): Promise<string[]> {
  const { KubeClient } = await import('../../../kube/client.ts');
  const { waitFor } = await import('../../../local/cluster/http.ts');
  const hosted = KubeClient.fromKubeconfigText(kubeconfigText);
  type Node = { metadata?: { name?: string }; status?: { conditions?: Array<{ type: string; status: string }> } };
  let ready: string[] = [];
  try {
    await waitFor(`${String(count)} worker Node(s) Ready`, async () => {
      ready = (await hosted.list<Node & { apiVersion: string; kind: string }>('v1', 'Node')).filter((n) => hasTrueCondition(n, 'Ready')).map((n) => n.metadata?.name ?? '');
      return ready.length >= count;
    }, { timeoutMs: 5 * 60_000, intervalMs: 1000 });
  } catch {
    throw new UserError(`${String(count)} worker Node(s) were not Ready within 5 minutes (${String(ready.length)} are): hcp local status --state-dir ${stateDir} lists the machines; their logs are ${join(stateDir, 'logs')}/kubevirt-standin.log and kubelet-<slot>.log (process machines) or ${join(stateDir, 'node-<slot>')}/console.log (QEMU machines)`);
  } finally {
    hosted.close();
  }
  return ready.sort();
}

/**
 * Creates the hosted cluster `up --hosted-cluster` names (unless it exists), waits until it is available, writes its
 * kubeconfig into the state folder and waits for its worker machines' Nodes. Services go on NodePorts of the nodes
 * (no load balancer here) and the base domain is set (no OpenShift router to discover one from); the NodePool's VMs
 * boot the local node image, and the environment's KubeVirt stand-in runs them as process machines or QEMU machines.
 */
export async function upHostedCluster(env: { layout: EnvironmentLayout; kubeconfig: string; infra?: InfraAccess }, cluster: { name: string; workers: number }, report: Reporter, ctx: CommandContext): Promise<HostedClusterResult> {
  const { name, workers } = cluster;
  const { layout, kubeconfig, infra } = env;
  // On the infrastructure cluster, as its limited user: exactly what a user of external infrastructure passes.
  const infraFlags = infra === undefined ? [] : [`--infra-kubeconfig-file=${infra.kubeconfig}`, `--infra-namespace=${infra.namespace}`];
  const where = infra === undefined ? '' : ` with its VMs on the infrastructure cluster (${infra.namespace})`;
  const policy = layout.nodes.length >= 3 ? 'HighlyAvailable' : 'SingleReplica';
  const { KubeClient } = await import('../../../kube/client.ts');
  const { waitForCluster } = await import('../create/cluster/wait.ts');
  const quiet = quietContext(ctx);
  const client = KubeClient.fromKubeconfigFile(kubeconfig);
  let appsDomain: string;
  try {
    await report.step(`creating hosted cluster clusters/${name} (${policy})${where} and waiting until it is available`, async () => {
      const exists = await client.tryGet({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name, namespace: 'clusters' });
      if (exists === undefined) {
        await runNested(ctx, ['create', 'cluster', 'kubevirt', `--kubeconfig=${kubeconfig}`, `--name=${name}`, `--control-plane-availability-policy=${policy}`, ...localClusterFlags(layout, workers), ...infraFlags], quiet);
      }
      await waitForCluster(client, quiet, { name, namespace: 'clusters', timeoutMs: 10 * 60_000 });
    });
    appsDomain = appsDomainOf(name, (await client.get<HostedCluster>({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name, namespace: 'clusters' })).spec.dns) ?? '';
  } finally {
    client.close();
  }
  let hostedKubeconfig = '';
  await runNested(ctx, ['create', 'kubeconfig', `--kubeconfig=${kubeconfig}`, `--name=${name}`], { ...quiet, stdout: (text) => void (hostedKubeconfig += text) });
  const file = join(layout.stateDir, `${name}.kubeconfig`);
  writeFileSync(file, hostedKubeconfig, { mode: 0o600 });
  const nodes = workers === 0 ? [] : await report.step(`waiting for ${String(workers)} worker machine(s) to join (KubeVirt stand-in, ${recordedMachineBackend(layout.stateDir) === 'vm' ? 'QEMU' : 'process'} machines)`, () => workersReady(hostedKubeconfig, workers, layout.stateDir));
  return { name, namespace: 'clusters', kubeconfig: file, availabilityPolicy: policy, nodes, appsDomain };
}

/** What `up` prints on a terminal: how to reach each cluster, and what to do next. */
function describeUp(layout: EnvironmentLayout, env: RunningEnvironment & { published: string | undefined }, hostedCluster: HostedClusterResult | undefined, took: string): string {
  const { published } = env;
  const infraFlags = env.infra === undefined ? [] : [`--infra-kubeconfig-file ${env.infra.kubeconfig}`, `--infra-namespace ${env.infra.namespace}`];
  const kubectl = locateBinaries().kubectl ?? 'kubectl';
  const management = [
    `The local environment is running with ${String(layout.nodes.length)} node(s) (${took}); ${published === undefined ? `hcp ${BUILD_INFO.version} operator installed` : `the published release ${published} and its operator ${env.operatorImage} installed`}.`,
    'The management cluster:',
    `  export KUBECONFIG=${env.kubeconfig}`,
    `  ${kubectl} get pods -A`,
    'The web console beside the operator: forward its port, open http://127.0.0.1:7480/ and sign in with a token (e.g. of a service account you bind a role to):',
    `  ${kubectl} port-forward -n hypershift service/hcp-console 7480`,
    `  ${kubectl} create token NAME -n NAMESPACE`,
    ...(env.infra === undefined
      ? []
      : ['The infrastructure cluster, as its limited user (for --infra-kubeconfig-file and --infra-namespace):', `  ${kubectl} --kubeconfig ${env.infra.kubeconfig} -n ${env.infra.namespace} get virtualmachines`]),
  ];
  const hosted =
    hostedCluster === undefined
      ? ['Create a hosted cluster:', `  hcp create cluster kubevirt --name demo ${[...localClusterFlags(layout, 2), ...infraFlags].join(' ')}`]
      : [
          `The hosted cluster ${hostedCluster.namespace}/${hostedCluster.name} (${hostedCluster.availabilityPolicy}) is available${hostedCluster.nodes.length === 0 ? '' : ` with worker Node(s) ${hostedCluster.nodes.join(', ')}`}:`,
          `  ${kubectl} --kubeconfig ${hostedCluster.kubeconfig} get nodes`,
          `  hcp local status --state-dir ${layout.stateDir}   (the machines behind them)`,
          `  its applications: an Ingress for <app>.${hostedCluster.appsDomain} answers at https://<app>.${hostedCluster.appsDomain} (curl and browsers resolve *.localhost here)`,
        ];
  return [...management, ...hosted, ''].join('\n');
}

/** `--release-image`, `--registry-config` and `--registry-ca-file`, their files read and checked. */
function userRegistryFlags(f: FlagReader, ctx: CommandContext): UserRegistry {
  const [releaseImage, config, ca] = [f.string('release-image'), f.string('registry-config'), f.string('registry-ca-file')];
  return {
    ...(releaseImage === '' ? {} : { releaseImage }),
    ...(config === '' ? {} : { config: readRegistryConfigFile(ctx, 'registry-config', config) }),
    ...(ca === '' ? {} : { ca: readTrustBundleFile(ctx, 'registry-ca-file', ca, 'registry CA') }),
  };
}

/** The release hosted clusters of the environment run, and what `hcp create cluster` reads it with. */
function releaseOfEnvironment(layout: EnvironmentLayout, userRegistry: UserRegistry): Record<string, string> {
  if (userRegistry.releaseImage !== undefined) {
    const access = registryAccessPaths(layout);
    return { releaseImage: userRegistry.releaseImage, pullSecret: access.pullSecret, additionalTrustBundle: access.trustBundle };
  }
  const own = releaseRegistryPaths(layout);
  return { releaseImage: LOCAL_RELEASE_IMAGE, pullSecret: own.pullSecret, imageContentSources: own.imageContentSources };
}

/** `hcp local up`. */
export async function runUp(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const { stateDir, json, f } = readFlags(args, ctx);
  const workers = workersFlag(f);
  const layout = await asUserErrors(() => Promise.resolve(layoutForUp(stateDir, args.set.has('nodes') ? f.number('nodes') : undefined)));
  const report = reporter(ctx, json);
  const started = ctx.now().getTime();
  const machineBackend = await asUserErrors(() => Promise.resolve(machineBackendForUp(stateDir, f.string('machine-backend'))));
  if (f.bool('install-prerequisites')) await asUserErrors(() => installPrerequisites(ctx, json, machineBackend === 'vm'));
  const buildLog = (line: string): void => (json ? undefined : ctx.stderr(`  ${line}\n`));
  const userRegistry = await asUserErrors(() => Promise.resolve(userRegistryForUp(recordedUserRegistry(layout), userRegistryFlags(f, ctx), machineBackend, stateDir)));
  const root = projectRoot();
  const env = await asUserErrors(() =>
    upEnvironment({ layout, report, buildLog, operator: { image: DEFAULT_OPERATOR_IMAGE, node: nodeExecutable(), projectDir: root }, infraCluster: f.bool('infra-cluster'), machineBackend, userRegistry }),
  );
  await asUserErrors(() => installOperator(env, report, ctx));
  const clusterName = f.string('hosted-cluster');
  const hostedCluster = clusterName === '' ? undefined : await upHostedCluster({ layout, kubeconfig: env.kubeconfig, ...(env.infra === undefined ? {} : { infra: env.infra }) }, { name: clusterName, workers }, report, ctx);
  const result = {
    state: 'running',
    kubeconfig: env.kubeconfig,
    server: env.server,
    nodes: layout.nodes.length,
    machineBackend,
    operatorImage: env.operatorImage,
    ...releaseOfEnvironment(layout, userRegistry),
    ...(env.infra === undefined ? {} : { infraCluster: { kubeconfig: env.infra.kubeconfig, namespace: env.infra.namespace } }),
    ...(hostedCluster === undefined ? {} : { hostedCluster }),
    elapsedSeconds: Math.round((ctx.now().getTime() - started) / 100) / 10,
  };
  if (json) {
    ctx.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  ctx.stdout(describeUp(layout, { ...env, published: userRegistry.releaseImage }, hostedCluster, seconds(ctx.now().getTime() - started)));
}

/** `hcp local down`. */
export async function runDown(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const { stateDir, json, f } = readFlags(args, ctx);
  const { hostedClusters } = await asUserErrors(() => downEnvironment({ layout: existingLayout(stateDir), force: f.bool('force'), report: reporter(ctx, json) }));
  if (json) ctx.stdout(`${JSON.stringify({ state: 'stopped', removedHostedClusters: hostedClusters ?? null })}\n`);
  else ctx.stdout(`The local environment is gone${hostedClusters === undefined ? ' (its hosted clusters could not be listed)' : hostedClusters.length > 0 ? ` (with hosted clusters ${hostedClusters.join(', ')})` : ''}.\n`);
}

function describeInfraCluster(infra: InfraClusterStatus): string[] {
  return [
    'infrastructure cluster:',
    `  API server:  ${infra.server} (${String(infra.nodes)} node(s))`,
    `  kubeconfig:  ${infra.kubeconfig} (administrator); ${infra.userKubeconfig} (limited user, namespace ${infra.namespace})`,
    ...Object.entries(infra.daemons).map(([name, d]) => `  ${name.padEnd(24)}${d.running ? `running (pid ${String(d.pid)})` : 'stopped'}`),
  ];
}

function describeStatus(s: EnvironmentStatus): string {
  const daemons = Object.entries(s.daemons).map(([name, d]) => `  ${name.padEnd(24)}${d.running ? `running (pid ${String(d.pid)})` : 'stopped'}`);
  return [
    `state:       ${s.state}`,
    `state dir:   ${s.stateDir}`,
    `kubeconfig:  ${s.kubeconfig}`,
    `API server:  ${s.server}`,
    `nodes:       ${String(s.nodes)}`,
    `hosted clusters: ${s.hostedClusters === null ? 'unknown (the API server does not answer)' : s.hostedClusters.length === 0 ? 'none' : s.hostedClusters.join(', ')}`,
    `machine backend: ${s.machineBackend} (new machines; hcp local up --machine-backend process|vm)`,
    `release:     ${s.releaseImage}`,
    `object store: ${s.objectStore.endpoint}/${s.objectStore.bucket} (S3, region ${s.objectStore.region}; credentials ${s.objectStore.credentialsFile}, CA ${s.objectStore.caFile})`,
    `machines:    ${s.machines.length === 0 ? 'none' : s.machines.map((m) => `${m.vm} on ${m.cluster} (${m.backend}, ${m.address}${m.running ? '' : ', stopped'})`).join(', ')}`,
    'daemons:',
    ...daemons,
    ...(s.infraCluster === null ? [] : describeInfraCluster(s.infraCluster)),
    '',
  ].join('\n');
}

/** `hcp local status`: exit 0 when running, 1 otherwise (so scripts can wait on it). */
export async function runStatus(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const { stateDir, json } = readFlags(args, ctx);
  const status = await environmentStatus(existingLayout(stateDir));
  ctx.stdout(json ? `${JSON.stringify(status, null, 2)}\n` : describeStatus(status));
  if (status.state !== 'running') throw new UserError(status.state === 'stopped' ? 'the local environment is not running: start it with hcp local up' : 'the local environment is degraded: run hcp local up to restart what is missing, or hcp local down');
}

/** `hcp local kubevirt-standin`: runs until stopped (by `hcp local down`, with the environment). */
export async function runStandIn(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const stateDir = stateDirOf(new FlagReader(args.values), ctx.env);
  const { runKubeVirtStandIn } = await import('../../../local/kubevirt/run.ts');
  await runKubeVirtStandIn(existingLayout(stateDir));
}

/** `hcp local router`: the environment's router daemon (see local/router/run.ts). */
export async function runRouterDaemon(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const stateDir = stateDirOf(new FlagReader(args.values), ctx.env);
  const { runRouter } = await import('../../../local/router/run.ts');
  await runRouter(existingLayout(stateDir));
}
