import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { fromBase64 } from '../../../lib/base64.ts';
import { parseBootstrapToken } from '../../../render/nodepool/join.ts';
import { isForbidden } from '../../../kube/errors.ts';
import { BootstrapNames, TokenSecretAnnotation, TokenSecretKey } from '../../../render/nodepool/bootstrap.ts';
import { OLD_BOOTSTRAP_TOKEN_KEY } from './join-credentials.ts';
import { appliedKey, type NodePoolDeps } from './scope.ts';
import type { InfraTarget } from './infra-target.ts';

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

/** Where a pool's bootstrap data lives: the control-plane namespace, beside the VMs, and in the hosted cluster. */
export interface BootstrapPlaces {
  readonly controlPlaneNamespace: string;
  readonly infra: InfraTarget | undefined;
  readonly guest: KubeClient | undefined;
}

/**
 * Deletes a token Secret's bootstrap tokens (current and previous) from the hosted cluster, so a retired generation's
 * kubelet credential stops authenticating at once rather than at its expiry. Best effort: an unreachable hosted
 * cluster never holds a deletion (the approver ignores tokens of retired generations anyway, and they expire).
 */
async function deleteGuestBootstrapTokens(deps: Pick<NodePoolDeps, 'controlPlaneSecret'>, guest: KubeClient | undefined, controlPlaneNamespace: string, tokenSecret: string): Promise<void> {
  const data = deps.controlPlaneSecret(`${controlPlaneNamespace}/${tokenSecret}`)?.data;
  if (guest === undefined || data === undefined) return;
  const ids = [data[TokenSecretKey.BootstrapToken], data[OLD_BOOTSTRAP_TOKEN_KEY]].map((value) => parseBootstrapToken(fromBase64(value), new Date(0))?.id).filter((id) => id !== undefined);
  for (const id of ids) await guest.delete({ apiVersion: 'v1', kind: 'Secret', namespace: 'kube-system', name: `bootstrap-token-${id}` }).catch(() => undefined);
}

/**
 * Deletes bootstrap Secrets and, for user data, its copy beside the VMs (forgetting that they were applied); for
 * tokens, their bootstrap tokens in the hosted cluster when it can be reached.
 */
export async function deleteBootstrapSecrets(deps: Pick<NodePoolDeps, 'client' | 'lastApplied' | 'controlPlaneSecret'>, where: BootstrapPlaces, secrets: readonly BootstrapSecret[]): Promise<void> {
  const { infra, controlPlaneNamespace, guest } = where;
  for (const secret of secrets) {
    if (secret.kind === 'token') await deleteGuestBootstrapTokens(deps, guest, controlPlaneNamespace, secret.name);
    if (secret.kind === 'user-data' && infra !== undefined) {
      const copy = BootstrapNames.infraUserData(secret.name);
      // Credentials that may not delete Secrets there could not have created the copy either.
      await infra.client.delete({ apiVersion: 'v1', kind: 'Secret', name: copy, namespace: infra.namespace }).catch((error: unknown) => {
        if (!isForbidden(error)) throw error;
      });
      deps.lastApplied.delete(appliedKey('Secret', infra.namespace, copy));
    }
    await deps.client.delete({ apiVersion: 'v1', kind: 'Secret', name: secret.name, namespace: controlPlaneNamespace });
    deps.lastApplied.delete(appliedKey('Secret', controlPlaneNamespace, secret.name));
  }
}
