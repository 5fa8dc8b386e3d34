import type { NodePool } from '../../api/index.ts';
import { toBase64 } from '../../lib/base64.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { toYaml } from '../../lib/yaml.ts';
import { CONTROL_PLANE_SECRET_LABEL } from '../hostedcluster/names.ts';
import type { KubeManifest } from '../../api/manifest.ts';
import { PkiSecret } from '../../controlplane/pki/plan.ts';
import { nodeSettingsOf } from './join.ts';

/** Keys and annotations of the per-generation token Secret (upstream's, read by the ignition server). */
export const TokenSecretKey = {
  Token: 'token',
  /** The token before the last rotation: still accepted, so machines given it just before a rotation still boot. */
  OldToken: 'old_token',
  /** The hosted cluster's bootstrap token (`<id>.<secret>`) the generation's kubelets join with. */
  BootstrapToken: 'bootstrap-token',
  /** JSON `{labels, taints}`: what the kubelets register with; updated in place, not a new generation (as upstream). */
  NodeSettings: 'node-settings',
  Release: 'release',
  ReleaseVersion: 'release-version',
  Config: 'config',
  PullSecretHash: 'pull-secret-hash',
  HCConfigurationHash: 'hc-configuration-hash',
  AdditionalTrustBundleHash: 'additional-trust-bundle-hash',
  /**
   * The HostedCluster's additional trust bundle (PEM) the generation's machines are given, when it has one: the
   * ignition endpoint reads only the control-plane namespace's Secrets. Its hash above is what makes a generation.
   */
  AdditionalTrustBundle: 'additional-trust-bundle',
} as const;
export const TokenSecretAnnotation = {
  IgnitionConfig: 'hypershift.openshift.io/ignition-config',
  GenerationTime: 'hypershift.openshift.io/last-token-generation-time',
  UpgradeType: 'hypershift.openshift.io/node-pool-upgrade-type',
  /** The NodePool (`<namespace>/<name>`) a token or user-data Secret belongs to. */
  NodePool: 'hypershift.openshift.io/nodePool',
  /** When an outdated generation's token stops being accepted (upstream's key; RFC 3339). */
  Expiration: 'hypershift.openshift.io/ignition-token-expiration-timestamp',
  /** Set by the ignition endpoint once a machine fetched this generation's config (upstream's key). */
  IgnitionReached: 'hypershift.openshift.io/ignition-reached',
} as const;

/** The CA Secret in the control-plane namespace whose `tls.crt` the ignition endpoint's certificate chains to. */
export const IGNITION_CA_SECRET = PkiSecret.ignitionCA;

/** Everything a NodePool generation's bootstrap data depends on; any change makes a new generation. */
export interface BootstrapConfig {
  readonly releaseImage: string;
  /** The NodePool's `spec.config` ConfigMaps' payloads, in spec order. */
  readonly config: readonly string[];
  readonly pullSecretHash: string;
  readonly additionalTrustBundleHash: string;
  readonly hcConfigurationHash: string;
}

/** A short hash of a generation's bootstrap config: the suffix of its Secrets' names (upstream: 8 characters). */
export const bootstrapConfigHash = (config: BootstrapConfig): string => sha256Hex(toYaml(config)).slice(0, 8);

/** The names of one generation's Secrets in the control-plane namespace. */
export const BootstrapNames = {
  token: (nodePoolName: string, hash: string): string => `token-${nodePoolName}-${hash}`,
  userData: (nodePoolName: string, hash: string): string => `user-data-${nodePoolName}-${hash}`,
  /** The copy in the VMs' namespace that the cloud-init volume reads (cluster-api-provider-kubevirt's name). */
  infraUserData: (userDataSecretName: string): string => `${userDataSecretName}-userdata`,
};

/** What one generation's token Secret is made from (the token itself comes from injected randomness). */
export interface TokenSecretInput {
  readonly nodePool: Pick<NodePool, 'metadata' | 'spec'>;
  readonly namespace: string;
  readonly hash: string;
  readonly config: BootstrapConfig;
  readonly token: string;
  readonly releaseVersion: string;
  /** The generation's config payload as the ignition server reads it (gzip, base64). */
  readonly compressedConfig: string;
  readonly now: Date;
  /** The HostedCluster's additional trust bundle (PEM), when it has one. */
  readonly additionalTrustBundle?: string;
}

const nodePoolKey = (nodePool: Pick<NodePool, 'metadata'>): string => `${nodePool.metadata.namespace ?? ''}/${nodePool.metadata.name ?? ''}`;

/** A bootstrap Secret in the control-plane namespace, labelled for the operator's shared Secret cache. */
function controlPlaneSecret(name: string, namespace: string, annotations: Record<string, string>, data: Record<string, string>): KubeManifest {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace, labels: { [CONTROL_PLANE_SECRET_LABEL.key]: CONTROL_PLANE_SECRET_LABEL.value }, annotations }, type: 'Opaque', data };
}

/**
 * The token Secret of one generation: the bearer token machines present to the ignition endpoint and what the
 * ignition server needs to build their configuration. Created once and never rewritten, so the token stays stable
 * for the generation's whole rollout.
 */
