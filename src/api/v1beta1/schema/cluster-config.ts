import { immutable, immutableOnceSet, s } from '../../schema/build.ts';
import type { ObjectSchema } from '../../schema/model.ts';
import { DOMAIN_NAME } from '../../schema/patterns.ts';
import { localObjectReference } from './common.ts';
import { hcpEtcdBackupConfig } from './hcpetcdbackup.ts';

const domainRule = (field: string, example: string): { rule: string; message: string } => ({
  rule: `self == "" || self.matches('${DOMAIN_NAME.replaceAll('\\', '\\\\')}')`,
  message: `${field} must be a valid domain name (${example})`,
});

/** `spec.dns`. */
export const dnsSpec: ObjectSchema = s.object(
  'DNSSpec',
  'The DNS names of the hosted cluster.',
  {
    baseDomain: s.string('The domain under which the cluster endpoints are published; may be discovered (KubeVirt base-domain passthrough).', {
      maxLength: 253,
      rules: [
        domainRule('baseDomain', 'e.g., example, example.com, sub.example.com'),
        immutableOnceSet('baseDomain is immutable'),
      ],
    }),
    baseDomainPrefix: s.string('Prefixed to the base domain instead of the cluster name.', {
      maxLength: 253,
      rules: [
        domainRule('baseDomainPrefix', 'e.g., example, example.com, sub.example.com'),
        immutable('baseDomainPrefix is immutable'),
      ],
    }),
    publicZoneID: s.string('A cloud DNS zone for public records (not used by KubeVirt).', {
      minLength: 1,
      maxLength: 258,
      rules: [immutableOnceSet('publicZoneID is immutable')],
    }),
    privateZoneID: s.string('A cloud DNS zone for private records (not used by KubeVirt).', {
      minLength: 1,
      maxLength: 265,
      rules: [immutableOnceSet('privateZoneID is immutable')],
    }),
  },
  { required: ['baseDomain'] },
);

const managedEtcd = s.object(
  'ManagedEtcdSpec',
  'An etcd cluster run by the operator in the control-plane namespace.',
  {
    storage: s.object(
      'ManagedEtcdStorageSpec',
      'The storage of each etcd member.',
      {
        type: s.enum('ManagedEtcdStorageType', 'The kind of storage; only PersistentVolume exists.', ['PersistentVolume']),
        persistentVolume: s.object('PersistentVolumeEtcdStorageSpec', 'A PersistentVolumeClaim per etcd member.', {
          storageClassName: s.string('The StorageClass; the management cluster default when empty.', {
            maxLength: 255,
            rules: [immutable('storageClassName is immutable')],
          }),
          size: s.quantity('The size of each member volume.', {
            default: '8Gi',
            rules: [immutable('Etcd PV storage size is immutable')],
          }),
        }),
        restoreSnapshotURL: s.array(
          'A snapshot to restore etcd from on first start.',
          s.string('An https or s3 URL.', { maxLength: 1024 }),
          {
            maxItems: 1,
            listType: 'set',
            rules: [
              { rule: 'self.size() <= 1', message: "RestoreSnapshotURL shouldn't contain more than 1 entry" },
              immutable('restoreSnapshotURL is immutable'),
              {
                rule: "self.size() == 0 || self[0].matches('^(https|s3)://.*')",
                message: 'restoreSnapshotURL must be a valid URL with scheme https or s3',
              },
            ],
          },
        ),
      },
      {
        required: ['type'],
        rules: [
          {
            rule: 'has(self.restoreSnapshotURL) == has(oldSelf.restoreSnapshotURL)',
            message: 'restoreSnapshotURL cannot be added or removed after creation',
          },
        ],
      },
    ),
    backup: hcpEtcdBackupConfig,
  },
  { required: ['storage'] },
);

