/**
 * `hcp local demo`: the whole product in one command, as a newcomer would try it by hand. The environment with its
 * infrastructure cluster → a hosted cluster whose VMs go there through the limited user → Available → two worker
 * Nodes → `kubectl get nodes` → a workload spread over the workers answering through its Service, then over HTTPS
 * at its default-ingress name from this machine → `kubectl scale
 * nodepool --replicas 3` → a third Node → destroy → nothing of the cluster left on either cluster. Live progress, a
 * summary with each step's time, and at the first failure the step, the cause and where to look, with exit 1.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandContext } from '../../framework/command.ts';
import { throwIfAny, UserError } from '../../framework/errors.ts';
import type { ParsedArgs } from '../../framework/parse.ts';
import { DEFAULT_OPERATOR_IMAGE } from '../../build-info.ts';
import { KubeClient, type KubeObject } from '../../../kube/client.ts';
import { httpCall, waitFor } from '../../../local/cluster/http.ts';
import { locateBinaries } from '../../../local/binaries/locate.ts';
import { WEB, webIngress, webObjects } from '../../../local/environment/demo-workload.ts';
import { appsDomainOf } from '../../../api/v1beta1/dns.ts';
import type { HostedCluster } from '../../../api/index.ts';
import { caOfKubeconfigFile } from '../../../kube/kubeconfig.ts';
import { run as runHost } from '../../../local/environment/host.ts';
import type { InfraAccess } from '../../../local/environment/infra-cluster.ts';
import type { EnvironmentLayout } from '../../../local/environment/layout.ts';
import { localRelease } from '../../../local/environment/local-images.ts';
import { layoutForUp } from '../../../local/environment/state.ts';
import { upEnvironment } from '../../../local/environment/up.ts';
import { recordedUserRegistry } from '../../../local/environment/registry-access.ts';
import { recordedMachines } from '../../../local/kubevirt/machine-backend.ts';
import { projectRoot } from '../../../local/project-root.ts';
import { installOperator, installPrerequisites, readFlags, upHostedCluster, workersReady, type HostedClusterResult } from './local-run.ts';
import { quietContext, reporter, seconds } from '../../framework/progress.ts';
import { asUserErrors } from '../../framework/environment-errors.ts';
import { runNested } from '../../framework/run.ts';
import { nodeExecutable } from '../../node-executable.ts';
import type { Reporter } from '../../../lib/progress.ts';

/** One step of the summary. */
interface StepTime {
  readonly step: string;
  readonly seconds: number;
}

const MINUTE = 60_000;
const WORKERS = 2;

/** A reporter that also records each step's time (failed steps included), for the summary. */
function timed(inner: Reporter, steps: StepTime[], now: () => number): Reporter {
  return {
    async step(title, work) {
      const started = now();
      try {
        return await inner.step(title, work);
      } finally {
        steps.push({ step: title, seconds: Math.round((now() - started) / 100) / 10 });
      }
    },
  };
}

type Deployment = KubeObject & { status?: { readyReplicas?: number } };

/** The workload on the workers, and 20 answers from it through its Service (the API server's service proxy). */
async function serveWeb(kubectl: string, hostedKubeconfig: string): Promise<void> {
  const image = localRelease().images.coreDNS;
  const hosted = KubeClient.fromKubeconfigFile(hostedKubeconfig);
  try {
    for (const object of webObjects(image)) await hosted.apply(object, { fieldManager: 'hcp-local-demo', force: true });
    const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: WEB.name, namespace: WEB.namespace };
    await waitFor(`${String(WEB.replicas)} replicas of ${WEB.name} ready`, async () => (await hosted.get<Deployment>(ref)).status?.readyReplicas === WEB.replicas, { timeoutMs: 3 * MINUTE, intervalMs: 1000 });
  } finally {
    hosted.close();
  }
  const ask = async (): Promise<string> => (await runHost([kubectl, `--kubeconfig=${hostedKubeconfig}`, 'get', '--raw', WEB.proxyPath])).trim();
  // Each API server reaches the Service through the konnectivity agents, which find every replica behind the
  // load-balanced address within moments of their Nodes; until then a request may land on one without a tunnel
  // ("No agent available"). So: 20 answers in a row, within 2 minutes.
  let inARow = 0;
  await waitFor('20 answers in a row through the Service', async () => {
    inARow = (await ask().catch(() => '')) === 'OK' ? inARow + 1 : 0;
    return inARow >= 20;
  }, { timeoutMs: 2 * MINUTE, intervalMs: 100 });
}

