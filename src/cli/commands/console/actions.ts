/**
 * What the console's buttons do. Creating, rendering, reading a kubeconfig and destroying run the `hcp` commands
 * themselves, in-process, with the user's kubeconfig: the console adds no behaviour of its own and needs no rights of
 * its own. Scaling is one merge patch of the NodePool, as `oc scale nodepool` would make.
 */
import { randomBytes } from 'node:crypto';
import type { KubeClient } from '../../../kube/client.ts';
import { isUserError, UserErrors } from '../../framework/errors.ts';
import { memoryContext } from '../../framework/memory-context.ts';
import type { HcpRunner } from '../../framework/command.ts';
import { fieldOfMessage, formToArgs, type ClusterForm } from './wizard.ts';

/** A refusal the page shows: at a field of the form, or for the action as a whole. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** What an action's command printed, or the errors that stopped it. */
export interface ActionResult {
  readonly ok: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly errors: readonly FieldError[];
}

/** Who the console acts as: the user's kubeconfig flag (empty: the default resolution) and environment. */
export interface ConsoleIdentity {
  readonly kubeconfig: string;
  readonly env: NodeJS.ProcessEnv;
  /** The namespace of the kubeconfig's context: the page shows it when the user may not list all namespaces. */
  readonly namespace?: string;
}

/** Randomness and time of a command run (tests fix them, to compare renders byte for byte). */
export interface RunIo {
  readonly randomBytes: (n: number) => Uint8Array;
  readonly now: () => Date;
}
const REAL_IO: RunIo = { randomBytes: (n) => randomBytes(n), now: () => new Date() };

/** What an in-process hcp run reads: its files (from memory), its environment, and its randomness and time. */
interface RunInput {
  readonly files?: Readonly<Record<string, string>>;
  readonly env?: NodeJS.ProcessEnv;
  readonly io?: RunIo;
}

/** Runs an hcp command line in-process, its files from memory, and collects what it printed. */
export async function runHcpCommand(hcp: HcpRunner, argv: readonly string[], input: RunInput = {}): Promise<ActionResult> {
  const run = memoryContext({ files: input.files ?? {}, env: input.env ?? {}, ...(input.io ?? REAL_IO) });
  try {
    await hcp(argv, run.ctx);
    return { ok: true, stdout: run.stdout(), stderr: run.stderr(), errors: [] };
  } catch (error) {
    if (!isUserError(error)) throw error;
    const errors = (error instanceof UserErrors ? error.errors : [error]).map(({ message }) => ({ field: fieldOfMessage(message), message }));
    return { ok: false, stdout: run.stdout(), stderr: run.stderr(), errors };
  }
}

const kubeconfigFlag = (who: ConsoleIdentity): string[] => (who.kubeconfig === '' ? [] : [`--kubeconfig=${who.kubeconfig}`]);

/**
 * The form with the address NodePort services are published at, when it asks for NodePort without one: the first
 * node's, read as the user (what `hcp create cluster` does when it applies), so the review shows what will be made.
 */
export async function withPublishedAddress(client: KubeClient, form: ClusterForm): Promise<ClusterForm | ActionResult> {
  if (form.servicePublishingStrategy !== 'NodePort' || (form.apiServerAddress ?? '').trim() !== '') return form;
  const { firstNodeAddress } = await import('../create/cluster/apply.ts');
  try {
    return { ...form, apiServerAddress: await firstNodeAddress(client) };
  } catch (error) {
    if (!isUserError(error)) throw error;
    return { ok: false, stdout: '', stderr: '', errors: [{ field: 'apiServerAddress', message: error.message }] };
  }
}

/** The refusal of an uploaded infrastructure kubeconfig that would run a program or read a file here, if it would. */
async function unsafeUpload(form: ClusterForm): Promise<ActionResult | undefined> {
  if (typeof form.infraKubeconfig !== 'string' || form.infraKubeconfig.trim() === '') return undefined;
  const { untrustedKubeconfigProblem } = await import('../../../kube/untrusted-kubeconfig.ts');
  const problem = untrustedKubeconfigProblem(form.infraKubeconfig);
  if (problem === undefined) return undefined;
  const message = `the infrastructure kubeconfig may carry its credentials inline only (certificate-authority-data, client-certificate-data, client-key-data, token): the console does not run programs or read files of this machine for it: ${problem}`;
  return { ok: false, stdout: '', stderr: '', errors: [{ field: 'infraKubeconfig', message }] };
}