const unmanagedEtcd = s.object(
  'UnmanagedEtcdSpec',
  'An etcd cluster run outside the operator.',
  {
    endpoint: s.string('The https URL of etcd.', { maxLength: 255, pattern: '^https://', patternDescription: 'an https:// URL' }),
    tls: s.object(
      'EtcdTLSConfig',
      'Client credentials for etcd.',
      {
        clientSecret: {
          ...localObjectReference,
          description: 'A Secret with etcd-client.crt, etcd-client.key and etcd-client-ca.crt.',
        },
      },
      { required: ['clientSecret'] },
    ),
  },
  { required: ['endpoint', 'tls'] },
);

/** `spec.etcd`. */
export const etcdSpec: ObjectSchema = s.object(
  'EtcdSpec',
  'Where the hosted cluster keeps its state.',
  {
    managementType: s.enum('EtcdManagementType', 'Managed runs etcd for you; Unmanaged points at an existing one.', ['Managed', 'Unmanaged'], {
      rules: [immutable('managementType is immutable')],
    }),
    managed: managedEtcd,
    unmanaged: unmanagedEtcd,
  },
  {
    required: ['managementType'],
    default: { managementType: 'Managed', managed: { storage: { type: 'PersistentVolume', persistentVolume: { size: '8Gi' } } } },
    rules: [
      {
        rule: "self.managementType == 'Managed' ? has(self.managed) : !has(self.managed)",
        message: 'Only managed configuration must be set when managementType is Managed',
      },
      {
        rule: "self.managementType == 'Unmanaged' ? has(self.unmanaged) : !has(self.unmanaged)",
        message: 'Only unmanaged configuration must be set when managementType is Unmanaged',
      },
    ],
  },
);

/** `spec.secretEncryption`. */
export const secretEncryptionSpec: ObjectSchema = s.object(
  'SecretEncryptionSpec',
  'How Secrets are encrypted at rest in the hosted cluster etcd.',
  {
    type: s.enum('SecretEncryptionType', 'aescbc uses a local key; kms uses a cloud key service (not on KubeVirt).', ['kms', 'aescbc']),
    aescbc: s.object(
      'AESCBCSpec',
      'AES-CBC encryption with keys held in Secrets.',
      {
        activeKey: { ...localObjectReference, description: 'The Secret whose "key" encrypts new writes.' },
        backupKey: { ...localObjectReference, description: 'A former key still used to read older data.' },
      },
      { required: ['activeKey'] },
    ),
    kms: s.opaque('Cloud KMS settings (AWS, Azure, IBM Cloud); stored as given, not used on KubeVirt.'),
  },
  { required: ['type'] },
);

const CAPABILITIES = ['ImageRegistry', 'openshift-samples', 'Insights', 'baremetal', 'Console', 'NodeTuning', 'Ingress'];

/** `spec.capabilities`. */
export const capabilities: ObjectSchema = s.object(
  'Capabilities',
  'Optional cluster capabilities to enable or disable at install time.',
  {
    enabled: s.array('Capabilities to turn on.', s.enum('OptionalCapability', 'A capability.', CAPABILITIES), {
      maxItems: 25,
      listType: 'atomic',
      rules: [immutable('Enabled is immutable. Changes might result in unpredictable and disruptive behavior.')],
    }),
    disabled: s.array('Capabilities to turn off.', s.enum('OptionalCapability', 'A capability.', CAPABILITIES), {
      maxItems: 25,
      listType: 'atomic',
      rules: [
        immutable('Disabled is immutable. Changes might result in unpredictable and disruptive behavior.'),
        {
          rule: "!self.exists(cap, cap == 'Ingress') || self.exists(cap, cap == 'Console')",
          message: 'Ingress capability can only be disabled if Console capability is also disabled',
        },
      ],
    }),
  },
  {
    default: {},
    rules: [
      immutable('Capabilities is immutable. Changes might result in unpredictable and disruptive behavior.'),
      {
        rule: 'has(self.enabled) && has(self.disabled) ? self.enabled.all(e, !(e in self.disabled)) : true',
        message: 'Capabilities can not be both enabled and disabled at once.',
      },
    ],
  },
);

