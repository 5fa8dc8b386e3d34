import type { HostedControlPlane } from '../../api/index.ts';
import { MANAGED_BY } from '../common/placement.ts';
import { ControlPlaneNames } from '../names.ts';
import { randomCharacters } from '../../lib/random.ts';

/**
 * The kubeadmin credential. Upstream's OAuth server checks the kubeadmin password and hands out tokens for the user
 * `kube:admin` (group `system:cluster-admins`). This lean control plane has no OAuth server, so kube-apiserver itself
 * accepts the password as a bearer token (a static token file) for that same user. The `system:masters` group is
 * added because nothing inside the hosted cluster binds `system:cluster-admins` to cluster-admin yet.
 */
export const KUBEADMIN = {
  user: 'kube:admin',
  uid: 'kube:admin',
  groups: ['system:cluster-admins', 'system:masters'],
  /** The key of the password in both the control-plane and the published Secret (upstream's). */
  passwordKey: 'password',
  /** The key of the token file in its Secret. */
  tokenFileKey: 'token.csv',
} as const;

/** Letters and digits that cannot be mistaken for one another when read aloud or copied by hand (no 0/O, 1/l/I). */
const ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const GROUPS = 4;
const GROUP_LENGTH = 5;

/**
 * A new kubeadmin password in upstream's shape: four groups of five characters joined by dashes (about 117 bits).
 * Characters are drawn without modulo bias ({@link randomCharacters}).
 */
export function generateKubeadminPassword(random: (n: number) => Uint8Array): string {
  const chars = randomCharacters(random, ALPHABET, GROUPS * GROUP_LENGTH);
  const groups = Array.from({ length: GROUPS }, (_, i) => chars.slice(i * GROUP_LENGTH, (i + 1) * GROUP_LENGTH));
  return groups.join('-');
}

/** Whether a string has the shape {@link generateKubeadminPassword} produces (a stored one is kept only if so). */
export function isKubeadminPassword(value: string): boolean {
  return new RegExp(`^[${ALPHABET}]{${String(GROUP_LENGTH)}}(-[${ALPHABET}]{${String(GROUP_LENGTH)}}){${String(GROUPS - 1)}}$`).test(value);
}

interface AuthenticationConfiguration {
  oauth?: { identityProviders?: unknown[] };
  authentication?: { type?: string };
}

/**
 * Whether the cluster has a kubeadmin user: as upstream, only while no identity provider is configured
 * (`spec.configuration.oauth.identityProviders`) and the integrated OAuth is in use (not `OIDC` or `None`).
 */
export function kubeadminEnabled(cluster: { readonly spec: { readonly configuration?: Record<string, unknown> | undefined } }): boolean {
  const configuration = (cluster.spec.configuration ?? {}) as AuthenticationConfiguration;
  const type = configuration.authentication?.type ?? '';
  if (type === 'OIDC' || type === 'None') return false;
  return (configuration.oauth?.identityProviders ?? []).length === 0;
}

/**
 * The static token file kube-apiserver reads: the password as the bearer token of `kube:admin`. Holds the password,
 * so it is a Secret (never a ConfigMap); only the operator renders it.
 */
export function renderKubeadminTokenFile(hcp: HostedControlPlane, password: string): Record<string, unknown> {
  const line = `${password},${KUBEADMIN.user},${KUBEADMIN.uid},"${KUBEADMIN.groups.join(',')}"\n`;
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: ControlPlaneNames.kubeadminTokenFile, namespace: hcp.metadata.namespace, labels: { [MANAGED_BY.key]: MANAGED_BY.value } },
    type: 'Opaque',
    data: { [KUBEADMIN.tokenFileKey]: Buffer.from(line).toString('base64') },
  };
}
