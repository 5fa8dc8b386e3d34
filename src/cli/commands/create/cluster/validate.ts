import type { AvailabilityPolicy, NetworkType, NodePoolArch, OptionalCapability, UpgradeType } from '../../../../api/index.ts';
import { QUANTITY_PATTERN, DNS1123_LABEL, DNS1123_SUBDOMAIN } from '../../../../api/schema/patterns.ts';
import { formatDuration } from '../../../../lib/duration.ts';
import { kubevirtNodePoolPlatform, validateKubevirtNodePoolFlags } from '../../../../platform/kubevirt/nodepool-platform.ts';
import type { ClusterInput } from '../../../../render/cluster/input.ts';
import { invalidFlag, UserError } from '../../../framework/errors.ts';
import type { FlagReader } from '../../../framework/parse.ts';
import { kubevirtNodePoolFlags } from '../../../options/kubevirt-nodepool-flags.ts';
import { isCidr, parseClassMapping, parseKeyValue, parseToleration, storageClassMapping, volumeSnapshotClassMapping, type Parsed, type Problem } from './parsers.ts';

/** What validation hands to completion: the render input without file contents and random parts, plus file paths. */
export interface ValidatedCluster {
  readonly input: Omit<ClusterInput, 'infraID' | 'pullSecret' | 'sshKey' | 'etcdEncryptionKey' | 'additionalTrustBundle' | 'imageContentSources' | 'infraCredentials'>;
  readonly infraID: string;
  readonly files: ClusterFiles;
  readonly infraNamespace: string;
  readonly generateSsh: boolean;
  readonly render: { readonly enabled: boolean; readonly into: string; readonly sensitive: boolean };
  readonly wait: { readonly enabled: boolean; readonly timeoutMs: number };
  readonly kubeconfig: string;
  readonly warnings: readonly string[];
}

const CAPABILITIES: readonly OptionalCapability[] = ['ImageRegistry', 'openshift-samples', 'Insights', 'baremetal', 'Console', 'NodeTuning', 'Ingress'];
/** The architectures KubeVirt nodes can run (upstream's operator refuses the others later, with ValidArchPlatform=False). */
const KUBEVIRT_ARCHES: readonly NodePoolArch[] = ['amd64', 's390x'];

const bad = invalidFlag;
const fromProblem = (p: Problem): UserError => invalidFlag(p.flag, p.value, p.message);

/** Collects the values of a list of parses and turns their problems into errors. */
function collect<T>(parses: readonly Parsed<T>[], errors: UserError[]): T[] {
  const out: T[] = [];
  for (const p of parses) if ('ok' in p) out.push(p.ok);
  else errors.push(fromProblem(p.problem));
  return out;
}

function oneOf<T extends string>(f: FlagReader, name: string, values: readonly T[], errors: UserError[]): T {
  const value = f.string(name);
  if (!values.includes(value as T)) errors.push(bad(name, value, `supported values are ${values.join(', ')}`));
  return value as T;
}

function required(f: FlagReader, errors: UserError[]): void {
  if (f.string('name') === '') errors.push(new UserError('--name is required'));
  else if (!new RegExp(DNS1123_LABEL).test(f.string('name')) || f.string('name').length > 63) {
    errors.push(new UserError(`HostedCluster name failed RFC1123 validation: invalid --name "${f.string('name')}": must be lowercase letters, digits and "-", start and end with a letter or digit, at most 63 characters`));
  }
  if (f.string('pull-secret') === '') errors.push(new UserError('--pull-secret is required'));
}

function networkTypeRules(f: FlagReader, networkType: NetworkType, errors: UserError[]): void {
  if (f.bool('disable-multi-network') && networkType !== 'Other') errors.push(new UserError(`disableMultiNetwork is only allowed when networkType is 'Other' (got '${networkType}')`));
  if (f.bool('allocate-node-cidrs') && networkType !== 'Other') errors.push(new UserError(`allocateNodeCIDRs is only allowed when networkType is 'Other' (got '${networkType}')`));
  const mtu = f.number('ovn-kubernetes-mtu');
  if (mtu === 0) return;
  if (networkType !== 'OVNKubernetes') errors.push(new UserError(`--ovn-kubernetes-mtu is only valid when --network-type is OVNKubernetes (got '${networkType}')`));
  if (mtu < 576 || mtu > 9216) errors.push(bad('ovn-kubernetes-mtu', String(mtu), 'must be between 576 and 9216'));
}

