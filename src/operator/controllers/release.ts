import { HostedClusterConditionReason as Reason } from '../../api/v1beta1/conditions.ts';
import type { KubeClient } from '../../kube/client.ts';
import { fromBase64 } from '../../lib/base64.ts';
import type { HostedCluster } from '../../api/index.ts';
import type { ReleaseError, ReleaseFailure, ReleaseRequest } from '../../release/provider.ts';

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

/** The PEM of a trust-bundle ConfigMap (`ca-bundle.crt`, as `hcp create cluster --additional-trust-bundle` writes it). */
export async function readTrustBundle(client: KubeClient, namespace: string | undefined, name: string | undefined): Promise<string | undefined> {
  if (namespace === undefined || name === undefined || name === '') return undefined;
  const configMap = await client.tryGet<{ apiVersion: string; kind: string; data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'ConfigMap', name, namespace });
  return configMap?.data?.['ca-bundle.crt'];
}

/** What a release is read with for a HostedCluster: its pull secret, mirrors and trust bundle (all from its namespace). */
export async function releaseAccessOf(client: KubeClient, hc: HostedCluster, pullSecret: string | undefined): Promise<Omit<ReleaseRequest, 'image'>> {
  const trustBundle = await readTrustBundle(client, hc.metadata.namespace, hc.spec.additionalTrustBundle?.name);
  return {
    ...(pullSecret === undefined ? {} : { pullSecret }),
    ...(hc.spec.imageContentSources === undefined ? {} : { imageContentSources: hc.spec.imageContentSources }),
    ...(trustBundle === undefined ? {} : { trustBundle }),
  };
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