/** `hcp create cluster kubevirt --render` for the form: the YAML, or every violation at its field. */
export async function renderForm(hcp: HcpRunner, form: ClusterForm, io: RunIo = REAL_IO): Promise<ActionResult> {
  const refused = await unsafeUpload(form);
  if (refused !== undefined) return refused;
  const { argv, files } = formToArgs(form);
  return runHcpCommand(hcp, ['create', 'cluster', 'kubevirt', ...argv, '--render'], { files, io });
}

/** `hcp create cluster kubevirt` for the form, as the user. */
export async function createFromForm(hcp: HcpRunner, form: ClusterForm, who: ConsoleIdentity): Promise<ActionResult> {
  const refused = await unsafeUpload(form);
  if (refused !== undefined) return refused;
  const { argv, files } = formToArgs(form);
  return runHcpCommand(hcp, ['create', 'cluster', 'kubevirt', ...argv, ...kubeconfigFlag(who)], { files, env: who.env });
}

/** `hcp create kubeconfig` for one cluster, as the user. */
export async function kubeconfigOf(hcp: HcpRunner, namespace: string, name: string, who: ConsoleIdentity): Promise<ActionResult> {
  return runHcpCommand(hcp, ['create', 'kubeconfig', `--namespace=${namespace}`, `--name=${name}`, ...kubeconfigFlag(who)], { env: who.env });
}

/** `hcp destroy cluster kubevirt` for one cluster, as the user; it returns once the cluster is gone. */
export async function destroyCluster(hcp: HcpRunner, namespace: string, name: string, who: ConsoleIdentity): Promise<ActionResult> {
  return runHcpCommand(hcp, ['destroy', 'cluster', 'kubevirt', `--namespace=${namespace}`, `--name=${name}`, ...kubeconfigFlag(who)], { env: who.env });
}

/** A NodePool's new size: a fixed count, or autoscaling bounds. */
export type PoolSize = { readonly replicas: number } | { readonly autoScaling: { readonly min: number; readonly max: number } };

/** Checks a size a page sent; the reasons, at their fields. */
export function checkPoolSize(body: unknown): { size?: PoolSize; errors: FieldError[] } {
  const b = body as { replicas?: unknown; autoScaling?: { min?: unknown; max?: unknown } } | null;
  const whole = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 1000;
  if (b?.autoScaling !== undefined) {
    const { min, max } = b.autoScaling;
    if (!whole(min) || min < 1) return { errors: [{ field: 'min', message: 'the minimum must be a whole number from 1' }] };
    if (!whole(max) || max < min) return { errors: [{ field: 'max', message: 'the maximum must be a whole number no smaller than the minimum' }] };
    return { size: { autoScaling: { min, max } }, errors: [] };
  }
  if (!whole(b?.replicas)) return { errors: [{ field: 'replicas', message: 'replicas must be a whole number from 0 to 1000' }] };
  return { size: { replicas: b.replicas }, errors: [] };
}

/** Sets a NodePool's size as the user; a fixed count ends autoscaling and bounds end a fixed count, as the API asks. */
export async function scaleNodePool(client: KubeClient, ref: { namespace: string; name: string }, size: PoolSize): Promise<void> {
  const spec = 'replicas' in size ? { replicas: size.replicas, autoScaling: null } : { replicas: null, autoScaling: size.autoScaling };
  await client.mergePatch({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'NodePool', ...ref }, { spec });
}

/** What the capacity page asks: offline figures (workers, vCPUs and memory of each), or live; a load and a policy. */
export interface CapacityForm {
  readonly workers?: number;
  readonly vcpu?: number;
  readonly memory?: string;
  readonly qps?: number;
  readonly availabilityPolicy?: string;
}

const numberFlag = (name: string, v: unknown): string[] => (typeof v === 'number' && Number.isFinite(v) ? [`--${name}=${String(v)}`] : []);

/** `hcp capacity --output json`: offline when the form gives workers, else live from the management cluster as the user. */
export async function capacityOf(hcp: HcpRunner, form: CapacityForm, who: ConsoleIdentity): Promise<ActionResult> {
  const offline = typeof form.workers === 'number';
  const argv = [
    'capacity',
    '--output=json',
    ...(typeof form.availabilityPolicy === 'string' && form.availabilityPolicy !== '' ? [`--availability-policy=${form.availabilityPolicy}`] : []),
    ...numberFlag('qps', form.qps),
    ...(offline ? [...numberFlag('workers', form.workers), ...numberFlag('vcpu', form.vcpu), `--memory=${typeof form.memory === 'string' ? form.memory : ''}`] : kubeconfigFlag(who)),
  ];
  return runHcpCommand(hcp, argv, { env: offline ? {} : who.env });
}
