import type { NodePool } from '../../../../api/index.ts';
import { Annotation, Finalizer } from '../../../../api/v1beta1/well-known.ts';
import { OPERATOR_FIELD_MANAGER } from '../../../../render/hostedcluster/names.ts';
import { type Phase } from '../scope.ts';

const SPREAD = Annotation.NodePoolSupportsKubevirtTopologySpreadConstraints;

/**
 * The metadata the operator owns on a NodePool, applied together because server-side apply drops whatever an
 * apply from the same field manager leaves out: the finalizer (deletion waits until the machines are gone), and for a
 * new pool (no version yet) upstream's mark to spread its VMs with topology spread constraints — older pools keep
 * anti-affinity so that upgrading the operator does not roll them.
 */
const isNew = (np: NodePool): boolean => (np.status?.version ?? '') === '';
const hasFinalizer = (np: NodePool): boolean => np.metadata.finalizers?.includes(Finalizer.Operator) === true;

/** The metadata to apply, or undefined when the NodePool already has it. */
function missingMetadata(np: NodePool): Record<string, unknown> | undefined {
  const spreadMark = np.metadata.annotations?.[SPREAD];
  const spread = spreadMark !== undefined || isNew(np);
  const complete = hasFinalizer(np) && (spreadMark !== undefined || !spread);
  if (complete) return undefined;
  const annotations = spread ? { annotations: { [SPREAD]: spreadMark ?? 'true' } } : {};
  return { name: np.metadata.name, namespace: np.metadata.namespace, finalizers: [Finalizer.Operator], ...annotations };
}

export const finalizerPhase: Phase = {
  name: 'finalizer',
  async run(scope) {
    const { np } = scope;
    const metadata = missingMetadata(np);
    if (metadata === undefined) return undefined;
    scope.np = await scope.deps.client.apply({ apiVersion: np.apiVersion, kind: np.kind, metadata } as unknown as NodePool, { fieldManager: OPERATOR_FIELD_MANAGER });
    return undefined;
  },
};
