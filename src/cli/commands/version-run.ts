import { LATEST_SUPPORTED_OCP, parseSupportedVersions, SUPPORTED_VERSIONS_CONFIGMAP } from '../../release/supported-versions.ts';
import { BUILD_INFO } from '../build-info.ts';
import type { CommandContext } from '../framework/command.ts';
import { FlagReader, type ParsedArgs } from '../framework/parse.ts';
import { withManagementCluster } from './management.ts';

interface ConfigMap {
  apiVersion: string;
  kind: string;
  data?: Record<string, string>;
}

/** The server lines: what the operator on the management cluster published, or why it could not be read. */
async function serverLines(kubeconfig: string, ctx: CommandContext): Promise<string[]> {
  const { name, namespace } = SUPPORTED_VERSIONS_CONFIGMAP;
  try {
    const cm = await withManagementCluster(kubeconfig, ctx, 'cannot read the supported versions', (client) =>
      client.tryGet<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', name, namespace }),
    );
    if (cm === undefined) return ['Server Version: unknown (the operator is not installed: no supported-versions ConfigMap)'];
    const versions = parseSupportedVersions(cm.data);
    return [`Server Version: ${cm.data?.['server-version'] ?? 'unknown'}`, `Server Supports OCP Versions: ${versions?.join(', ') ?? 'unknown'}`];
  } catch (error) {
    return [`Server Version: unknown (${error instanceof Error ? error.message : String(error)})`];
  }
}

/** Runs `hcp version` (loaded on demand: it may need the cluster client). */
export async function run(args: ParsedArgs, ctx: CommandContext): Promise<void> {
  const f = new FlagReader(args.values);
  ctx.stdout(`Client Version: ${BUILD_INFO.name}: ${BUILD_INFO.version} (${BUILD_INFO.commit}). Latest supported OCP: ${LATEST_SUPPORTED_OCP}\n`);
  if (f.bool('client-only')) return;
  for (const line of await serverLines(f.string('kubeconfig'), ctx)) ctx.stdout(`${line}\n`);
}