function networkChecks(f: FlagReader, errors: UserError[]): NetworkType {
  const networkType = oneOf<NetworkType>(f, 'network-type', ['Calico', 'OVNKubernetes', 'OpenShiftSDN', 'Other'], errors);
  networkTypeRules(f, networkType, errors);
  for (const name of ['service-cidr', 'cluster-cidr', 'machine-cidr']) {
    for (const cidr of f.strings(name)) if (!isCidr(cidr)) errors.push(bad(name, cidr, 'must be an IPv4 or IPv6 CIDR such as 10.132.0.0/14'));
  }
  if (f.bool('default-dual')) errors.push(bad('default-dual', 'true', 'dual-stack defaults are not supported on the KubeVirt platform; give --cluster-cidr and --service-cidr twice instead'));
  return networkType;
}

function capabilityChecks(f: FlagReader, errors: UserError[]): { enabled: OptionalCapability[]; disabled: OptionalCapability[] } {
  const check = (flag: string): OptionalCapability[] =>
    f.strings(flag).filter((c) => {
      const known = CAPABILITIES.includes(c as OptionalCapability);
      if (!known) errors.push(bad(flag, c, `unknown capability, accepted values are: [${CAPABILITIES.join(' ')}]`));
      return known;
    }) as OptionalCapability[];
  const enabled = check('enable-cluster-capabilities');
  const disabled = check('disable-cluster-capabilities');
  if (disabled.includes('Ingress') && !disabled.includes('Console')) errors.push(new UserError('ingress capability can only be disabled if Console capability is also disabled'));
  for (const c of enabled.filter((e) => disabled.includes(e))) errors.push(new UserError(`capability ${c} cannot be both enabled and disabled`));
  return { enabled, disabled };
}

function pausedUntilCheck(f: FlagReader, errors: UserError[]): string {
  const value = f.string('pausedUntil');
  const isDate = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value));
  if (value !== '' && !['true', 'false'].includes(value) && !isDate) {
    errors.push(new UserError(`invalid pausedUntil value, should be "true" or a valid RFC3339 date format: invalid --pausedUntil "${value}"`));
  }
  return value;
}

function keyValues(f: FlagReader, flag: string, errors: UserError[]): Record<string, string> {
  return Object.fromEntries(collect(f.strings(flag).map((t) => parseKeyValue(flag, t)), errors));
}

function featureSetCheck(f: FlagReader, errors: UserError[]): void {
  const featureSet = f.string('feature-set');
  if (featureSet === 'CustomNoUpgrade') errors.push(new UserError('only a predefined feature set is supported by the feature-set flag'));
  else if (!['Default', 'TechPreviewNoUpgrade', 'DevPreviewNoUpgrade'].includes(featureSet)) {
    errors.push(new UserError(`specified feature set "${featureSet}" is not supported: supported values are Default, TechPreviewNoUpgrade, DevPreviewNoUpgrade`));
  }
}

function infraCheck(f: FlagReader, errors: UserError[]): void {
  const kubeconfig = f.string('infra-kubeconfig-file');
  if ((kubeconfig === '') === (f.string('infra-namespace') === '')) return;
  errors.push(new UserError(kubeconfig === '' ? 'external infra cluster namespace was provided but a kubeconfig is missing' : 'external infra cluster kubeconfig was provided but an infra namespace is missing'));
}

function formatChecks(f: FlagReader, errors: UserError[]): void {
  const size = f.string('etcd-storage-size');
  if (size !== '' && !new RegExp(QUANTITY_PATTERN).test(size)) errors.push(bad('etcd-storage-size', size, 'must be a quantity such as 8Gi'));
  const kas = f.string('kas-dns-name');
  if (kas !== '' && !new RegExp(DNS1123_SUBDOMAIN).test(kas)) errors.push(new UserError(`KubeAPIServerDNSName failed DNS validation: invalid --kas-dns-name "${kas}": must be a lowercase DNS name`));
}

