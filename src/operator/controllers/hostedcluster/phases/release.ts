import { HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { ReleaseError } from '../../../../release/provider.ts';
import { dockerConfigOf, provisionalNote, provisionalRequeue, releaseAccessOf, releaseFailureConditions, releaseReadConditions, retriable, type ReleaseVersion } from '../../release.ts';
import { setCondition, type Phase, type Scope } from '../scope.ts';
import { gateRelease, type GateRefusal } from './release-gate.ts';

/** The architecture the payload was read for: the operator's own (see docs/releases.md). */
const ARCHITECTURE = process.arch === 'x64' ? 'amd64' : process.arch;

/** A release refused by the gate: a version rule makes the image invalid (upstream); either way the release is not accepted. */
function refuse(scope: Scope, refusal: GateRefusal, requested: ReleaseVersion): void {
  if (refusal.kind === 'version') setCondition(scope, { type: Type.ValidReleaseImage.value, status: 'False', reason: Reason.InvalidImage.value, message: refusal.message });
  const message = `Preconditions failed for payload loaded version="${requested.version}" image="${requested.image}": ${refusal.message}`;
  setCondition(scope, { type: Type.ClusterVersionReleaseAccepted.value, status: 'False', reason: Reason.PreconditionChecks.value, message });
  scope.releaseRefusal = { condition: refusal.kind === 'version' ? Type.ValidReleaseImage.value : Type.ClusterVersionReleaseAccepted.value, message: refusal.message };
}

/**
 * The release payload, read with the cluster's pull secret, mirrors and trust bundle, then gated: upstream's version
 * rules against the release last accepted, and the upgrade gate. A release that cannot be used — unreadable, lacking
 * components, or refused — stops the reconcile before the control plane is touched, so a bad upgrade never reaches
 * what runs; an unreadable one is retried with back-off, a refused one waits for the spec or annotations to change.
 */
export const releasePhase: Phase = {
  name: 'release',
  async run(scope) {
    const image = scope.hc.spec.release.image;
    const access = await releaseAccessOf(scope.deps.client, scope.hc, dockerConfigOf(scope.secrets.get('pullSecret')));
    try {
      const info = await scope.deps.releases.resolve({ image, ...access });
      for (const condition of releaseReadConditions(`Release image is valid${provisionalNote(info)}`)) setCondition(scope, condition);
      const requested = { image, version: info.version };
      const refusal = gateRelease(scope.hc, requested);
      if (refusal !== undefined) {
        refuse(scope, refusal, requested);
        return { stop: true };
      }
      scope.accepted = requested;
      const message = `Payload loaded version="${info.version}" image="${image}" architecture="${ARCHITECTURE}"`;
      setCondition(scope, { type: Type.ClusterVersionReleaseAccepted.value, status: 'True', reason: Reason.PayloadLoaded.value, message });
      return provisionalRequeue(info);
    } catch (error) {
      if (!(error instanceof ReleaseError)) throw error;
      for (const condition of releaseFailureConditions(error)) setCondition(scope, condition);
      setCondition(scope, { type: Type.ClusterVersionReleaseAccepted.value, status: 'False', reason: Reason.RetrievePayload.value, message: `Retrieving payload failed version="" image="${image}" failure=${error.message}` });
      scope.releaseRefusal = { condition: error.reason === 'MissingReleaseImages' ? Type.ValidReleaseInfo.value : Type.ValidReleaseImage.value, message: error.message };
      if (retriable(error)) throw error;
      return { stop: true };
    }
  },
};
