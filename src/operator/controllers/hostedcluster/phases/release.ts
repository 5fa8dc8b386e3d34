import { HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { UNREACHABLE_RETRY_MS } from '../../../../release/fallback.ts';
import { ReleaseError } from '../../../../release/provider.ts';
import { dockerConfigOf, provisionalNote, releaseImageReason, retriable } from '../../release.ts';
import { setCondition, type Phase } from '../scope.ts';

/**
 * The release payload, read with the cluster's pull secret and mirrors. A release that cannot be read stops the
 * reconcile before the control plane is touched, so a bad upgrade never reaches what runs; it is retried with
 * back-off. A payload lacking components is still a valid image: the control plane reports `ValidReleaseInfo`.
 */
export const releasePhase: Phase = {
  name: 'release',
  async run(scope) {
    const { spec } = scope.hc;
    const pullSecret = dockerConfigOf(scope.secrets.get('pullSecret'));
    try {
      const info = await scope.deps.releases.resolve({ image: spec.release.image, ...(pullSecret === undefined ? {} : { pullSecret }), ...(spec.imageContentSources === undefined ? {} : { imageContentSources: spec.imageContentSources }) });
      setCondition(scope, { type: Type.ValidReleaseImage.value, status: 'True', reason: Reason.AsExpected.value, message: `Release image is valid${provisionalNote(info)}` });
      return info.provisional === true ? { requeueAfterMs: UNREACHABLE_RETRY_MS } : undefined;
    } catch (error) {
      if (!(error instanceof ReleaseError)) throw error;
      if (error.reason === 'MissingReleaseImages') {
        setCondition(scope, { type: Type.ValidReleaseImage.value, status: 'True', reason: Reason.AsExpected.value, message: 'Release image is valid' });
        return undefined;
      }
      setCondition(scope, { type: Type.ValidReleaseImage.value, status: 'False', reason: releaseImageReason(error.reason), message: error.message });
      if (retriable(error)) throw error;
      return { stop: true };
    }
  },
};
