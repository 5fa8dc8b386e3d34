import type { HostedCluster } from '../../../api/index.ts';
import { Annotation, Label } from '../../../api/v1beta1/well-known.ts';
import type { KubeClient } from '../../../kube/client.ts';
import { formatDuration } from '../../../lib/duration.ts';
import type { CommandContext } from '../../framework/command.ts';
import { throwIfAny, UserError } from '../../framework/errors.ts';
import { FlagReader, type ParsedArgs } from '../../framework/parse.ts';
import { withManagementCluster } from '../management.ts';


const HC = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster' } as const;

/** Options of {@link destroy}. */
interface DestroyOptions {
  readonly name: string;
  readonly namespace: string;
  readonly infraID: string;
  readonly gracePeriodMs: number;
  readonly cleanup: boolean;
}

async function waitForDeletion(client: KubeClient, ctx: CommandContext, o: DestroyOptions): Promise<void> {
  const ref = { ...HC, name: o.name, namespace: o.namespace };
  const started = ctx.now().getTime();
  let lastReport = -Infinity;
  for (;;) {
    const hc = await client.tryGet<HostedCluster>(ref);
    if (hc === undefined) return;
    const elapsed = ctx.now().getTime() - started;
    if (elapsed >= o.gracePeriodMs) {
      const finalizers = hc.metadata.finalizers ?? [];
      throw new UserError(
        `HostedCluster ${o.namespace}/${o.name} is still being deleted after ${formatDuration(o.gracePeriodMs)}` +
          (finalizers.length === 0 ? '' : ` (waiting on finalizers: ${finalizers.join(', ')})`) +
          `; left behind: the HostedCluster and the Secrets labelled ${Label.AutoCreatedForInfra}=${o.infraID}; run destroy again to keep waiting`,
      );
    }
    if (elapsed - lastReport >= 10_000) {
      ctx.stderr(`Waiting for HostedCluster ${o.namespace}/${o.name} to be deleted (${formatDuration(Math.floor(elapsed / 1000) * 1000)} of ${formatDuration(o.gracePeriodMs)})\n`);
      lastReport = elapsed;
    }
    // Often: the last steps of a deletion take a second or two, and this GET is cheap.
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function deleteCliSecrets(client: KubeClient, ctx: CommandContext, o: DestroyOptions): Promise<void> {
  const secrets = await client.list('v1', 'Secret', { namespace: o.namespace, labelSelector: `${Label.AutoCreatedForInfra}=${o.infraID}` });
  for (const s of secrets) {
    await client.delete({ apiVersion: 'v1', kind: 'Secret', name: String(s.metadata?.name), namespace: o.namespace });
    ctx.stderr(`Deleted Secret ${o.namespace}/${String(s.metadata?.name)}\n`);
  }
}

async function destroy(client: KubeClient, ctx: CommandContext, given: DestroyOptions): Promise<void> {
  const hc = await client.tryGet<HostedCluster>({ ...HC, name: given.name, namespace: given.namespace });
  if (hc === undefined) {
    ctx.stderr('Hosted cluster not found, destroying infrastructure from user input\n');
    if (given.infraID === '') throw new UserError('required inputs are missing: infrastructure ID is required (--infra-id)');
    await deleteCliSecrets(client, ctx, given);
    return;
  }
  const o = { ...given, infraID: given.infraID === '' ? (hc.spec.infraID ?? '') : given.infraID };
  if (o.cleanup) await client.mergePatch({ ...HC, name: o.name, namespace: o.namespace }, { metadata: { annotations: { [Annotation.CleanupCloudResources]: 'true' } } });
  await client.delete({ ...HC, name: o.name, namespace: o.namespace });
  ctx.stderr(`Deleting HostedCluster ${o.namespace}/${o.name}\n`);
  await waitForDeletion(client, ctx, o);
  if (o.infraID !== '') await deleteCliSecrets(client, ctx, o);
  ctx.stderr(`Destroyed HostedCluster ${o.namespace}/${o.name}\n`);
}

/** Runs `hcp destroy cluster kubevirt` (loaded on demand: it needs the cluster client). */
export async function run(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const f = new FlagReader(args.values);
  throwIfAny(f.string('name') === '' ? [new UserError('--name is required')] : []);
  const options = {
    name: f.string('name'),
    namespace: f.string('namespace'),
    infraID: f.string('infra-id'),
    gracePeriodMs: f.number('cluster-grace-period'),
    cleanup: f.bool('destroy-cloud-resources'),
  };
  await withManagementCluster(f.string('kubeconfig'), ctx, 'failed to destroy the cluster', (client) => destroy(client, ctx, options));
}

