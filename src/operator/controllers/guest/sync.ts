import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { KubeApiError } from '../../../kube/errors.ts';
import { GUEST_MANAGED_LABELS } from '../../../render/guest/labels.ts';
import { OPERATOR_FIELD_MANAGER } from '../../../render/hostedcluster/names.ts';
import { holdsRendered } from './drift.ts';

/** What one sync did: objects written (missing or drifted), objects removed (no longer rendered). */
export interface GuestSyncResult {
  readonly applied: readonly string[];
  readonly pruned: readonly string[];
}

type Rendered = Record<string, unknown>;

/** Kinds whose spec the API server refuses to change: a changed one is replaced (delete, then create). */
const REPLACED_WHEN_CHANGED = new Set(['StorageClass', 'VolumeSnapshotClass', 'CSIDriver']);

/** Adjusts a rendered object to what is live before comparing (fields left to the user once the object exists). */
export type LiveAdjustment = (rendered: Rendered, live: KubeObject | undefined) => Rendered;
const refOf = (object: Rendered): { apiVersion: string; kind: string; name: string; namespace?: string } => {
  const metadata = object['metadata'] as { name: string; namespace?: string };
  return { apiVersion: String(object['apiVersion']), kind: String(object['kind']), name: metadata.name, ...(metadata.namespace === undefined ? {} : { namespace: metadata.namespace }) };
};
const describe = (ref: { kind: string; name: string; namespace?: string }): string => `${ref.kind}/${ref.namespace === undefined ? '' : `${ref.namespace}/`}${ref.name}`;
const SELECTOR = Object.entries(GUEST_MANAGED_LABELS).map(([k, v]) => `${k}=${v}`).join(',');

/**
 * Brings a hosted cluster to the rendered objects: each is read, and applied (server-side, forced: the operator owns
 * these fields) only when missing or drifted, so a cluster in the desired state costs reads and no write. Then every
 * object of the `prunable` kinds carrying the operator's label but no longer rendered is deleted (a storage class of
 * a removed mapping, the CSI objects after switching to `None`).
 */
export async function syncGuestObjects(client: KubeClient, objects: readonly Rendered[], prunable: ReadonlyArray<{ apiVersion: string; kind: string }>, adjust: LiveAdjustment = (r) => r): Promise<GuestSyncResult> {
  const applied: string[] = [];
  for (const rendered of objects) {
    const ref = refOf(rendered);
    const live = await client.tryGet(ref);
    const object = adjust(rendered, live);
    if (live !== undefined && holdsRendered(live, object)) continue;
    await applyOrReplace(client, object, ref);
    applied.push(describe(ref));
  }
  const wanted = new Set(objects.map((o) => describe(refOf(o))));
  const pruned: string[] = [];
  for (const kind of prunable) pruned.push(...(await prune(client, kind, wanted)));
  return { applied, pruned };
}

/** Deletes the labelled objects of one kind that are not wanted; returns what it deleted. */
async function prune(client: KubeClient, kind: { apiVersion: string; kind: string }, wanted: ReadonlySet<string>): Promise<string[]> {
  const pruned: string[] = [];
  for (const live of await client.list(kind.apiVersion, kind.kind, { labelSelector: SELECTOR })) {
    const namespace = live.metadata?.namespace;
    const ref = { ...kind, name: live.metadata?.name ?? '', ...(namespace === undefined ? {} : { namespace }) };
    if (wanted.has(describe(ref))) continue;
    await client.delete(ref);
    pruned.push(describe(ref));
  }
  return pruned;
}

async function applyOrReplace(client: KubeClient, object: Rendered, ref: ReturnType<typeof refOf>): Promise<void> {
  try {
    await client.apply(object as unknown as KubeObject, { fieldManager: OPERATOR_FIELD_MANAGER, force: true });
  } catch (error) {
    if (!(error instanceof KubeApiError) || error.status !== 422 || !REPLACED_WHEN_CHANGED.has(ref.kind)) throw error;
    await client.delete(ref);
    await client.apply(object as unknown as KubeObject, { fieldManager: OPERATOR_FIELD_MANAGER, force: true });
  }
}
