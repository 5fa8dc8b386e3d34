import type { HostedCluster } from '../../../api/index.ts';
import type { KubeClient } from '../../../kube/client.ts';
import { fromBase64 } from '../../../lib/base64.ts';
import { toYaml } from '../../../lib/yaml.ts';
import { parseYaml } from '../../../lib/yaml-read.ts';
import type { CommandContext } from '../../framework/command.ts';
import { invalidFlag, UserError } from '../../framework/errors.ts';
import { FlagReader, type ParsedArgs } from '../../framework/parse.ts';
import { withManagementCluster } from '../management.ts';
import { handOutProblem } from '../../../kube/untrusted-kubeconfig.ts';

const HC = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster' } as const;

interface Kubeconfig {
  clusters?: Array<{ name: string; cluster: Record<string, unknown> }>;
  users?: Array<{ name: string; user: Record<string, unknown> }>;
}

/**
 * The admin kubeconfig of a HostedCluster, as published in the Secret its status names. That Secret is in the tenant's
 * namespace, where it can be edited: one asking for more than inline credentials (a program to run, a file to read)
 * is not what the operator published, and is refused rather than handed to whoever runs kubectl with it.
 */
export async function adminKubeconfig(client: KubeClient, hc: HostedCluster): Promise<string> {
  const secretName = hc.status?.kubeconfig?.name;
  if (secretName === undefined || secretName === '') throw new UserError(`cluster ${hc.metadata.namespace ?? ''}/${hc.metadata.name ?? ''} doesn't report a kubeconfig`);
  const secret = await client.get<{ apiVersion: string; kind: string; data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', name: secretName, namespace: hc.metadata.namespace });
  const data = secret.data?.['kubeconfig'];
  if (data === undefined) throw new UserError(`kubeconfig secret ${secretName} has no kubeconfig`);
  return handedOn(fromBase64(data), `${hc.metadata.namespace ?? ''}/${secretName}`);
}

/** The kubeconfig, unless it asks for more than inline credentials (see {@link adminKubeconfig}). */
function handedOn(kubeconfig: string, secret: string): string {
  const problem = handOutProblem(kubeconfig);
  if (problem !== undefined) throw new UserError(`kubeconfig secret ${secret}: ${problem}; the operator publishes inline credentials only, so this is not its kubeconfig: refusing to hand it on`);
  return kubeconfig;
}

const firstEntries = (config: Kubeconfig): { cluster: Record<string, unknown>; user: Record<string, unknown> } => ({
  cluster: config.clusters?.[0]?.cluster ?? {},
  user: config.users?.[0]?.user ?? {},
});

/** Merges the first cluster and user of each hosted cluster's kubeconfig into one, with one context per cluster. */
async function mergedKubeconfig(client: KubeClient, namespace: string): Promise<string> {
  const clusters = (await client.list<HostedCluster>(HC.apiVersion, HC.kind, { namespace })).filter((hc) => hc.status?.kubeconfig?.name !== undefined);
  if (clusters.length === 0) throw new UserError(`no HostedCluster in namespace ${namespace} reports a kubeconfig yet`);
  const merged = { apiVersion: 'v1', kind: 'Config', clusters: [] as unknown[], users: [] as unknown[], contexts: [] as unknown[], 'current-context': '', preferences: {} };
  for (const hc of clusters) {
    const id = `${namespace}-${hc.metadata.name ?? ''}`;
    const entry = firstEntries(parseYaml(await adminKubeconfig(client, hc)) as Kubeconfig);
    merged.clusters.push({ name: id, cluster: entry.cluster });
    merged.users.push({ name: `${id}-admin`, user: entry.user });
    merged.contexts.push({ name: id, context: { cluster: id, user: `${id}-admin`, namespace: 'default' } });
  }
  merged['current-context'] = `${namespace}-${clusters[0]?.metadata.name ?? ''}`;
  return toYaml(merged);
}

/** Runs `hcp create kubeconfig` (loaded on demand: it needs the cluster client). */
export async function run(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const f = new FlagReader(args.values);
  if (f.bool('port-forward')) throw invalidFlag('port-forward', 'true', 'only private clusters need it, and KubeVirt hosted clusters are not private');
  const name = f.string('name');
  const namespace = f.string('namespace');
  const kubeconfig = await withManagementCluster(f.string('kubeconfig'), ctx, 'failed to read the kubeconfig', async (client) => {
    if (name === '') return mergedKubeconfig(client, namespace);
    const hc = await client.tryGet<HostedCluster>({ ...HC, name, namespace });
    if (hc === undefined) throw new UserError(`hostedcluster ${namespace}/${name} not found`);
    return adminKubeconfig(client, hc);
  });
  ctx.stdout(kubeconfig);
}

