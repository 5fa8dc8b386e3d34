import type { HostedCluster } from '../../../../api/index.ts';
import { ControlPlaneNames } from '../../../../controlplane/names.ts';
import { fromBase64 } from '../../../../lib/base64.ts';
import { reasonOf } from '../../../runtime/errors.ts';
import type { Phase, Scope } from '../scope.ts';

/**
 * The hosted cluster's admin kubeconfig, which the HostedControlPlane controller keeps in the control-plane namespace;
 * undefined until the control plane has one.
 */
export function controlPlaneAdminKubeconfig(scope: Scope): string | undefined {
  const data = scope.deps.controlPlaneSecret(`${scope.controlPlaneNamespace ?? ''}/${ControlPlaneNames.adminKubeconfig}`)?.data?.['kubeconfig'];
  return data === undefined ? undefined : fromBase64(data);
}

/**
 * Reaches the hosted cluster, where the machines' Nodes are: health, availability and drain are judged there. A
 * control plane without a kubeconfig yet (or with one that cannot be read) is not an error: its machines simply have
 * no Nodes, which the conditions say.
 */
export const guestPhase: Phase = {
  name: 'guest',
  run(scope) {
    const hc = scope.hc as HostedCluster;
    const kubeconfig = scope.deps.guestKubeconfig(scope);
    if (kubeconfig === undefined) return Promise.resolve(undefined);
    const owner = hc.metadata.uid ?? '';
    try {
      scope.guest = scope.deps.guestClusters.forCluster(owner, kubeconfig);
    } catch (error) {
      scope.logger.info('the hosted cluster kubeconfig cannot be used', { reason: reasonOf(error) });
    }
    return Promise.resolve(undefined);
  },
};