export function renderTokenSecret(input: TokenSecretInput): KubeManifest {
  const { config } = input;
  const annotations = {
    [TokenSecretAnnotation.IgnitionConfig]: 'true',
    [TokenSecretAnnotation.GenerationTime]: input.now.toISOString(),
    [TokenSecretAnnotation.UpgradeType]: input.nodePool.spec.management.upgradeType ?? 'Replace',
    [TokenSecretAnnotation.NodePool]: nodePoolKey(input.nodePool),
  };
  return controlPlaneSecret(BootstrapNames.token(input.nodePool.metadata.name ?? '', input.hash), input.namespace, annotations, {
    [TokenSecretKey.Token]: toBase64(input.token),
    [TokenSecretKey.Release]: toBase64(config.releaseImage),
    [TokenSecretKey.ReleaseVersion]: toBase64(input.releaseVersion),
    [TokenSecretKey.Config]: toBase64(input.compressedConfig),
    [TokenSecretKey.PullSecretHash]: toBase64(config.pullSecretHash),
    [TokenSecretKey.AdditionalTrustBundleHash]: toBase64(config.additionalTrustBundleHash),
    [TokenSecretKey.HCConfigurationHash]: toBase64(config.hcConfigurationHash),
    [TokenSecretKey.NodeSettings]: toBase64(JSON.stringify(nodeSettingsOf(input.nodePool))),
    ...(input.additionalTrustBundle === undefined || input.additionalTrustBundle === '' ? {} : { [TokenSecretKey.AdditionalTrustBundle]: toBase64(input.additionalTrustBundle) }),
  });
}

/** What a generation's user data (the machines' Ignition pointer) is made from. */
export interface UserDataInput {
  readonly nodePool: Pick<NodePool, 'metadata'>;
  readonly hash: string;
  readonly token: string;
  /** `host[:port]` of the ignition endpoint (the HostedCluster's `status.ignitionEndpoint`). */
  readonly ignitionEndpoint: string;
  /** PEM of the CA the endpoint's certificate chains to. */
  readonly ignitionCA: string;
  readonly proxy?: { readonly httpProxy?: string; readonly httpsProxy?: string; readonly noProxy?: string };
}

/**
 * The Ignition config every machine of a generation boots with: merge the configuration served at
 * `https://<endpoint>/ignition`, presenting the token, the NodePool and the generation's hash, trusting only the
 * ignition CA (Ignition spec 3.2.0, as upstream).
 */
export function ignitionPointer(input: UserDataInput): Record<string, unknown> {
  const proxy = input.proxy ?? {};
  const noProxy = (proxy.noProxy ?? '').split(',').filter((item) => item !== '');
  const hasProxy = proxy.httpProxy !== undefined || proxy.httpsProxy !== undefined || noProxy.length > 0;
  return {
    ignition: {
      version: '3.2.0',
      config: {
        merge: [{
          source: `https://${input.ignitionEndpoint}/ignition`,
          httpHeaders: [
            { name: 'Authorization', value: `Bearer ${toBase64(input.token)}` },
            { name: 'NodePool', value: nodePoolKey(input.nodePool) },
            { name: 'TargetConfigVersionHash', value: input.hash },
          ],
        }],
      },
      security: { tls: { certificateAuthorities: [{ source: `data:text/plain;base64,${toBase64(input.ignitionCA)}` }] } },
      ...(hasProxy ? { proxy: { ...(proxy.httpProxy === undefined ? {} : { httpProxy: proxy.httpProxy }), ...(proxy.httpsProxy === undefined ? {} : { httpsProxy: proxy.httpsProxy }), ...(noProxy.length > 0 ? { noProxy } : {}) } } : {}),
    },
  };
}

/** The user-data Secret of one generation in the control-plane namespace (key `value`, upstream's shape). */
export function renderUserDataSecret(input: UserDataInput & { readonly namespace: string }): KubeManifest {
  const data = { disableTemplating: toBase64(toBase64('true')), value: toBase64(JSON.stringify(ignitionPointer(input))) };
  return controlPlaneSecret(BootstrapNames.userData(input.nodePool.metadata.name ?? '', input.hash), input.namespace, { [TokenSecretAnnotation.NodePool]: nodePoolKey(input.nodePool) }, data);
}

/**
 * The copy of a generation's user data in the VMs' namespace, which their cloud-init config drive reads (key
 * `userdata`, Cluster API's bootstrap Secret type, as cluster-api-provider-kubevirt makes it).
 */
export function renderInfraUserDataSecret(input: { readonly userDataSecretName: string; readonly namespace: string; readonly nodePool: Pick<NodePool, 'metadata'>; readonly userData: string; readonly labels: Readonly<Record<string, string>> }): KubeManifest {
  const { userDataSecretName, namespace, nodePool, userData, labels } = input;
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: BootstrapNames.infraUserData(userDataSecretName),
      namespace,
      labels: { ...labels },
      annotations: { [TokenSecretAnnotation.NodePool]: nodePoolKey(nodePool) },
    },
    type: 'cluster.x-k8s.io/secret',
    data: { userdata: toBase64(userData) },
  };
}
