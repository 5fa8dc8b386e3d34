import { gzipSync } from 'node:zlib';
import type { HostedCluster, NodePool } from '../../../../api/index.ts';
import { NodePoolConditionReason as Reason, NodePoolConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { Label, UserCABundle } from '../../../../api/v1beta1/well-known.ts';
import type { KubeObject } from '../../../../kube/client.ts';
import { KubeApiError } from '../../../../kube/errors.ts';
import { fromBase64 } from '../../../../lib/base64.ts';
import { sha256Hex } from '../../../../lib/hash.ts';
import { toYaml } from '../../../../lib/yaml.ts';
import { HostedClusterNames, OPERATOR_FIELD_MANAGER } from '../../../../render/hostedcluster/names.ts';
import type { SourceSecret } from '../../../../render/hostedcluster/secrets.ts';
import { BootstrapNames, bootstrapConfigHash, IGNITION_CA_SECRET, renderInfraUserDataSecret, renderTokenSecret, renderUserDataSecret, TokenSecretAnnotation, TokenSecretKey, type BootstrapConfig } from '../../../../render/nodepool/bootstrap.ts';
import { applyUnlessUnchanged } from '../../../../runtime/apply.ts';
import { ensureJoinCredentials, newBootstrapTokenFields } from '../join-credentials.ts';
import { uuid } from '../../../../lib/random.ts';
import { produced, appliedKey, setCondition, type Phase, type Scope } from '../scope.ts';

type ConfigMap = KubeObject & { data?: Record<string, string> };

const hashOf = (value: unknown): string => sha256Hex(toYaml(value ?? null)).slice(0, 16);
const cpSecret = (scope: Scope, name: string): SourceSecret | undefined => scope.deps.controlPlaneSecret(`${scope.controlPlaneNamespace ?? ''}/${name}`);

/** A ConfigMap from the controller's cache: every change of one a pool refers to reconciles that pool. */
const readConfigMap = (scope: Scope, namespace: string, name: string): ConfigMap | undefined => scope.deps.configMap(`${namespace}/${name}`);

/** The NodePool's `spec.config` payloads (key `config` of each ConfigMap); a missing one is named. */
function machineConfigs(scope: Scope, np: NodePool): string[] | { missing: string } {
  const payloads: string[] = [];
  for (const ref of np.spec.config ?? []) {
    const name = ref.name ?? '';
    const payload = readConfigMap(scope, np.metadata.namespace ?? '', name)?.data?.['config'];
    if (payload === undefined) return { missing: name };
    payloads.push(payload);
  }
  return payloads;
}

/** The HostedCluster's additional trust bundle (PEM; empty without one or while its ConfigMap is missing). */
function trustBundle(scope: Scope, hc: HostedCluster): string {
  const name = hc.spec.additionalTrustBundle?.name;
  return name === undefined ? '' : (readConfigMap(scope, hc.metadata.namespace ?? '', name)?.data?.[UserCABundle.Key] ?? '');
}

/** Where machines fetch their configuration, and the CA to trust; undefined (with the condition set) while missing. */
function ignitionEndpoint(scope: Scope, hc: HostedCluster): { endpoint: string; ca: string } | undefined {
  const type = Type.IgnitionEndpointAvailable.value;
  const endpoint = hc.status?.ignitionEndpoint ?? '';
  if (endpoint === '') {
    setCondition(scope, { type, status: 'False', reason: Reason.IgnitionEndpointMissing.value, message: 'Ignition endpoint not available, waiting' });
    return undefined;
  }
  const ca = cpSecret(scope, IGNITION_CA_SECRET);
  if (ca?.data?.['tls.crt'] === undefined) {
    setCondition(scope, { type, status: 'False', reason: Reason.IgnitionCACertMissing.value, message: ca === undefined ? 'still waiting for ignition CA cert Secret to exist' : 'CA Secret is missing tls.crt key' });
    return undefined;
  }
  setCondition(scope, { type, status: 'True', reason: Reason.AsExpected.value, message: '' });
  return { endpoint, ca: fromBase64(ca.data['tls.crt']) };
}

/** A new token Secret for the generation (the config payload gzipped as the ignition server reads it). */
function tokenSecret(scope: Scope, generation: { config: BootstrapConfig; hash: string; token: string }): ReturnType<typeof renderTokenSecret> {
  const compressedConfig = gzipSync(generation.config.config.join('\n---\n')).toString('base64');
  const additionalTrustBundle = trustBundle(scope, produced(scope, 'hc'));
  const secret = renderTokenSecret({ nodePool: scope.np, namespace: scope.controlPlaneNamespace ?? '', ...generation, releaseVersion: scope.release?.version ?? '', compressedConfig, now: scope.now, additionalTrustBundle });
  if (scope.guest === undefined) return secret;
  // The hosted cluster is known: the generation starts with its bootstrap token (made there right after).
  const join = newBootstrapTokenFields(scope);
  return { ...secret, metadata: { ...secret.metadata, annotations: { ...secret.metadata.annotations, ...join.annotations } }, data: { ...(secret['data'] as Record<string, string>), ...join.data } };
}

type TokenSecret = KubeObject & SourceSecret;

/** The generation's token Secret: the stored one (its token rotates in place), or a new one holding a new token. */
async function ensureTokenSecret(scope: Scope, config: BootstrapConfig, hash: string): Promise<TokenSecret> {
  const namespace = scope.controlPlaneNamespace ?? '';
  const name = BootstrapNames.token(scope.np.metadata.name ?? '', hash);
  const cached = cpSecret(scope, name) as TokenSecret | undefined;
  if (cached?.data?.[TokenSecretKey.Token] !== undefined) return cached;
  try {
    return await scope.deps.client.create<TokenSecret>(tokenSecret(scope, { config, hash, token: uuid(scope.deps.random) }));
  } catch (error) {
    // Created by a reconcile whose result the cache has not shown yet: the stored token wins.
    if (!(error instanceof KubeApiError && error.status === 409)) throw error;
    return scope.deps.client.get<TokenSecret>({ apiVersion: 'v1', kind: 'Secret', name, namespace });
  }
}

/** ReachedIgnitionEndpoint: a machine of the current generation fetched its configuration (the endpoint's mark). */
function reachedCondition(scope: Scope, secret: TokenSecret): void {
  const reached = secret.metadata?.annotations?.[TokenSecretAnnotation.IgnitionReached] !== undefined;
  setCondition(scope, { type: Type.ReachedIgnitionEndpoint.value, status: reached ? 'True' : 'False', reason: reached ? Reason.AsExpected.value : Reason.IgnitionNotReached.value, message: '' });
}

/** Server-side applies `object` unless the last apply from this process was identical. */
async function applyOnce(scope: Scope, client: Scope['deps']['client'], object: KubeObject): Promise<void> {
  const key = appliedKey(object.kind, object.metadata?.namespace ?? '', object.metadata?.name ?? '');
  await applyUnlessUnchanged(client, object, { lastApplied: scope.deps.lastApplied, key, fieldManager: OPERATOR_FIELD_MANAGER });
}

function bootstrapConfig(scope: Scope, hc: HostedCluster): BootstrapConfig | undefined {
  const configs = machineConfigs(scope, scope.np);
  if (!Array.isArray(configs)) {
    setCondition(scope, { type: Type.ValidMachineConfig.value, status: 'False', reason: Reason.ValidationFailed.value, message: `ConfigMap ${configs.missing} named in spec.config does not exist in namespace ${scope.np.metadata.namespace ?? ''} or has no "config" key` });
    return undefined;
  }
  // The pull secret is part of the generation: hashing a copy that is not there yet would start a second generation
  // (and replace every machine) the moment it appears.
  const pullSecret = cpSecret(scope, HostedClusterNames.pullSecret);
  if (pullSecret === undefined) {
    setCondition(scope, { type: Type.ValidGeneratedPayload.value, status: 'False', reason: Reason.NotFound.value, message: `waiting for the pull secret to be copied into ${scope.controlPlaneNamespace ?? ''}` });
    return undefined;
  }
  return { releaseImage: scope.np.spec.release.image, config: configs, pullSecretHash: hashOf(pullSecret?.data ?? {}), additionalTrustBundleHash: hashOf(trustBundle(scope, hc)), hcConfigurationHash: hashOf(hc.spec.configuration ?? {}) };
}

/**
 * The bootstrap data of the pool's current generation: a token Secret and a user-data Secret (an Ignition pointer
 * to the control plane's ignition endpoint carrying the token) in the control-plane namespace, and the user data's
 * copy beside the VMs. A change of release, config, pull secret, trust bundle or cluster configuration is a new
 * generation with new Secrets; older ones stay while machines still boot from them (see the janitor phase).
 */
export const bootstrapPhase: Phase = {
  name: 'bootstrap',
  async run(scope) {
    const hc = produced(scope, 'hc');
    const ignition = ignitionEndpoint(scope, hc);
    const config = ignition === undefined ? undefined : bootstrapConfig(scope, hc);
    if (ignition === undefined || config === undefined) return { stop: true };
    const hash = bootstrapConfigHash(config);
    const stored = await ensureTokenSecret(scope, config, hash);
    reachedCondition(scope, stored);
    const { token, requeueAfterMs } = await ensureJoinCredentials(scope, stored, hash);
    const userData = renderUserDataSecret({ nodePool: scope.np, namespace: scope.controlPlaneNamespace ?? '', hash, token, ignitionEndpoint: ignition.endpoint, ignitionCA: ignition.ca });
    await applyOnce(scope, scope.deps.client, userData);
    const infra = produced(scope, 'infra');
    const pointer = fromBase64((userData['data'] as Record<string, string>)['value']);
    const labels = { [Label.NodePoolName]: scope.np.metadata.name ?? '', [Label.InfraID]: hc.spec.infraID ?? '' };
    await applyOnce(scope, infra.client, renderInfraUserDataSecret({ userDataSecretName: userData.metadata.name, namespace: infra.namespace, nodePool: scope.np, userData: pointer, labels }));
    setCondition(scope, { type: Type.ValidGeneratedPayload.value, status: 'True', reason: Reason.AsExpected.value, message: 'Bootstrap payload generated' });
    scope.bootstrap = { configHash: hash, userDataSecretName: BootstrapNames.infraUserData(userData.metadata.name) };
    return { requeueAfterMs };
  },
};