/**
 * The workload opened from this machine as a user would in a browser: an Ingress at `web.<the cluster's apps
 * domain>`, answered over HTTPS through the environment's router, the default-ingress passthrough and the cluster's
 * ingress controller, verified against the cluster's own CA. Returns the URL.
 */
async function openFromHost(kubeconfig: string, name: string, hostedKubeconfig: string): Promise<string> {
  const management = KubeClient.fromKubeconfigFile(kubeconfig);
  const hosted = KubeClient.fromKubeconfigFile(hostedKubeconfig);
  try {
    const hc = await management.get<HostedCluster>({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name, namespace: 'clusters' });
    const domain = appsDomainOf(name, hc.spec.dns);
    if (domain === undefined) throw new Error(`clusters/${name} has no base domain yet`);
    await hosted.apply(webIngress(domain), { fieldManager: 'hcp-local-demo', force: true });
    const url = `https://${WEB.name}.${domain}/health`;
    const ca = caOfKubeconfigFile(hostedKubeconfig);
    await waitFor(`${url} answering`, async () => (await httpCall(url, { tls: { ca } })).body.trim() === 'OK', { timeoutMs: 3 * MINUTE, intervalMs: 1000 });
    return url;
  } finally {
    management.close();
    hosted.close();
  }
}

/** `kubectl scale nodepool --replicas 3`, as users do, until the third Node is Ready. */
async function scaleToThree(kubectl: string, kubeconfig: string, hosted: HostedClusterResult, stateDir: string): Promise<void> {
  await runHost([kubectl, `--kubeconfig=${kubeconfig}`, '-n', hosted.namespace, 'scale', 'nodepool', hosted.name, '--replicas=3']);
  await workersReady(readFileSync(hosted.kubeconfig, 'utf8'), 3, stateDir);
}

/** `hcp destroy cluster kubevirt`, then nothing of the cluster on either cluster: namespace, VMs, disks, machines. */
async function destroyAndVerify(env: { layout: EnvironmentLayout; kubeconfig: string; infra: InfraAccess }, name: string, ctx: CommandContext): Promise<void> {
  const management = KubeClient.fromKubeconfigFile(env.kubeconfig);
  const infraUser = KubeClient.fromKubeconfigFile(env.infra.kubeconfig);
  try {
    const hc = await management.get<KubeObject & { spec?: { infraID?: string } }>({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name, namespace: 'clusters' });
    const selector = { namespace: env.infra.namespace, labelSelector: `hypershift.openshift.io/infra-id=${hc.spec?.infraID ?? ''}` };
    const vms = (await infraUser.list('kubevirt.io/v1', 'VirtualMachine', selector)).map((vm) => `${env.infra.namespace}/${vm.metadata?.name ?? ''}`);
    await runNested(ctx, ['destroy', 'cluster', 'kubevirt', `--kubeconfig=${env.kubeconfig}`, `--name=${name}`], quietContext(ctx));
    const left = async (): Promise<string[]> => [
      ...((await management.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: `clusters-${name}` })) === undefined ? [] : [`namespace clusters-${name}`]),
      ...(await infraUser.list('kubevirt.io/v1', 'VirtualMachine', selector)).map((vm) => `VM ${vm.metadata?.name ?? ''}`),
      ...(await infraUser.list('cdi.kubevirt.io/v1beta1', 'DataVolume', selector)).map((dv) => `DataVolume ${dv.metadata?.name ?? ''}`),
      ...recordedMachines(env.layout).filter((m) => vms.includes(m.vm)).map((m) => `machine of ${m.vm}`),
    ];
    let remaining: string[] = [];
    await waitFor('nothing of the cluster left', async () => (remaining = await left()).length === 0, { timeoutMs: 5 * MINUTE, intervalMs: 1000 }).catch(() => {
      throw new Error(`still there: ${remaining.join(', ')}`);
    });
  } finally {
    management.close();
    infraUser.close();
  }
}

/** Runs a step; a failure names the step, the cause and where to look. */
async function demoStep<T>(report: Reporter, title: string, stateDir: string, work: () => Promise<T>): Promise<T> {
  try {
    return await report.step(title, work);
  } catch (error) {
    if (error instanceof UserError) throw error;
    const cause = error instanceof Error ? error.message : String(error);
    throw new UserError(`the demo stopped at "${title}": ${cause}\nlook at: hcp local status --state-dir ${stateDir}; the logs in ${join(stateDir, 'logs')} (kubevirt-standin.log, kubelet-<slot>.log) and ${join(stateDir, 'infra', 'logs')}`);
  }
}

