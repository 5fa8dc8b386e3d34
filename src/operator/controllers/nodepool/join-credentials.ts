import type { KubeObject } from '../../../kube/client.ts';
import { fromBase64, toBase64 } from '../../../lib/base64.ts';
import { LOWER_ALPHANUMERIC, randomCharacters, uuid } from '../../../lib/random.ts';
import { OPERATOR_FIELD_MANAGER } from '../../../render/hostedcluster/names.ts';
import type { SourceSecret } from '../../../render/hostedcluster/secrets.ts';
import { TokenSecretAnnotation, TokenSecretKey } from '../../../render/nodepool/bootstrap.ts';
import { BOOTSTRAPPER_BINDING, bootstrapTokenString, nodeSettingsOf, parseBootstrapToken, renderBootstrapperBinding, renderGuestBootstrapToken, type BootstrapToken } from '../../../render/nodepool/join.ts';
import { applyUnlessUnchanged } from '../../../runtime/apply.ts';
import { appliedKey, nodePoolKeyOf, type Scope } from './scope.ts';
import { Annotation } from '../../../api/v1beta1/well-known.ts';

/** Upstream's token lifetime: the ignition token is replaced every half of it, the previous one still accepted. */
export const TOKEN_TTL_MS = 11 * 3_600_000;
export const TOKEN_ROTATION_MS = TOKEN_TTL_MS / 2;
/** Key of the token Secret holding the bootstrap token before the last renewal (its CSRs are still approved). */
export const OLD_BOOTSTRAP_TOKEN_KEY = 'old-bootstrap-token';

type TokenSecret = KubeObject & SourceSecret;

/** What a reconcile changes on the token Secret, and when it must look again. */
interface JoinPlan {
  readonly data: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly requeueAfterMs: number;
}

const timeOf = (value: string | undefined): number => (value === undefined ? Number.NaN : Date.parse(value));

/** The ignition token's rotation: due half a lifetime after the last one (an unreadable time is due now). */
function ignitionRotation(scope: Scope, secret: TokenSecret, plan: { data: Record<string, string>; annotations: Record<string, string> }): number {
  const generated = timeOf(secret.metadata?.annotations?.[TokenSecretAnnotation.GenerationTime]);
  const due = Number.isNaN(generated) ? 0 : generated + TOKEN_ROTATION_MS;
  if (due > scope.now.getTime()) return due - scope.now.getTime();
  plan.data[TokenSecretKey.OldToken] = secret.data?.[TokenSecretKey.Token] ?? '';
  plan.data[TokenSecretKey.Token] = toBase64(uuid(scope.deps.random));
  plan.annotations[TokenSecretAnnotation.GenerationTime] = scope.now.toISOString();
  return TOKEN_ROTATION_MS;
}

/** When the recorded bootstrap token is due for renewal (half its life left): now when there is none. */
function bootstrapRenewalAt(secret: TokenSecret): number {
  const expires = timeOf(secret.metadata?.annotations?.[Annotation.BootstrapTokenExpiration]);
  const hasToken = secret.data?.[TokenSecretKey.BootstrapToken] !== undefined;
  return hasToken && !Number.isNaN(expires) ? expires - TOKEN_TTL_MS / 2 : 0;
}

/**
 * The bootstrap token's renewal: a new one once the hosted cluster can take it and the current one has less than half
 * its lifetime left (or there is none); the previous one stays approvable until it expires.
 */
function bootstrapRenewal(scope: Scope, secret: TokenSecret, plan: { data: Record<string, string>; annotations: Record<string, string> }): number {
  const renewAt = bootstrapRenewalAt(secret);
  if (renewAt > scope.now.getTime()) return renewAt - scope.now.getTime();
  const previous = secret.data?.[TokenSecretKey.BootstrapToken];
  // Without the hosted cluster's API (its control plane still starting) the token waits; machines retry meanwhile. No
  // polling: the HostedCluster reporting its API server available, or the admin kubeconfig arriving, wakes the pool.
  if (scope.guest === undefined) return TOKEN_ROTATION_MS;
  if (previous !== undefined) plan.data[OLD_BOOTSTRAP_TOKEN_KEY] = previous;
  const fresh = newBootstrapTokenFields(scope);
  Object.assign(plan.data, fresh.data);
  Object.assign(plan.annotations, fresh.annotations);
  return TOKEN_TTL_MS / 2;
}

/**
 * A new bootstrap token as token Secret fields (`bootstrap-token` and its expiry): what a renewal writes, and what a
 * new generation's token Secret is created with when the hosted cluster is known, saving a write per generation.
 */
export function newBootstrapTokenFields(scope: Scope): { data: Record<string, string>; annotations: Record<string, string> } {
  const token: BootstrapToken = { id: randomCharacters(scope.deps.random, LOWER_ALPHANUMERIC, 6), secret: randomCharacters(scope.deps.random, LOWER_ALPHANUMERIC, 16), expiration: new Date(scope.now.getTime() + TOKEN_TTL_MS) };
  return { data: { [TokenSecretKey.BootstrapToken]: toBase64(bootstrapTokenString(token)) }, annotations: { [Annotation.BootstrapTokenExpiration]: token.expiration.toISOString() } };
}

