import type { ImageContentSource } from '../../../../api/index.ts';
import type { ClusterInput } from '../../../../render/cluster/input.ts';
import type { CommandContext } from '../../../framework/command.ts';
import { UserError } from '../../../framework/errors.ts';
import { readFlagFile, readTrustBundleFile } from '../../../framework/files.ts';
import { newInfraID } from './parsers.ts';
import type { ClusterFiles, ValidatedCluster } from './validate.ts';
import { unsafeEntriesProblem } from '../../../../lib/inline-kubeconfig.ts';

const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');

/** YAML parsing, loaded only when a file needs it (it is the CLI's largest dependency). */
type Parse = (text: string) => unknown;

/** Parses a file's YAML, or says which flag's file is not YAML (with the parser's line and column). */
function parseFile(content: string, flag: string, path: string, parse: Parse): unknown {
  try {
    return parse(content);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new UserError(`invalid --${flag} "${path}": not YAML: ${reason}`);
  }
}

function imageContentSources(ctx: CommandContext, path: string, parse: Parse): ImageContentSource[] | undefined {
  if (path === '') return undefined;
  const parsed = parseFile(text(readFlagFile(ctx, path, 'image content sources')), 'image-content-sources', path, parse);
  // An empty file is an empty list, as upstream reads it: no sources, nothing rendered.
  if (parsed === null || parsed === undefined) return undefined;
  const valid = Array.isArray(parsed) && parsed.every((e: unknown) => typeof e === 'object' && e !== null && typeof (e as { source?: unknown }).source === 'string');
  if (!valid) throw new UserError(`invalid --image-content-sources "${path}": must be a YAML list of {source, mirrors} entries`);
  return parsed as ImageContentSource[];
}

/** Checks that a file holds a kubeconfig with a current context, before anything is rendered or applied. */
function infraKubeconfig(ctx: CommandContext, path: string, parse: Parse): string {
  const content = text(readFlagFile(ctx, path, 'infra kubeconfig'));
  const config = parseFile(content, 'infra-kubeconfig-file', path, parse) as { 'current-context'?: unknown; clusters?: unknown } | null;
  if (typeof config?.['current-context'] !== 'string' || !Array.isArray(config.clusters)) {
    throw new UserError(`invalid --infra-kubeconfig-file "${path}": not a kubeconfig with clusters and a current-context`);
  }
  // The operator refuses it later for the same reason: better said now, before anything is written.
  const problem = unsafeEntriesProblem(config);
  if (problem !== undefined) {
    throw new UserError(`invalid --infra-kubeconfig-file "${path}": ${problem}; the operator takes only inline credentials from a HostedCluster's kubeconfig (token, client-certificate-data and client-key-data, certificate-authority-data), see docs/security.md`);
  }
  return content;
}

/** The contents of the files `hcp create cluster` reads, parsed where they have a structure. */
export interface ClusterFileContents {
  readonly pullSecret?: Uint8Array;
  readonly sshPublicKey?: string;
  readonly additionalTrustBundle?: string;
  readonly imageContentSources?: ImageContentSource[];
  readonly infraKubeconfig?: string;
}

/** Reads every file the flags name; each unreadable or malformed file is one error, all reported together. */
export async function readClusterFiles(files: ClusterFiles, ctx: CommandContext): Promise<{ contents: ClusterFileContents; errors: UserError[] }> {
  const errors: UserError[] = [];
  const parse: Parse = files.imageContentSources === '' && files.infraKubeconfig === '' ? () => undefined : (await import('../../../../lib/yaml-read.ts')).parseYaml;
  const attempt = <T>(path: string, f: () => T): T | undefined => {
    if (path === '') return undefined;
    try {
      return f();
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      errors.push(error);
      return undefined;
    }
  };
  const contents: ClusterFileContents = {
    pullSecret: attempt(files.pullSecret, () => readFlagFile(ctx, files.pullSecret, 'pull secret')),
    sshPublicKey: attempt(files.sshKey, () => text(readFlagFile(ctx, files.sshKey, 'ssh key'))),
    additionalTrustBundle: attempt(files.additionalTrustBundle, () => readTrustBundleFile(ctx, 'additional-trust-bundle', files.additionalTrustBundle)),
    imageContentSources: attempt(files.imageContentSources, () => imageContentSources(ctx, files.imageContentSources, parse)),
    infraKubeconfig: attempt(files.infraKubeconfig, () => infraKubeconfig(ctx, files.infraKubeconfig, parse)),
  };
  return { contents, errors };
}

/** Completes validated options and file contents into the render input, drawing the random parts (infraID, key). */
export function completeCreateCluster(v: ValidatedCluster, files: ClusterFileContents, ctx: CommandContext, sshKey?: ClusterInput['sshKey']): ClusterInput {
  const publicKey = files.sshPublicKey;
  return {
    ...v.input,
    infraID: v.infraID === '' ? newInfraID(v.input.name, ctx.randomBytes) : v.infraID,
    pullSecret: files.pullSecret ?? new Uint8Array(),
    etcdEncryptionKey: ctx.randomBytes(32),
    ...(sshKey !== undefined ? { sshKey } : publicKey === undefined ? {} : { sshKey: { publicKey } }),
    ...(files.additionalTrustBundle === undefined ? {} : { additionalTrustBundle: files.additionalTrustBundle }),
    ...(files.imageContentSources === undefined ? {} : { imageContentSources: files.imageContentSources }),
    ...(files.infraKubeconfig === undefined ? {} : { infraCredentials: { kubeconfig: files.infraKubeconfig, namespace: v.infraNamespace } }),
  };
}