function miscChecks(f: FlagReader, errors: UserError[]): void {
  if (f.bool('wait') && f.number('node-pool-replicas') < 1) errors.push(new UserError('--wait requires --node-pool-replicas > 0'));
  if (f.bool('generate-ssh') && f.string('ssh-key') !== '') errors.push(new UserError('--generate-ssh and --ssh-key cannot be specified together'));
  formatChecks(f, errors);
  featureSetCheck(f, errors);
  infraCheck(f, errors);
}

/** Upstream's KubeVirt checks of the publishing strategy (a NodePort address is looked up later when not given). */
function servicePublishing(f: FlagReader, errors: UserError[]): ValidatedCluster['input']['servicePublishing'] {
  const strategy = f.string('service-publishing-strategy');
  const address = f.string('api-server-address');
  if (strategy !== 'Ingress' && strategy !== 'NodePort') {
    errors.push(new UserError(`service publish strategy ${strategy} is not supported, supported options: Ingress, NodePort`));
    return { type: 'Ingress' };
  }
  if (strategy === 'Ingress') {
    if (address !== '') errors.push(new UserError(`external-api-server-address is supported only for NodePort service publishing strategy, service publishing strategy ${strategy} is used`));
    return { type: 'Ingress' };
  }
  if (address === '' && (f.bool('render') || f.string('render-into') !== '')) errors.push(new UserError('--api-server-address is required with --service-publishing-strategy=NodePort and --render: there is no cluster to read a node address from'));
  return { type: 'NodePort', address };
}

function warnings(f: FlagReader): string[] {
  const out: string[] = [];
  if (f.string('base-domain-prefix') !== '') out.push('--base-domain-prefix is ignored on the KubeVirt platform');
  if (f.string('release-stream') !== '' && f.string('release-image') !== '') out.push('--release-stream is ignored because --release-image is set');
  return out;
}

function olmPlacement(f: FlagReader, errors: UserError[]): 'management' | 'guest' {
  const value = f.string('olm-catalog-placement').toLowerCase();
  if (value !== 'management' && value !== 'guest') errors.push(bad('olm-catalog-placement', f.string('olm-catalog-placement'), 'supported values are Management, Guest'));
  return value === 'guest' ? 'guest' : 'management';
}

function nodePool(f: FlagReader, errors: UserError[], pausedUntil: string): ValidatedCluster['input']['nodePool'] {
  const arch = f.string('arch') as NodePoolArch;
  if (!KUBEVIRT_ARCHES.includes(arch)) errors.push(bad('arch', arch, `the KubeVirt platform runs only ${KUBEVIRT_ARCHES.join(', ')} nodes`));
  const upgradeType = f.string('node-upgrade-type') === '' ? 'Replace' : oneOf<UpgradeType>(f, 'node-upgrade-type', ['Replace', 'InPlace'], errors);
  const platformFlags = kubevirtNodePoolFlags(f);
  errors.push(...validateKubevirtNodePoolFlags(platformFlags).map((p) => fromProblem(p)));
  if (f.number('node-pool-replicas') < 0) return undefined;
  return {
    replicas: f.number('node-pool-replicas'),
    arch,
    autoRepair: f.bool('auto-repair'),
    upgradeType,
    nodeDrainTimeout: formatDuration(f.number('node-drain-timeout')),
    nodeVolumeDetachTimeout: formatDuration(f.number('node-volume-detach-timeout')),
    ...(pausedUntil === '' ? {} : { pausedUntil }),
    platform: kubevirtNodePoolPlatform(platformFlags),
  };
}