function joinPlan(scope: Scope, secret: TokenSecret): JoinPlan {
  const plan = { data: {} as Record<string, string>, annotations: {} as Record<string, string> };
  const settings = toBase64(JSON.stringify(nodeSettingsOf(scope.np)));
  if (secret.data?.[TokenSecretKey.NodeSettings] !== settings) plan.data[TokenSecretKey.NodeSettings] = settings;
  const requeueAfterMs = Math.min(ignitionRotation(scope, secret, plan), bootstrapRenewal(scope, secret, plan));
  return { ...plan, requeueAfterMs };
}

/** The bootstrap token the token Secret records (after this reconcile's changes), if any. */
function recordedBootstrapToken(secret: TokenSecret, plan: JoinPlan): BootstrapToken | undefined {
  const value = fromBase64(plan.data[TokenSecretKey.BootstrapToken] ?? secret.data?.[TokenSecretKey.BootstrapToken]);
  const expiration = plan.annotations[Annotation.BootstrapTokenExpiration] ?? secret.metadata?.annotations?.[Annotation.BootstrapTokenExpiration] ?? '';
  return parseBootstrapToken(value, new Date(expiration));
}

/** Makes (idempotently) the bootstrappers' binding and the recorded bootstrap token in the hosted cluster. */
async function applyToGuest(scope: Scope, token: BootstrapToken, generation: string): Promise<void> {
  if (scope.guest === undefined) return;
  const owner = scope.hc?.metadata.uid ?? '';
  const options = (kind: string, name: string): Parameters<typeof applyUnlessUnchanged>[2] => ({ lastApplied: scope.deps.lastApplied, key: appliedKey(kind, owner, name), fieldManager: OPERATOR_FIELD_MANAGER });
  await applyUnlessUnchanged(scope.guest.client, renderBootstrapperBinding(), options('ClusterRoleBinding', BOOTSTRAPPER_BINDING));
  await applyUnlessUnchanged(scope.guest.client, renderGuestBootstrapToken(token, scope.np, generation), options('Secret', `bootstrap-token-${token.id}`));
}

/**
 * Whether the recorded bootstrap token (if any) is in the hosted cluster. A hosted API server that does not answer
 * (yet) must not hold the machines: they retry until it takes the token, and so does the next reconcile.
 */
async function madeInGuest(scope: Scope, token: BootstrapToken | undefined, generation: string): Promise<boolean> {
  if (token === undefined) return true;
  try {
    await applyToGuest(scope, token, generation);
    return true;
  } catch (error) {
    scope.logger.info('the hosted cluster does not take the bootstrap token yet', { reason: error instanceof Error ? error.message : String(error) });
    return false;
  }
}

/** The first retry of a hosted cluster that does not take the bootstrap token, and the longest. */
const GUEST_RETRY_MS = 30_000;
const GUEST_RETRY_MAX_MS = 5 * 60_000;

/**
 * When to try the hosted cluster again: 30 s after the first failure, doubling up to 5 minutes, so pools of clusters
 * whose API servers never answer (found by the 50-cluster bench: their 30-s retries never let the operator go idle)
 * cost little; the pool's own events and its HostedCluster's wake it sooner.
 */
function guestRetryAfter(scope: Scope, key: string, reached: boolean): number | undefined {
  const retries = scope.deps.guestRetries;
  if (reached) {
    retries?.delete(key);
    return undefined;
  }
  const attempt = (retries?.get(key) ?? 0) + 1;
  retries?.set(key, attempt);
  return Math.min(GUEST_RETRY_MS * 2 ** (attempt - 1), GUEST_RETRY_MAX_MS);
}

/**
 * Keeps a generation's join credentials current on its token Secret: the ignition token rotated every 5.5 hours (the
 * previous one still accepted, as upstream), a bootstrap token of the hosted cluster (renewed at half its 11-hour
 * life; kube-controller-manager's token cleaner removes expired ones), and the pool's node labels and taints, which
 * change in place without a new generation. The write is guarded by the Secret's resourceVersion, so two reconciles
 * never both rotate; the bootstrap token is recorded before it is made in the hosted cluster (and made again after a
 * failure), so every token there is one the approver knows. Returns the current ignition token and when to look again.
 */
export async function ensureJoinCredentials(scope: Scope, secret: TokenSecret, generation: string): Promise<{ token: string; requeueAfterMs: number }> {
  const plan = joinPlan(scope, secret);
  if (Object.keys(plan.data).length + Object.keys(plan.annotations).length > 0) {
    const ref = { apiVersion: 'v1', kind: 'Secret', namespace: secret.metadata?.namespace ?? '', name: secret.metadata?.name ?? '' };
    await scope.deps.client.mergePatch(ref, { metadata: { resourceVersion: secret.metadata?.resourceVersion, annotations: plan.annotations }, data: plan.data });
  }
  const inGuest = await madeInGuest(scope, recordedBootstrapToken(secret, plan), generation);
  const retry = guestRetryAfter(scope, `${nodePoolKeyOf(scope.np)}/${generation}`, inGuest);
  return { token: fromBase64(plan.data[TokenSecretKey.Token] ?? secret.data?.[TokenSecretKey.Token]), requeueAfterMs: retry === undefined ? plan.requeueAfterMs : Math.min(plan.requeueAfterMs, retry) };
}
