import { Label } from '../../../../api/v1beta1/well-known.ts';
import { KubeClient, type KubeObject } from '../../../../kube/client.ts';
import { isForbidden } from '../../../../kube/errors.ts';
import { checkInfraAccess, type InfraAccessProblem } from '../../../../kube/infra-access.ts';
import type { ClusterInput } from '../../../../render/cluster/input.ts';
import type { KubeManifest } from '../../../../api/manifest.ts';
import type { CommandContext } from '../../../framework/command.ts';
import { UserError } from '../../../framework/errors.ts';

/** The field manager of everything `hcp` applies, as upstream's CLI. */
export const CLI_FIELD_MANAGER = 'hypershift-cli';

async function refuseExisting(client: KubeClient, input: ClusterInput): Promise<void> {
  const existing = await client.tryGet({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name: input.name, namespace: input.namespace });
  if (existing !== undefined) throw new UserError(`hostedcluster ${input.namespace}/${input.name} already exists`);
}

/** One line per problem, naming the flag to fix. */
function infraProblemMessage(problem: InfraAccessProblem, namespace: string): string {
  if (problem.kind === 'unreachable') return `cannot reach the infra cluster of --infra-kubeconfig-file: ${problem.reason}`;
  if (problem.kind === 'namespace-missing') return `invalid --infra-namespace "${namespace}": the namespace does not exist on the infra cluster; create it first`;
  return `the infra kubeconfig user may not create virtualmachines.kubevirt.io in namespace "${namespace}": grant it the Role from the external infrastructure documentation`;
}

/**
 * Checks the external infrastructure before anything is created: the kubeconfig reaches its cluster, the namespace
 * exists, and its user may create VirtualMachines there. Each failure is one line.
 */
async function checkInfra(input: ClusterInput): Promise<void> {
  const infra = input.infraCredentials;
  if (infra === undefined) return;
  const client = KubeClient.fromKubeconfigText(infra.kubeconfig);
  try {
    const problem = await checkInfraAccess(client, infra.namespace);
    if (problem !== undefined) throw new UserError(infraProblemMessage(problem, infra.namespace));
  } finally {
    client.close();
  }
}

function labelled(object: KubeManifest, infraID: string): KubeObject {
  return { ...object, metadata: { ...object.metadata, labels: { ...object.metadata.labels, [Label.AutoCreatedForInfra]: infraID } } };
}

/**
 * Whether the cluster's namespace exists. A tenant, whose rights end at its namespace, may not read Namespaces (403):
 * it works in one a platform admin made, so the namespace is taken to exist.
 */
async function namespaceExists(client: KubeClient, namespace: string): Promise<boolean> {
  try {
    return (await client.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: namespace })) !== undefined;
  } catch (error) {
    if (isForbidden(error)) return true;
    throw error;
  }
}

/** Asks the server to validate every write first (when the namespace exists), so a refusal leaves nothing behind. */
async function dryRun(client: KubeClient, input: ClusterInput, objects: readonly KubeObject[]): Promise<void> {
  if (!(await namespaceExists(client, input.namespace))) return;
  for (const object of objects) {
    if (object.kind === 'HostedCluster') await client.create(object, { dryRun: true });
    else await client.apply(object, { fieldManager: CLI_FIELD_MANAGER, force: true, dryRun: true });
  }
}

/**
 * Applies the rendered objects to the management cluster: refuses an existing HostedCluster, checks external
 * infrastructure access first, then creates the HostedCluster and server-side-applies everything else with the
 * `hypershift-cli` field manager. Nothing is written when a check fails.
 */
/** A node's addresses as the Node API reports them. */
interface NodeAddresses {
  status?: { addresses?: Array<{ type: string; address: string }> };
}

/**
 * Upstream's NodePort address when none is given: the first node's external DNS name, else its external IP, else its
 * internal IP.
 */
export async function withNodeAddress(client: KubeClient, input: ClusterInput): Promise<ClusterInput> {
  return { ...input, servicePublishing: { type: 'NodePort', address: await firstNodeAddress(client) } };
}

/** The address NodePort services are published at when none is given (see {@link withNodeAddress}). */
export async function firstNodeAddress(client: KubeClient): Promise<string> {
  let nodes: Array<KubeObject & NodeAddresses>;
  try {
    nodes = await client.list<KubeObject & NodeAddresses>('v1', 'Node');
  } catch (error) {
    throw new UserError(`unable to fetch node objects: ${error instanceof Error ? error.message : String(error)}`);
  }
  const addresses = new Map((nodes[0]?.status?.addresses ?? []).map((a) => [a.type, a.address]));
  if (nodes.length === 0) throw new UserError('no node objects found');
  const address = ['ExternalDNS', 'ExternalIP', 'InternalIP'].map((t) => addresses.get(t)).find((a) => a !== undefined && a !== '');
  if (address === undefined) throw new UserError(`node ${String(nodes[0]?.metadata?.name)} reports no ExternalDNS, ExternalIP or InternalIP address: give --api-server-address`);
  return address;
}

export async function applyCluster(client: KubeClient, input: ClusterInput, objects: readonly KubeManifest[], ctx: CommandContext): Promise<void> {
  await refuseExisting(client, input);
  await checkInfra(input);
  // An existing namespace is left as it is: a tenant may not change it, and its labels are its owner's.
  const existing = await namespaceExists(client, input.namespace);
  const labelledObjects = objects.filter((o) => !(existing && o.kind === 'Namespace')).map((o) => labelled(o, input.infraID));
  await dryRun(client, input, labelledObjects);
  for (const object of labelledObjects) {
    if (object.kind === 'HostedCluster') await client.create(object);
    else await client.apply(object, { fieldManager: CLI_FIELD_MANAGER, force: true });
    ctx.stderr(`Applied Kube resource ${object.kind} ${object.metadata?.namespace === undefined ? '' : `${object.metadata.namespace}/`}${String(object.metadata?.name)}\n`);
  }
}
