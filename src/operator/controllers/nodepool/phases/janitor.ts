import { BootstrapNames } from '../../../../render/nodepool/bootstrap.ts';
import { bootstrapSecretsOf, deleteBootstrapSecrets } from '../bootstrap-secrets.ts';
import { poolMachines } from '../pool-machines.ts';
import { produced, nodePoolKeyOf, type Phase } from '../scope.ts';

/**
 * Removes the bootstrap Secrets of generations no machine boots from any more. A generation's user data is kept for
 * as long as one of its VMs exists (all VMs of a generation share it, and a VM reads it again when it restarts).
 */
export const janitorPhase: Phase = {
  name: 'janitor',
  async run(scope) {
    const infra = produced(scope, 'infra');
    const current = produced(scope, 'bootstrap').configHash;
    const pool = nodePoolKeyOf(scope.np);
    const inUse = new Set(poolMachines(infra, pool).flatMap((m) => m.vm.spec.template.spec.volumes.map((v) => v.cloudInitConfigDrive?.secretRef.name ?? '')));
    const secrets = bootstrapSecretsOf(scope.deps, scope.controlPlaneNamespace ?? '', pool, scope.np.metadata.name ?? '');
    const usedHashes = new Set(secrets.filter((s) => s.kind === 'user-data' && inUse.has(BootstrapNames.infraUserData(s.name))).map((s) => s.configHash));
    const outdated = secrets.filter((s) => s.configHash !== current && !usedHashes.has(s.configHash));
    if (outdated.length > 0) scope.logger.info('removing outdated bootstrap data', { secrets: outdated.map((s) => s.name).join(',') });
    await deleteBootstrapSecrets(scope.deps, { infra, controlPlaneNamespace: scope.controlPlaneNamespace ?? '', guest: scope.guest?.client }, outdated);
    return undefined;
  },
};
