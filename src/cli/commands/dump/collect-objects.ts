import type { KubeClient, KubeDocument } from '../../../kube/client.ts';
import { isForbidden } from '../../../kube/errors.ts';
import { reasonOf } from '../../../runtime/errors.ts';
import type { DumpKind } from './kinds.ts';
import type { DumpWriter } from './writer.ts';

/** The objects listed, by kind. */
export type Listed = ReadonlyMap<string, readonly KubeDocument[]>;

/** The objects of a kind in a listing (none when it was not served or could not be listed). */
export const listedOf = <T>(listed: Listed, kind: DumpKind): T[] => [...(listed.get(kind.kind) ?? [])] as T[];

/** One side of a dump: the cluster it reads and the view it writes to. */
export interface DumpSource {
  readonly client: KubeClient;
  readonly out: DumpWriter;
}


/** What listing the kinds of one place met: the kinds refused (403) and the other failures by message. */
class ListFailures {
  private readonly forbidden: string[] = [];
  private readonly byMessage = new Map<string, string[]>();

  add(kind: string, error: unknown): void {
    if (isForbidden(error)) this.forbidden.push(kind);
    else this.byMessage.set(reasonOf(error), [...(this.byMessage.get(reasonOf(error)) ?? []), kind]);
  }

  /**
   * Records them, one problem per distinct failure rather than per kind: credentials limited to a Role (an external
   * infrastructure's) are refused a dozen kinds, and an API server that stops answering fails them all alike.
   */
  record(out: DumpWriter, where: string): void {
    if (this.forbidden.length > 0) out.problem(`list ${this.forbidden.join(', ')} ${where}`, 'not permitted (403 Forbidden) to the credentials used');
    for (const [message, kinds] of this.byMessage) out.problem(`list ${kinds.join(', ')} ${where}`, message);
  }
}

/** Lists one kind (in a namespace, or everywhere) when the server serves it; undefined when it does not. */
async function listServed(client: KubeClient, kind: DumpKind, namespace: string | undefined): Promise<KubeDocument[] | undefined> {
  if (!(await client.serves(kind.apiVersion, kind.kind))) return undefined;
  return client.list<KubeDocument>(kind.apiVersion, kind.kind, namespace === undefined ? {} : { namespace });
}

/**
 * Lists every served kind of `kinds` in a namespace (undefined: in all namespaces, or cluster-scoped kinds) and
 * writes each object. A kind that fails is recorded and the others go on; the lists come back for the summary.
 */
export async function collectKinds(source: DumpSource, kinds: readonly DumpKind[], namespace: string | undefined): Promise<Listed> {
  const listed = new Map<string, KubeDocument[]>();
  const failures = new ListFailures();
  for (const kind of kinds) {
    try {
      const items = await listServed(source.client, kind, namespace);
      if (items === undefined) continue;
      for (const item of items) source.out.object(kind, item);
      listed.set(kind.kind, items);
    } catch (error) {
      failures.add(kind.kind, error);
    }
  }
  failures.record(source.out, namespace === undefined ? 'across the cluster' : `in namespace ${namespace}`);
  return listed;
}

/** Writes the Secrets of a namespace (undefined: of every namespace) by name, type and keys; a failure is recorded. */
export async function collectSecretNames(source: DumpSource, namespace: string | undefined): Promise<void> {
  const where = namespace === undefined ? 'across the cluster' : `in namespace ${namespace}`;
  try {
    const secrets = await source.client.list<KubeDocument>('v1', 'Secret', namespace === undefined ? {} : { namespace });
    // A namespace asked for gets its list even when empty: "no Secrets" is worth seeing, unlike a missing file.
    const byNamespace = namespace === undefined ? Map.groupBy(secrets, (s) => s.metadata?.namespace ?? '') : new Map([[namespace, secrets]]);
    for (const [ns, inNamespace] of byNamespace) source.out.secrets(ns, inNamespace);
  } catch (error) {
    source.out.problem(`list Secret names ${where}`, isForbidden(error) ? 'not permitted (403 Forbidden) to the credentials used' : error);
  }
}

/** Writes one object read directly (a HostedCluster, a Namespace); a failure is recorded. Returns it, if read. */
export async function collectOne<T extends KubeDocument>(source: DumpSource, kind: DumpKind, ref: { name: string; namespace?: string }): Promise<T | undefined> {
  try {
    const object = await source.client.tryGet<T>({ apiVersion: kind.apiVersion, kind: kind.kind, ...ref });
    if (object !== undefined) source.out.object(kind, { ...object, apiVersion: kind.apiVersion, kind: kind.kind });
    return object;
  } catch (error) {
    source.out.problem(`get ${kind.kind} ${ref.namespace === undefined ? '' : `${ref.namespace}/`}${ref.name}`, error);
    return undefined;
  }
}
