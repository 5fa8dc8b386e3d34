import type { Taint } from '../api/index.ts';
import { PkiSecret } from '../controlplane/pki/plan.ts';
import { fromBase64 } from '../lib/base64.ts';
import { HostedClusterNames } from '../render/hostedcluster/names.ts';
import { renderNodeIgnition } from '../render/ignition/node-config.ts';
import { TokenSecretKey } from '../render/nodepool/bootstrap.ts';

/** A Secret as the endpoint reads it: `data` values are base64. */
export interface SecretData {
  readonly metadata?: { readonly name?: string; readonly annotations?: Readonly<Record<string, string>> };
  readonly data?: Readonly<Record<string, string>>;
}

/** The cluster-wide settings the endpoint is started with (flags of `hcp-operator ignition-server`). */
export interface ClusterSettings {
  readonly apiServerURL: string;
  readonly clusterDNS: string;
  readonly clusterDomain: string;
  readonly sandboxImage: string;
}

/** Why a known token's config cannot be served yet; the machine retries (503), nothing about it is revealed. */
export class PayloadUnavailable extends Error {
  override readonly name = 'PayloadUnavailable';
}

interface NodeSettings {
  readonly labels?: Record<string, string>;
  readonly taints?: Taint[];
}

function nodeSettings(tokenSecret: SecretData): NodeSettings {
  const raw = tokenSecret.data?.[TokenSecretKey.NodeSettings];
  if (raw === undefined) return {};
  try {
    return JSON.parse(fromBase64(raw)) as NodeSettings;
  } catch {
    throw new PayloadUnavailable(`${tokenSecret.metadata?.name ?? ''}: ${TokenSecretKey.NodeSettings} is not JSON`);
  }
}

function required(secret: SecretData | undefined, name: string, key: string): string {
  const value = secret?.data?.[key];
  if (value === undefined) throw new PayloadUnavailable(`Secret ${name} has no ${key} yet`);
  return fromBase64(value);
}

/**
 * The Ignition config for the machines of the generation `tokenSecret` describes: its bootstrap token, node settings
 * and trust bundle, the cluster's root CA, pull secret and SSH key from `secret(name)`, and the endpoint's settings.
 * Throws {@link PayloadUnavailable} while a part is missing (the NodePool controller writes the bootstrap token once
 * the hosted cluster has it).
 */
export function payloadFor(tokenSecret: SecretData, secret: (name: string) => SecretData | undefined, settings: ClusterSettings): Record<string, unknown> {
  const name = tokenSecret.metadata?.name ?? '';
  const node = nodeSettings(tokenSecret);
  const sshKey = secret(HostedClusterNames.sshKey)?.data?.['id_rsa.pub'];
  const trustBundle = tokenSecret.data?.[TokenSecretKey.AdditionalTrustBundle];
  return renderNodeIgnition({
    ...settings,
    clusterCA: required(secret(PkiSecret.rootCA), PkiSecret.rootCA, 'ca.crt'),
    bootstrapToken: required(tokenSecret, name, TokenSecretKey.BootstrapToken),
    pullSecret: required(secret(HostedClusterNames.pullSecret), HostedClusterNames.pullSecret, '.dockerconfigjson'),
    nodeLabels: node.labels ?? {},
    taints: node.taints ?? [],
    sshAuthorizedKeys: sshKey === undefined ? [] : fromBase64(sshKey).split('\n').map((line) => line.trim()).filter((line) => line !== ''),
    ...(trustBundle === undefined ? {} : { additionalTrustBundle: fromBase64(trustBundle) }),
  });
}
