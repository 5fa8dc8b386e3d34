import { HostedClusterNames, OPERATOR_FIELD_MANAGER } from '../../../../render/hostedcluster/names.ts';
import type { Phase } from '../scope.ts';

/** Adds the finalizer (server-side apply owns just that entry), so deletion waits for the cleanup. */
export const finalizerPhase: Phase = {
  name: 'finalizer',
  async run(scope) {
    const { hc } = scope;
    if (hc.metadata.finalizers?.includes(HostedClusterNames.finalizer) === true) return undefined;
    const patch = { apiVersion: hc.apiVersion, kind: hc.kind, metadata: { name: hc.metadata.name, namespace: hc.metadata.namespace, finalizers: [HostedClusterNames.finalizer] } };
    scope.hc = await scope.deps.client.apply(patch as typeof hc, { fieldManager: OPERATOR_FIELD_MANAGER });
    return undefined;
  },
};