function describeSummary(run: { name: string; steps: readonly StepTime[]; totalMs: number; nodes: string; url: string; stateDir: string }): string {
  const { name, steps, totalMs, nodes, url, stateDir } = run;
  return [
    nodes.trimEnd(),
    '',
    `${WEB.name} answered at ${url} (curl and browsers resolve *.localhost to this machine).`,
    '',
    `The demo ran in ${seconds(totalMs)}; clusters/${name} came, served, scaled and went. Step by step:`,
    ...steps.map((s) => `  ${s.seconds.toFixed(1).padStart(6)}s  ${s.step}`),
    `The environment keeps running: hcp local status --state-dir ${stateDir}; hcp local down --state-dir ${stateDir} removes it.`,
    '',
  ].join('\n');
}

/** `hcp local demo`. */
export async function runDemo(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const { stateDir, json, f } = readFlags(args, ctx);
  const name = f.string('name');
  throwIfAny(/^[a-z]([-a-z0-9]{0,38}[a-z0-9])?$/.test(name) ? [] : [new UserError(`invalid --name ${JSON.stringify(name)}: want a DNS label of at most 40 characters starting with a letter`, 'usage')]);
  const layout = await asUserErrors(() => Promise.resolve(layoutForUp(stateDir, undefined)));
  const published = recordedUserRegistry(layout).releaseImage;
  // The demo runs the environment's own release on process machines, which a published release's disk does not boot.
  if (published !== undefined) throw new UserError(`the local environment in ${stateDir} runs the published release ${published} (hcp local up --release-image): the demo needs the environment's own release; run hcp local down first, or use another --state-dir`);
  const steps: StepTime[] = [];
  const report = timed(reporter(ctx, json), steps, () => ctx.now().getTime());
  const started = ctx.now().getTime();
  if (f.bool('install-prerequisites')) await asUserErrors(() => installPrerequisites(ctx, json));
  const buildLog = (line: string): void => (json ? undefined : ctx.stderr(`  ${line}\n`));
  const up = await asUserErrors(() => upEnvironment({ layout, report, buildLog, operator: { image: DEFAULT_OPERATOR_IMAGE, node: nodeExecutable(), projectDir: projectRoot() }, infraCluster: true }));
  const infra = up.infra as InfraAccess;
  await asUserErrors(() => installOperator(up, report, ctx));
  const existing = await demoStep(report, `checking that clusters/${name} does not exist yet`, stateDir, async () => {
    const management = KubeClient.fromKubeconfigFile(up.kubeconfig);
    try {
      return await management.tryGet({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name, namespace: 'clusters' });
    } finally {
      management.close();
    }
  });
  if (existing !== undefined) throw new UserError(`clusters/${name} exists already: the demo makes and destroys its own cluster; pick another --name, or hcp destroy cluster kubevirt --name ${name}`);
  const env = { layout, kubeconfig: up.kubeconfig, infra };
  const hosted = await asUserErrors(() => upHostedCluster(env, { name, workers: WORKERS }, report, ctx));
  const kubectl = locateBinaries().kubectl ?? 'kubectl';
  const nodes = await demoStep(report, 'kubectl get nodes, with the kubeconfig of hcp create kubeconfig', stateDir, () => runHost([kubectl, `--kubeconfig=${hosted.kubeconfig}`, 'get', 'nodes', '-o', 'wide']));
  await demoStep(report, `deploying ${WEB.name} (${String(WEB.replicas)} replicas on different workers) and answering 20 requests through its Service`, stateDir, () => serveWeb(kubectl, hosted.kubeconfig));
  const url = await demoStep(report, `opening ${WEB.name} from this machine over HTTPS at its default-ingress name`, stateDir, () => openFromHost(up.kubeconfig, name, hosted.kubeconfig));
  await demoStep(report, `kubectl scale nodepool ${name} --replicas 3, until the third Node is Ready`, stateDir, () => scaleToThree(kubectl, up.kubeconfig, hosted, stateDir));
  await demoStep(report, `destroying clusters/${name} until nothing of it is left on either cluster`, stateDir, () => destroyAndVerify(env, name, ctx));
  const totalMs = ctx.now().getTime() - started;
  if (json) ctx.stdout(`${JSON.stringify({ name, steps, totalSeconds: Math.round(totalMs / 100) / 10, nodes: hosted.nodes, url, stateDir }, null, 2)}\n`);
  else ctx.stdout(describeSummary({ name, steps, totalMs, nodes, url, stateDir }));
  writeFileSync(join(stateDir, 'demo-summary.json'), `${JSON.stringify({ name, steps, totalSeconds: Math.round(totalMs / 100) / 10 }, null, 2)}\n`);
}
