import type { HostedCluster } from '../../../../api/index.ts';
import { HostedClusterNames, OPERATOR_FIELD_MANAGER } from '../../../../render/hostedcluster/names.ts';
import { renderEtcdEncryptionKey } from '../../../../render/hostedcluster/secrets.ts';
import { LOWER_ALPHANUMERIC, randomCharacters, uuid } from '../../../../lib/random.ts';
import type { Phase, Scope } from '../scope.ts';

/** `n` random lowercase letters and digits (upstream's `utilrand.String`), from the injected random source. */
const randomString = (random: (n: number) => Uint8Array, n: number): string => randomCharacters(random, LOWER_ALPHANUMERIC, n);

const isEmpty = (value: string | undefined): boolean => value === undefined || value === '';

/** The spec fields the controller fills in when they are empty, as upstream's defaulting does. */
function missingDefaults(scope: Scope): Record<string, unknown> | undefined {
  const { spec, metadata } = scope.hc;
  // The API says "generated when empty": the `_id` label of the cluster's metrics and its dashboard need it.
  const patch: Record<string, unknown> = isEmpty(spec.clusterID) ? { clusterID: uuid(scope.deps.random) } : {};
  if (isEmpty(spec.infraID)) patch['infraID'] = `${metadata.name ?? ''}-${randomString(scope.deps.random, 5)}`;
  if (isEmpty(spec.platform.kubevirt?.generateID)) {
    patch['platform'] = { kubevirt: { generateID: randomString(scope.deps.random, 10) } };
  }
  if (spec.secretEncryption === undefined) patch['secretEncryption'] = { type: 'aescbc', aescbc: { activeKey: { name: HostedClusterNames.etcdEncryptionKey(scope.hc) } } };
  return Object.keys(patch).length === 0 ? undefined : patch;
}

/**
 * Defaulting: a missing clusterID, infraID, KubeVirt generateID and etcd encryption key are generated once and written to the
 * spec (with the key Secret, owned by the HostedCluster), so every later reconcile sees the same values.
 */
export const defaultsPhase: Phase = {
  name: 'defaults',
  async run(scope) {
    const patch = missingDefaults(scope);
    if (patch === undefined) return undefined;
    const { client } = scope.deps;
    if (patch['secretEncryption'] !== undefined) {
      const key = renderEtcdEncryptionKey(scope.hc, scope.deps.random(32));
      await client.apply(key, { fieldManager: OPERATOR_FIELD_MANAGER });
      scope.secrets.set('encryptionKey', { type: 'Opaque', data: key['data'] as Record<string, string> });
    }
    const ref = { apiVersion: scope.hc.apiVersion, kind: scope.hc.kind, name: scope.hc.metadata.name ?? '', namespace: scope.hc.metadata.namespace };
    scope.hc = await client.mergePatch<HostedCluster>(ref, { spec: patch });
    return undefined;
  },
};
