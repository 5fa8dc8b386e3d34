import jsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { Annotation } from '../../api/v1beta1/well-known.ts';

/** A JSON patch annotation that cannot be parsed or applied; the message is upstream's. */
export class VmJsonPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VmJsonPatchError';
  }
}

const formatError = (detail: string): VmJsonPatchError =>
  new VmJsonPatchError(`failed to parse the ${Annotation.KubeVirtVMJSONPatch} annotation; wrong jsonpatch format: ${detail}`);

const firstLine = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message.split('\n')[0] ?? ''}` : String(error));

/** Parses an annotation value into RFC 6902 operations, refusing anything that is not a well-formed patch. */
export function parseVmJsonPatch(text: string): Operation[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw formatError(error instanceof Error ? error.message : String(error));
  }
  if (!Array.isArray(parsed)) throw formatError('a JSON patch is an array of operations');
  const invalid = jsonPatch.validate(parsed as Operation[]);
  if (invalid !== undefined) throw formatError(firstLine(invalid));
  return parsed as Operation[];
}

const unescape = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');
const isContainer = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Creates the missing parents of an `add` target, as upstream's patch library does with `EnsurePathExistsOnAdd`: an
 * object, or an array when the next token is an index or `-`. fast-json-patch has no such option.
 */
function ensureParentsExist(document: unknown, path: string): void {
  const tokens = path.split('/').slice(1).map(unescape);
  let node = document;
  for (const [index, token] of tokens.slice(0, -1).entries()) {
    if (!isContainer(node)) return;
    const container = node;
    if (container[token] === undefined) {
      const next = tokens[index + 1] ?? '';
      container[token] = /^(\d+|-)$/.test(next) ? [] : {};
    }
    node = container[token];
  }
}

/**
 * Applies the JSON patch annotations to a VM template, the HostedCluster's first and then the NodePool's, as
 * upstream does. Returns a new value; the input is not changed.
 */
export function applyVmJsonPatches<T>(template: T, annotations: readonly (string | undefined)[]): T {
  let document = structuredClone(template);
  for (const text of annotations) {
    if (text === undefined) continue;
    const operations = parseVmJsonPatch(text);
    for (const operation of operations) {
      if (operation.op === 'add') ensureParentsExist(document, operation.path);
      try {
        document = jsonPatch.applyOperation(document, operation, true, true).newDocument;
      } catch (error) {
        throw new VmJsonPatchError(`failed to apply json patch annotation: ${firstLine(error)}`);
      }
    }
  }
  return document;
}
