import { HostedClusterConditionReason as Reason } from '../../api/v1beta1/conditions.ts';
import type { KubeClient } from '../../kube/client.ts';
import { fromBase64 } from '../../lib/base64.ts';
import type { ReleaseError, ReleaseFailure } from '../../release/provider.ts';

/** The `.dockerconfigjson` of a pull secret's data (base64, as read); undefined when it has none. */
export function dockerConfigOf(secret: { data?: Record<string, string> } | undefined): string | undefined {
  const encoded = secret?.data?.['.dockerconfigjson'];
  return encoded === undefined ? undefined : fromBase64(encoded);
}

/** Reads a pull secret's `.dockerconfigjson`; undefined when the Secret or the key is missing. */
export async function readPullSecret(client: KubeClient, namespace: string | undefined, name: string | undefined): Promise<string | undefined> {
  if (namespace === undefined || name === undefined || name === '') return undefined;
  return dockerConfigOf(await client.tryGet<{ apiVersion: string; kind: string; data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', name, namespace }));
}

/** The `ValidReleaseImage` reason of a failure: upstream's `PayloadArchNotFound` for the architecture, else `InvalidImage`. */
export const releaseImageReason = (reason: ReleaseFailure): string => (reason === 'PayloadArchNotFound' ? Reason.PayloadArchNotFound.value : Reason.InvalidImage.value);

/**
 * Whether a release failure is worth retrying with back-off: everything a registry said or failed to say may change
 * (a pushed tag, a fixed secret, a registry back up), but the catalog alone not knowing an image changes only with the
 * spec, which requeues by itself.
 */
export const retriable = (error: ReleaseError): boolean => error.reason !== 'Unknown';

/** What a status message adds when the catalog stood in for an unreachable registry. */
export const provisionalNote = (info: { provisional?: true; source?: string }): string => (info.provisional === true ? ` (from ${info.source ?? 'the built-in catalog'})` : '');

