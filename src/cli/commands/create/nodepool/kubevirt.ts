import type { NodePoolArch, UpgradeType } from '../../../../api/index.ts';
import type { KubeClient } from '../../../../kube/client.ts';
import { toYaml } from '../../../../lib/yaml.ts';
import { kubevirtNodePoolPlatform, validateKubevirtNodePoolFlags } from '../../../../platform/kubevirt/nodepool-platform.ts';
import { renderNodePool } from '../../../../render/nodepool/nodepool.ts';
import type { Command, CommandContext } from '../../../framework/command.ts';
import { invalidFlag, throwIfAny, UserError } from '../../../framework/errors.ts';
import { flag, type FlagSpec } from '../../../framework/flags.ts';
import { FlagReader, type ParsedArgs } from '../../../framework/parse.ts';
import { KUBEVIRT_NODEPOOL_FLAGS, kubevirtNodePoolFlags } from '../../../options/kubevirt-nodepool-flags.ts';
import { refuseInvalidRendered } from '../../rendered.ts';

/** The flags every `hcp create nodepool <platform>` shares (upstream `product-cli/cmd/nodepool/create.go`). */
const CREATE_NODEPOOL_FLAGS: readonly FlagSpec[] = [
  flag('name', 'string', '', 'The name of the NodePool.'),
  flag('namespace', 'string', 'clusters', 'The namespace in which to create the NodePool.'),
  flag('replicas', 'int32', 2, 'The number of nodes to create in the NodePool.'),
  flag('node-count', 'int32', 2, 'The number of nodes to create in the NodePool (deprecated: use --replicas).'),
  flag('cluster-name', 'string', 'example', 'The name of the HostedCluster nodes in this pool will join.'),
  flag('release-image', 'string', '', 'The release image for nodes; if this is empty, defaults to the same release image as the HostedCluster.'),
  flag('node-upgrade-type', 'string', '', 'The NodePool upgrade strategy for how nodes should behave when upgraded. Supported options: Replace, InPlace'),
  flag('render', 'bool', false, 'Render output as YAML to stdout instead of applying.'),
  flag('auto-repair', 'bool', false, 'Enables machine autorepair with machine health checks.'),
  flag('arch', 'string', 'amd64', 'The processor architecture for the NodePool (e.g. amd64, s390x)'),
  flag('kubeconfig', 'string', '', 'Path to a kubeconfig file for the management cluster. If not specified, the default kubeconfig resolution is used.'),
];

const bad = invalidFlag;

function validate(f: FlagReader, args: ParsedArgs): UserError[] {
  const errors: UserError[] = [];
  if (f.string('name') === '') errors.push(new UserError('--name is required'));
  if (!['amd64', 's390x'].includes(f.string('arch'))) errors.push(bad('arch', f.string('arch'), 'the KubeVirt platform runs only amd64, s390x nodes'));
  if (!['', 'Replace', 'InPlace'].includes(f.string('node-upgrade-type'))) errors.push(bad('node-upgrade-type', f.string('node-upgrade-type'), 'supported values are Replace, InPlace'));
  if (args.set.has('node-count') && args.set.has('replicas')) errors.push(new UserError('--node-count and --replicas cannot be specified together; --node-count is deprecated'));
  errors.push(...validateKubevirtNodePoolFlags(kubevirtNodePoolFlags(f)).map((p) => bad(p.flag, p.value, p.message)));
  return errors;
}

/** Whether an error means the management cluster could not be reached or configured (not that it said no). */
const noManagementCluster = (error: unknown): boolean =>
  !(error instanceof UserError) || (error.cause instanceof Error && error.cause.name === 'KubeconfigError');

/** The release image: the flag, or the HostedCluster's when the management cluster can be asked. */
async function releaseImage(f: FlagReader, ctx: CommandContext): Promise<string> {
  if (f.string('release-image') !== '') return f.string('release-image');
  const [{ hostedClusterFor }, { withManagementCluster }] = await Promise.all([import('./apply.ts'), import('../../management.ts')]);
  try {
    const read = async (client: KubeClient): Promise<string> => (await hostedClusterFor(client, f.string('namespace'), f.string('cluster-name'))).spec.release.image;
    return await withManagementCluster(f.string('kubeconfig'), ctx, 'failed to read the HostedCluster', read);
  } catch (error) {
    if (f.bool('render') && noManagementCluster(error)) {
      throw new UserError(`--release-image is required to render without a management cluster (${error instanceof Error ? error.message : String(error)})`);
    }
    throw error;
  }
}

async function run(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const f = new FlagReader(args.values);
  throwIfAny(validate(f, args));
  const nodePool = renderNodePool({
    name: f.string('name'),
    namespace: f.string('namespace'),
    clusterName: f.string('cluster-name'),
    replicas: args.set.has('node-count') ? f.number('node-count') : f.number('replicas'),
    releaseImage: await releaseImage(f, ctx),
    arch: f.string('arch') as NodePoolArch,
    autoRepair: f.bool('auto-repair'),
    upgradeType: (f.string('node-upgrade-type') || 'Replace') as UpgradeType,
    platform: kubevirtNodePoolPlatform(kubevirtNodePoolFlags(f)),
  });
  refuseInvalidRendered([nodePool]);
  if (f.bool('render')) {
    ctx.stdout(toYaml(nodePool));
    ctx.stderr(`NodePool ${f.string('name')} was rendered to yaml output file\n`);
    return;
  }
  const [{ createNodePool }, { withManagementCluster }] = await Promise.all([import('./apply.ts'), import('../../management.ts')]);
  await withManagementCluster(f.string('kubeconfig'), ctx, 'failed to create the NodePool', (client) => createNodePool(client, nodePool, ctx));
}

/**
 * `hcp create nodepool kubevirt`: creates a NodePool on the management cluster, or renders it; renders offline when
 * --release-image is given (upstream always needs a cluster).
 */
export const createNodePoolKubevirt: Command = {
  name: 'kubevirt',
  summary: 'Creates basic functional NodePool resources for KubeVirt platform',
  flags: [...CREATE_NODEPOOL_FLAGS, ...KUBEVIRT_NODEPOOL_FLAGS],
  run,
};
