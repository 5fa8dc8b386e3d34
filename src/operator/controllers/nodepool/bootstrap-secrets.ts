import type { KubeObject } from '../../../kube/client.ts';
import { KubeApiError } from '../../../kube/errors.ts';
import { BootstrapNames, TokenSecretAnnotation } from '../../../render/nodepool/bootstrap.ts';
import type { InfraTarget, NodePoolDeps } from './scope.ts';

/** A bootstrap Secret of a pool in the control-plane namespace, with the generation (config hash) it belongs to. */
export interface BootstrapSecret {
  readonly name: string;
  readonly kind: 'token' | 'user-data';
  readonly configHash: string;
}

/** The token and user-data Secrets of a pool (`<namespace>/<name>`) in its control-plane namespace. */
export function bootstrapSecretsOf(deps: Pick<NodePoolDeps, 'controlPlaneSecrets'>, controlPlaneNamespace: string, pool: string, nodePoolName: string): BootstrapSecret[] {
  const found: BootstrapSecret[] = [];
  for (const secret of deps.controlPlaneSecrets() as readonly KubeObject[]) {
    const name = secret.metadata?.name ?? '';
    if (secret.metadata?.namespace !== controlPlaneNamespace || secret.metadata.annotations?.[TokenSecretAnnotation.NodePool] !== pool) continue;
    for (const kind of ['token', 'user-data'] as const) {
      const prefix = `${kind}-${nodePoolName}-`;
      if (name.startsWith(prefix)) found.push({ name, kind, configHash: name.slice(prefix.length) });
    }
  }
  return found;
}

/** The key of an object in {@link NodePoolDeps.lastApplied}. */
export const appliedKey = (kind: string, namespace: string, name: string): string => `${kind}/${namespace}/${name}`;

/** Deletes bootstrap Secrets and, for user data, its copy beside the VMs (forgetting that they were applied). */
export async function deleteBootstrapSecrets(deps: Pick<NodePoolDeps, 'client' | 'lastApplied'>, infra: InfraTarget | undefined, controlPlaneNamespace: string, secrets: readonly BootstrapSecret[]): Promise<void> {
  for (const secret of secrets) {
    if (secret.kind === 'user-data' && infra !== undefined) {
      const copy = BootstrapNames.infraUserData(secret.name);
      // Credentials that may not delete Secrets there could not have created the copy either.
      await infra.client.delete({ apiVersion: 'v1', kind: 'Secret', name: copy, namespace: infra.namespace }).catch((error: unknown) => {
        if (!(error instanceof KubeApiError && error.status === 403)) throw error;
      });
      deps.lastApplied.delete(appliedKey('Secret', infra.namespace, copy));
    }
    await deps.client.delete({ apiVersion: 'v1', kind: 'Secret', name: secret.name, namespace: controlPlaneNamespace });
    deps.lastApplied.delete(appliedKey('Secret', controlPlaneNamespace, secret.name));
  }
}
