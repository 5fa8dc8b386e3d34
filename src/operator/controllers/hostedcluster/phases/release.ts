import { ALL_IS_WELL_MESSAGE, HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { UNREACHABLE_RETRY_MS } from '../../../../release/fallback.ts';
import { ReleaseError } from '../../../../release/provider.ts';
import { dockerConfigOf, provisionalNote, releaseAccessOf, releaseImageReason, retriable } from '../../release.ts';
import { setCondition, type Phase, type Scope } from '../scope.ts';

const VALID_IMAGE = { type: Type.ValidReleaseImage.value, status: 'True', reason: Reason.AsExpected.value } as const;

/** The conditions of a release that could not be used: the image's, or (a payload lacking components) the info's. */
function reportFailure(scope: Scope, error: ReleaseError): void {
  if (error.reason === 'MissingReleaseImages') {
    setCondition(scope, { ...VALID_IMAGE, message: 'Release image is valid' });
    setCondition(scope, { type: Type.ValidReleaseInfo.value, status: 'False', reason: Reason.MissingReleaseImages.value, message: error.message });
    return;
  }
  setCondition(scope, { type: Type.ValidReleaseImage.value, status: 'False', reason: releaseImageReason(error.reason), message: error.message });
  setCondition(scope, { type: Type.ValidReleaseInfo.value, status: 'Unknown', reason: Reason.StatusUnknown.value, message: 'The release payload has not been read' });
}

/**
 * The release payload, read with the cluster's pull secret, mirrors and trust bundle. A release that cannot be used —
 * unreadable, or lacking components this control plane runs — stops the reconcile before the control plane is
 * touched, so a bad upgrade never reaches what runs; it is retried with back-off.
 */
export const releasePhase: Phase = {
  name: 'release',
  async run(scope) {
    const access = await releaseAccessOf(scope.deps.client, scope.hc, dockerConfigOf(scope.secrets.get('pullSecret')));
    try {
      const info = await scope.deps.releases.resolve({ image: scope.hc.spec.release.image, ...access });
      setCondition(scope, { ...VALID_IMAGE, message: `Release image is valid${provisionalNote(info)}` });
      setCondition(scope, { type: Type.ValidReleaseInfo.value, status: 'True', reason: Reason.AsExpected.value, message: ALL_IS_WELL_MESSAGE });
      return info.provisional === true ? { requeueAfterMs: UNREACHABLE_RETRY_MS } : undefined;
    } catch (error) {
      if (!(error instanceof ReleaseError)) throw error;
      reportFailure(scope, error);
      if (retriable(error)) throw error;
      return { stop: true };
    }
  },
};
