import { ReleaseError } from '../../../../release/provider.ts';
import { dockerConfigOf, provisionalNote, provisionalRequeue, releaseAccessOf, releaseFailureConditions, releaseReadConditions, retriable } from '../../release.ts';
import { setCondition, type Phase } from '../scope.ts';

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
      for (const condition of releaseReadConditions(`Release image is valid${provisionalNote(info)}`)) setCondition(scope, condition);
      return provisionalRequeue(info);
    } catch (error) {
      if (!(error instanceof ReleaseError)) throw error;
      for (const condition of releaseFailureConditions(error)) setCondition(scope, condition);
      if (retriable(error)) throw error;
      return { stop: true };
    }
  },
};
