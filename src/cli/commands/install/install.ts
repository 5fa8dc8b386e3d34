import { toYamlDocuments } from '../../../lib/yaml.ts';
import type { KubeManifest } from '../../../api/manifest.ts';
import { renderInstall } from '../../../render/install/render.ts';
import type { Command, CommandContext } from '../../framework/command.ts';
import { throwIfAny, UserError } from '../../framework/errors.ts';
import { FlagReader, type ParsedArgs } from '../../framework/parse.ts';
import { INSTALL_APPLY_FLAGS, INSTALL_FLAGS, INSTALL_RENDER_FLAGS, installInput, renderOutput, type RenderOutput } from './options.ts';

function serialise(objects: readonly KubeManifest[], format: RenderOutput['format']): string {
  if (format === 'yaml') return toYamlDocuments(objects);
  return `${JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }, null, 2)}\n`;
}

function write(ctx: CommandContext, output: RenderOutput, text: string): void {
  if (output.file === '') ctx.stdout(text);
  else ctx.writeFile(output.file, text);
}

/** `hcp install render` and `hcp install --render`: prints the manifests, touches no cluster. */
async function runRender(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const f = new FlagReader(args.values);
  // With `hcp install --render`, --install-scope selects the manifests as --outputs does (upstream's older form).
  const { input, errors } = installInput(f, args.set.has('install-scope') && !args.set.has('outputs') ? 'install-scope' : 'outputs', ctx);
  const output = renderOutput(f, errors);
  throwIfAny(errors);
  write(ctx, output, serialise(renderInstall(input), output.format));
  return Promise.resolve();
}

async function runInstall(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  if (args.values['render'] === true) return runRender(args, ctx);
  const f = new FlagReader(args.values);
  const { input, errors } = installInput(f, 'install-scope', ctx);
  const renderOnly = INSTALL_RENDER_FLAGS.map((spec) => spec.name).filter((name) => args.set.has(name));
  throwIfAny([...errors, ...renderOnly.map((name) => new UserError(`--${name} only applies with --render (or "hcp install render")`, 'usage'))]);
  const { applyInstall } = await import('./apply.ts');
  await applyInstall(renderInstall(input), ctx, {
    kubeconfig: f.string('kubeconfig'),
    waitForCrds: f.bool('wait-until-crds-established'),
    waitForOperator: f.bool('wait-until-available'),
    namespace: input.namespace,
  });
}

/** `hcp install render`. */
const installRender: Command = {
  name: 'render',
  summary: 'Render HyperShift Operator manifests to stdout',
  flags: [...INSTALL_FLAGS, ...INSTALL_RENDER_FLAGS],
  run: runRender,
};

/** `hcp install`: CRDs, the operator's namespace, service account, RBAC, priority classes, supported versions, Deployment. */
export const install: Command = {
  name: 'install',
  summary: 'Installs the HyperShift operator',
  description:
    'Installs the HostedCluster, NodePool and HostedControlPlane CRDs, the operator namespace, its service account and least-privilege RBAC, the control-plane priority classes, the supported-versions ConfigMap and the operator Deployment, with server-side apply.',
  flags: [...INSTALL_FLAGS, ...INSTALL_APPLY_FLAGS, ...INSTALL_RENDER_FLAGS],
  subcommands: [installRender],
  run: runInstall,
};
