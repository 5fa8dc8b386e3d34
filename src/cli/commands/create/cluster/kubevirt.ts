import { toYamlDocuments } from '../../../../lib/yaml.ts';
import { renderCluster, renderedForOutput } from '../../../../render/cluster/render.ts';
import type { Command, CommandContext } from '../../../framework/command.ts';
import { throwIfAny } from '../../../framework/errors.ts';
import { FlagReader, type ParsedArgs } from '../../../framework/parse.ts';
import { CREATE_CLUSTER_KUBEVIRT_FLAGS } from '../../../options/cluster-flags.ts';
import { refuseInvalidRendered } from '../../rendered.ts';
import { completeCreateCluster, readClusterFiles } from './complete.ts';
import { withDefaultRelease } from './default-release.ts';
import { clusterFiles, validateCreateCluster } from './validate.ts';

async function run(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const flags = new FlagReader(args.values);
  const { options, errors } = validateCreateCluster(flags);
  // File problems are reported with the flag problems, so one run shows everything that needs fixing.
  const files = await readClusterFiles(clusterFiles(flags), ctx);
  throwIfAny([...errors, ...files.errors]);
  if (options === undefined) return;
  for (const w of options.warnings) ctx.stderr(`WARNING: ${w}\n`);
  const completed = await withDefaultRelease(completeCreateCluster(options, files.contents, ctx, options.generateSsh ? await (await import('./ssh.ts')).generateSshKey() : undefined), flags.string('release-stream'), ctx);
  // A NodePort address left to be found on the cluster is only known once connected; everything else is checked now.
  const addressPending = completed.servicePublishing.type === 'NodePort' && completed.servicePublishing.address === '';
  const objects = addressPending ? [] : renderCluster(completed);
  // The API server would refuse what its CRD schema refuses: catch that here, with the same messages, before output.
  refuseInvalidRendered(objects);
  if (!options.render.enabled) {
    // Loaded only here, so rendering never pays for the cluster client.
    const [{ applyCluster, withNodeAddress }, { waitForCluster }, { withManagementCluster }] = await Promise.all([import('./apply.ts'), import('./wait.ts'), import('../../management.ts')]);
    await withManagementCluster(options.kubeconfig, ctx, 'failed to apply', async (client) => {
      const input = addressPending ? await withNodeAddress(client, completed) : completed;
      const applied = addressPending ? renderCluster(input) : objects;
      refuseInvalidRendered(applied);
      await applyCluster(client, input, applied, ctx);
      if (options.wait.enabled) await waitForCluster(client, ctx, { name: input.name, namespace: input.namespace, timeoutMs: options.wait.timeoutMs });
    });
    return;
  }
  const yaml = toYamlDocuments(renderedForOutput(objects, options.render.sensitive));
  if (options.render.into === '') ctx.stdout(yaml);
  else ctx.writeFile(options.render.into, yaml);
}

/** `hcp create cluster kubevirt`. */
export const createClusterKubevirt: Command = {
  name: 'kubevirt',
  summary: 'Creates basic functional HostedCluster resources for KubeVirt platform',
  flags: CREATE_CLUSTER_KUBEVIRT_FLAGS,
  run,
};
