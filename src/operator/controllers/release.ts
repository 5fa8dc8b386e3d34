import { UserCABundle } from '../../api/v1beta1/well-known.ts';
import { ALL_IS_WELL_MESSAGE, HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../api/v1beta1/conditions.ts';
import type { ConditionUpdate } from '../../lib/conditions.ts';
import { UNREACHABLE_RETRY_MS } from '../../release/fallback.ts';
import type { KubeClient } from '../../kube/client.ts';
import { fromBase64 } from '../../lib/base64.ts';
import type { HostedCluster } from '../../api/index.ts';
import { releaseAccess, type ReleaseAccess, type ReleaseError, type ReleaseFailure } from '../../release/provider.ts';

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
  return configMap?.data?.[UserCABundle.Key];
}

/** What a release is read with for a HostedCluster: its pull secret, mirrors and trust bundle (all from its namespace). */
export async function releaseAccessOf(client: KubeClient, hc: HostedCluster, pullSecret: string | undefined): Promise<ReleaseAccess> {
  return releaseAccess(pullSecret, hc.spec.imageContentSources, await readTrustBundle(client, hc.metadata.namespace, hc.spec.additionalTrustBundle?.name));
}

/** The `ValidReleaseImage` reason of a failure: upstream's `PayloadArchNotFound` for the architecture, else `InvalidImage`. */
const releaseImageReason = (reason: ReleaseFailure): string => (reason === 'PayloadArchNotFound' ? Reason.PayloadArchNotFound.value : Reason.InvalidImage.value);

/**
 * Whether a release failure is worth retrying with back-off: everything a registry said or failed to say may change
 * (a pushed tag, a fixed secret, a registry back up), but the catalog alone not knowing an image changes only with the
 * spec, which requeues by itself.
 */
export const retriable = (error: ReleaseError): boolean => error.reason !== 'Unknown';

/** What a status message adds when the catalog stood in for an unreachable registry. */
export const provisionalNote = (info: { provisional?: true; source?: string }): string => (info.provisional === true ? ` (from ${info.source ?? 'the built-in catalog'})` : '');

/** The requeue a release asks for: a provisional (catalog) one is resolved again once the registry may answer. */
export const provisionalRequeue = (info: { provisional?: true }): { requeueAfterMs?: number } => (info.provisional === true ? { requeueAfterMs: UNREACHABLE_RETRY_MS } : {});

type ReleaseCondition = Omit<ConditionUpdate, 'observedGeneration'>;

/** `ValidReleaseImage` True and `ValidReleaseInfo` True: a release read and complete, `message` the image's. */
export const releaseReadConditions = (message: string): ReleaseCondition[] => [
  { type: Type.ValidReleaseImage.value, status: 'True', reason: Reason.AsExpected.value, message },
  { type: Type.ValidReleaseInfo.value, status: 'True', reason: Reason.AsExpected.value, message: ALL_IS_WELL_MESSAGE },
];

/**
 * The conditions of a release that could not be used (the HostedCluster's and the HostedControlPlane's alike): a
 * payload lacking components is a valid image with `ValidReleaseInfo` False; any other failure is the image's, its
 * info not read.
 */
export function releaseFailureConditions(error: ReleaseError): ReleaseCondition[] {
  if (error.reason === 'MissingReleaseImages') {
    return [
      { type: Type.ValidReleaseImage.value, status: 'True', reason: Reason.AsExpected.value, message: 'Release image is valid' },
      { type: Type.ValidReleaseInfo.value, status: 'False', reason: Reason.MissingReleaseImages.value, message: error.message },
    ];
  }
  return [
    { type: Type.ValidReleaseImage.value, status: 'False', reason: releaseImageReason(error.reason), message: error.message },
    { type: Type.ValidReleaseInfo.value, status: 'Unknown', reason: Reason.StatusUnknown.value, message: 'The release payload has not been read' },
  ];
}

/** A release by image and the version its payload gave. */
export interface ReleaseVersion {
  readonly image: string;
  readonly version: string;
}

/** The release a HostedCluster last accepted (`status.version.desired`): the one it runs or is moving to; undefined before any. */
export function acceptedRelease(hc: HostedCluster): ReleaseVersion | undefined {
  const desired = hc.status?.version?.desired;
  return desired?.image === undefined || desired.image === '' ? undefined : { image: desired.image, version: desired.version ?? '' };
}

/** The newest release a HostedCluster's control plane completed a rollout of: what it certainly runs. */
export function completedRelease(hc: HostedCluster | undefined): ReleaseVersion | undefined {
  const done = hc?.status?.version?.history?.find((h) => h.state === 'Completed');
  return done === undefined ? undefined : { image: done.image, version: done.version ?? '' };
}
