import { managementClient } from '../../kube/kubeconfig.ts';
import { LATEST_SUPPORTED_OCP, parseSupportedVersions, SUPPORTED_VERSIONS_CONFIGMAP } from '../../release/supported-versions.ts';
import { BUILD_INFO } from '../build-info.ts';
import type { Command, CommandContext } from '../framework/command.ts';
import { flag } from '../framework/flags.ts';
import { FlagReader, type ParsedArgs } from '../framework/parse.ts';

interface ConfigMap {
  apiVersion: string;
  kind: string;
  data?: Record<string, string>;
}

/** The server lines: what the operator on the management cluster published, or why it could not be read. */
async function serverLines(kubeconfig: string, ctx: CommandContext): Promise<string[]> {
  try {
    const client = managementClient(kubeconfig, ctx.env);
    try {
      const { name, namespace } = SUPPORTED_VERSIONS_CONFIGMAP;
      const cm = await client.tryGet<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', name, namespace });
      if (cm === undefined) return ['Server Version: unknown (the operator is not installed: no supported-versions ConfigMap)'];
      const versions = parseSupportedVersions(cm.data);
      return [`Server Version: ${cm.data?.['server-version'] ?? 'unknown'}`, `Server Supports OCP Versions: ${versions?.join(', ') ?? 'unknown'}`];
    } finally {
      client.close();
    }
  } catch (error) {
    return [`Server Version: unknown (${error instanceof Error ? error.message : String(error)})`];
  }
}

async function run(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const f = new FlagReader(args.values);
  ctx.stdout(`Client Version: ${BUILD_INFO.name}: ${BUILD_INFO.version} (${BUILD_INFO.commit}). Latest supported OCP: ${LATEST_SUPPORTED_OCP}\n`);
  if (f.bool('client-only')) return;
  for (const line of await serverLines(f.string('kubeconfig'), ctx)) ctx.stdout(`${line}\n`);
}

/** `hcp version`: the client version and what the operator on the management cluster supports. */
export const version: Command = {
  name: 'version',
  summary: 'Prints the hcp CLI version and the versions the management cluster supports',
  flags: [
    flag('kubeconfig', 'string', '', 'Path to a kubeconfig file for the management cluster. If not specified, the default kubeconfig resolution is used.'),
    flag('client-only', 'bool', false, 'Print only the client version, without contacting the management cluster'),
  ],
  run,
};