function clusterInput(f: FlagReader, errors: UserError[]): ValidatedCluster['input'] {
  const networkType = networkChecks(f, errors);
  const capabilities = capabilityChecks(f, errors);
  const pausedUntil = pausedUntilCheck(f, errors);
  const policies = ['HighlyAvailable', 'SingleReplica'] as const;
  const infraPolicy = f.string('infra-availability-policy');
  return {
    name: f.string('name'),
    namespace: f.string('namespace'),
    releaseImage: f.string('release-image'),
    controllerAvailabilityPolicy: oneOf<AvailabilityPolicy>(f, 'control-plane-availability-policy', policies, errors),
    ...(infraPolicy === '' ? {} : { infrastructureAvailabilityPolicy: oneOf<AvailabilityPolicy>(f, 'infra-availability-policy', policies, errors) }),
    baseDomain: f.string('base-domain'),
    externalDnsDomain: f.string('external-dns-domain'),
    servicePublishing: servicePublishing(f, errors),
    networkType,
    clusterCidrs: f.strings('cluster-cidr'),
    serviceCidrs: f.strings('service-cidr'),
    machineCidrs: f.strings('machine-cidr'),
    etcdStorageClass: f.string('etcd-storage-class'),
    etcdStorageSize: f.string('etcd-storage-size'),
    fips: f.bool('fips'),
    annotations: keyValues(f, 'annotations', errors),
    labels: keyValues(f, 'labels', errors),
    nodeSelector: f.map('node-selector'),
    podsLabels: f.map('pods-labels'),
    tolerations: collect(f.strings('toleration').map(parseToleration), errors),
    pausedUntil,
    kasDnsName: f.string('kas-dns-name'),
    olmCatalogPlacement: olmPlacement(f, errors),
    olmDisableDefaultSources: f.bool('olm-disable-default-sources'),
    enabledCapabilities: capabilities.enabled,
    disabledCapabilities: capabilities.disabled,
    disableMultiNetwork: f.bool('disable-multi-network'),
    ovnKubernetesMtu: f.number('ovn-kubernetes-mtu'),
    allocateNodeCidrs: f.bool('allocate-node-cidrs'),
    storageClassMappings: collect(f.strings('infra-storage-class-mapping').map((t) => parseClassMapping('infra-storage-class-mapping', t)), errors).map(storageClassMapping),
    volumeSnapshotClassMappings: collect(f.strings('infra-volumesnapshot-class-mapping').map((t) => parseClassMapping('infra-volumesnapshot-class-mapping', t)), errors).map(volumeSnapshotClassMapping),
    nodePool: nodePool(f, errors, pausedUntil),
  };
}

/** The files `hcp create cluster` reads, by flag. */
export interface ClusterFiles {
  readonly pullSecret: string;
  readonly sshKey: string;
  readonly additionalTrustBundle: string;
  readonly imageContentSources: string;
  readonly infraKubeconfig: string;
}

/** The file paths the flags name. */
export function clusterFiles(f: FlagReader): ClusterFiles {
  return {
    pullSecret: f.string('pull-secret'),
    sshKey: f.string('ssh-key'),
    additionalTrustBundle: f.string('additional-trust-bundle'),
    imageContentSources: f.string('image-content-sources'),
    infraKubeconfig: f.string('infra-kubeconfig-file'),
  };
}

/**
 * Validates every flag of `hcp create cluster kubevirt` at once and returns either the validated options or all the
 * errors found (each one line naming the flag, the value and what is accepted). Reads no file and no cluster.
 */
export function validateCreateCluster(f: FlagReader): { readonly options?: ValidatedCluster; readonly errors: readonly UserError[] } {
  const errors: UserError[] = [];
  required(f, errors);
  miscChecks(f, errors);
  const input = clusterInput(f, errors);
  if (errors.length > 0) return { errors };
  const renderInto = f.string('render-into');
  return {
    errors,
    options: {
      input,
      infraID: f.string('infra-id'),
      files: clusterFiles(f),
      infraNamespace: f.string('infra-namespace'),
      generateSsh: f.bool('generate-ssh'),
      render: { enabled: f.bool('render') || renderInto !== '', into: renderInto, sensitive: f.bool('render-sensitive') },
      wait: { enabled: f.bool('wait'), timeoutMs: f.number('timeout') },
      kubeconfig: f.string('kubeconfig'),
      warnings: warnings(f),
    },
  };
}