/** `spec.autoscaling`: cluster-autoscaler settings. */
export const clusterAutoscaling: ObjectSchema = s.object(
  'ClusterAutoscaling',
  'Settings of the cluster autoscaler that scales NodePools with autoScaling set.',
  {
    scaling: s.enum('ScalingType', 'Whether the autoscaler may also remove nodes.', ['ScaleUpOnly', 'ScaleUpAndScaleDown'], {
      default: 'ScaleUpAndScaleDown',
    }),
    maxNodesTotal: s.int32('The most nodes the cluster may have.', { minimum: 0 }),
    maxPodGracePeriod: s.int32('Seconds a pod gets to terminate during scale down.', { minimum: 0 }),
    maxNodeProvisionTime: s.string('How long to wait for a node to be provisioned.', {
      maxLength: 100,
      pattern: '^([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$',
      patternDescription: 'a duration such as 15m',
    }),
    maxFreeDifferenceRatioPercent: s.int32('How different node groups may be while still balanced, in percent.', {
      minimum: 0,
      maximum: 100,
    }),
    podPriorityThreshold: s.int32('Pods below this priority do not trigger scale up.'),
    expanders: s.array(
      'The order in which node group choosers are applied.',
      s.enum('ExpanderString', 'A node group chooser.', ['LeastWaste', 'Priority', 'Random']),
      { minItems: 1, maxItems: 3 },
    ),
    balancingIgnoredLabels: s.array('Node labels ignored when comparing node groups.', s.string('A label key.', { maxLength: 317 }), {
      maxItems: 64,
      rules: [
        {
          rule: "self.all(l, l.matches('^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[a-zA-Z0-9]([a-zA-Z0-9_.-]{0,61}[a-zA-Z0-9])?$'))",
          message: 'Each balancingIgnoredLabels item must be a valid label key',
        },
      ],
    }),
    scaleDown: s.opaque('Scale-down timings and thresholds.'),
  },
  {
    rules: [
      {
        rule: "self.scaling == 'ScaleUpAndScaleDown' ? true : !has(self.scaleDown)",
        message: 'scaleDown can only be set when scaling is ScaleUpAndScaleDown',
      },
    ],
  },
);

/** An entry of `spec.imageContentSources`. */
export const imageContentSource: ObjectSchema = s.object(
  'ImageContentSource',
  'Mirrors to pull images of one source repository from.',
  {
    source: s.string('The repository being mirrored.', { maxLength: 255 }),
    mirrors: s.array('The mirror repositories, tried in order.', s.string('A repository.', { maxLength: 255 }), {
      maxItems: 255,
      listType: 'set',
    }),
  },
  { required: ['source'] },
);


/**
 * `spec.operatorConfiguration`: kept as given, except the cluster-network-operator fields the CEL rules below read
 * (the API server type-checks rules, so a rule may only reference declared fields).
 */
export const operatorConfiguration = s.opaque('Settings of the cluster operators; stored as given.', {
  knownProperties: {
    clusterNetworkOperator: s.opaque('Settings of the cluster network operator.', {
      knownProperties: {
        disableMultiNetwork: s.bool('Turns off Multus; only with networkType Other.'),
        ovnKubernetesConfig: s.opaque('OVN-Kubernetes settings; only with networkType OVNKubernetes.'),
      },
    }),
  },
});

/** Upstream's rules tying operatorConfiguration.clusterNetworkOperator to the network type. */
export const NETWORK_OPERATOR_RULES = [
  {
    rule: "!has(self.operatorConfiguration) || !has(self.operatorConfiguration.clusterNetworkOperator) || !has(self.operatorConfiguration.clusterNetworkOperator.disableMultiNetwork) || !self.operatorConfiguration.clusterNetworkOperator.disableMultiNetwork || self.networking.networkType == 'Other'",
    message: "disableMultiNetwork can only be set to true when networkType is 'Other'",
  },
  {
    rule: "self.networking.networkType == 'OVNKubernetes' || !has(self.operatorConfiguration) || !has(self.operatorConfiguration.clusterNetworkOperator) || !has(self.operatorConfiguration.clusterNetworkOperator.ovnKubernetesConfig)",
    message: 'ovnKubernetesConfig is forbidden when networkType is not OVNKubernetes',
  },
];
