import { cannotRemove, immutable, s, withRules } from '../../schema/build.ts';
import type { ObjectSchema } from '../../schema/model.ts';
import { secretKeyReference } from './common.ts';

const infraKubeConfigSecret = withRules(
  secretKeyReference(
    'KubeconfigSecretRef',
    'A key of a Secret, in the HostedCluster namespace, that holds a kubeconfig for the external infrastructure cluster.',
  ),
  immutable('infraKubeConfigSecret is immutable'),
);

const infraNamespace = s.string(
  'The namespace of the infrastructure cluster in which the VirtualMachines are created. It must exist beforehand.',
  { maxLength: 255, rules: [immutable('infraNamespace is immutable')] },
);

/** Credentials for an external infrastructure cluster, as set on a HostedCluster. */
export const kubevirtPlatformCredentials: ObjectSchema = s.object(
  'KubevirtPlatformCredentials',
  'How to reach an external infrastructure cluster: a kubeconfig Secret and the namespace the VMs go into.',
  { infraKubeConfigSecret, infraNamespace },
  {
    required: ['infraNamespace'],
    rules: [
      {
        rule: "has(self.infraKubeConfigSecret) && self.infraNamespace != ''",
        message: 'external infrastructure credentials need both infraNamespace and infraKubeConfigSecret',
      },
    ],
  },
);

const mappingGroup = s.string('A name that groups mappings; a StorageClass and a VolumeSnapshotClass of one group work together.', {
  maxLength: 255,
});

const storageClassMapping = s.object(
  'KubevirtStorageClassMapping',
  'Exposes one infrastructure StorageClass inside the hosted cluster under another name.',
  {
    group: mappingGroup,
    infraStorageClassName: s.string('The StorageClass on the infrastructure cluster.', { maxLength: 255 }),
    guestStorageClassName: s.string('The StorageClass created in the hosted cluster.', { maxLength: 255 }),
  },
  { required: ['infraStorageClassName', 'guestStorageClassName'] },
);

const volumeSnapshotClassMapping = s.object(
  'KubevirtVolumeSnapshotClassMapping',
  'Exposes one infrastructure VolumeSnapshotClass inside the hosted cluster under another name.',
  {
    group: mappingGroup,
    infraVolumeSnapshotClassName: s.string('The VolumeSnapshotClass on the infrastructure cluster.', {
      maxLength: 255,
    }),
    guestVolumeSnapshotClassName: s.string('The VolumeSnapshotClass created in the hosted cluster.', {
      maxLength: 255,
    }),
  },
  { required: ['infraVolumeSnapshotClassName', 'guestVolumeSnapshotClassName'] },
);

const manualStorageDriver = s.object(
  'KubevirtManualStorageDriverConfig',
  'An explicit list of the infrastructure storage and snapshot classes the hosted cluster may use.',
  {
    storageClassMapping: s.array('StorageClass mappings.', storageClassMapping, {
      maxItems: 50,
      rules: [immutable('storageClassMapping is immutable')],
    }),
    volumeSnapshotClassMapping: s.array('VolumeSnapshotClass mappings.', volumeSnapshotClassMapping, {
      maxItems: 50,
      rules: [immutable('volumeSnapshotClassMapping is immutable')],
    }),
  },
  { rules: [immutable('storageDriver.Manual is immutable')] },
);

const storageDriver = s.object(
  'KubevirtStorageDriverSpec',
  'How the hosted cluster gets persistent storage from the infrastructure cluster through kubevirt-csi.',
  {
    type: s.enum(
      'KubevirtStorageDriverConfigType',
      'None installs no CSI driver; Default maps the infrastructure default StorageClass; Manual uses the mappings.',
      ['None', 'Default', 'Manual'],
      { default: 'Default', rules: [immutable('storageDriver.Type is immutable')] },
    ),
    manual: manualStorageDriver,
  },
  { rules: [immutable('storageDriver is immutable')] },
);

/** `spec.platform.kubevirt` of a HostedCluster. */
export const kubevirtPlatformSpec: ObjectSchema = s.object(
  'KubevirtPlatformSpec',
  'Settings of a hosted cluster whose nodes are KubeVirt virtual machines.',
  {
    baseDomainPassthrough: s.bool(
      'Derives the hosted cluster base domain from the infrastructure cluster apps domain, and passes its ingress ' +
        'through to the guest.',
      { rules: [immutable('baseDomainPassthrough is immutable')] },
    ),
    generateID: s.string('A short random suffix used to name infrastructure objects; generated when empty.', {
      maxLength: 11,
      rules: [immutable('Kubevirt GenerateID is immutable once set')],
    }),
    credentials: kubevirtPlatformCredentials,
    storageDriver,
  },
  { rules: [cannotRemove('generateID', 'Kubevirt GenerateID is required once set')] },
);

const persistentVolume = s.object(
  'KubevirtPersistentVolume',
  'The PersistentVolumeClaim that backs the root disk of each VM.',
  {
    size: s.quantity('The size of the root disk.', { default: '32Gi' }),
    storageClass: s.string('The infrastructure StorageClass; the cluster default when empty.', { maxLength: 255 }),
    accessModes: s.array(
      'The access modes of the claim; ReadWriteMany allows live migration.',
      s.enum('PersistentVolumeAccessMode', 'A volume access mode.', [
        'ReadWriteOnce',
        'ReadWriteMany',
        'ReadOnly',
        'ReadWriteOncePod',
      ]),
      { maxItems: 10 },
    ),
    volumeMode: s.enum('PersistentVolumeMode', 'Filesystem or Block.', ['Filesystem', 'Block']),
  },
);

const rootVolume = s.object(
  'KubevirtRootVolume',
  'The boot disk of each VM.',
  {
    diskImage: s.object('KubevirtDiskImage', 'Overrides the boot image taken from the release payload.', {
      containerDiskImage: s.string('A container disk image holding the boot image.', { maxLength: 2048 }),
    }),
    type: s.enum('KubevirtVolumeType', 'The kind of volume; only Persistent exists.', ['Persistent'], {
      default: 'Persistent',
    }),
    persistent: persistentVolume,
    cacheStrategy: s.object(
      'KubevirtCachingStrategy',
      'How the boot image is cached on the infrastructure cluster.',
      {
        type: s.enum('KubevirtCachingStrategyType', 'None downloads per VM; PVC clones from a cached PVC.', ['None', 'PVC'], {
          default: 'None',
        }),
      },
      { required: ['type'] },
    ),
  },
  { default: { persistent: { size: '32Gi' }, type: 'Persistent' } },
);

const compute = s.object(
  'KubevirtCompute',
  'CPU and memory of each VM.',
  {
    memory: s.quantity('The memory visible to the guest OS.', { default: '8Gi' }),
    cores: s.int32('The number of virtual CPU cores.', { minimum: 1 }),
    qosClass: s.enum(
      'QoSClass',
      'Guaranteed sets limits equal to requests on the virt-launcher pod; Burstable sets requests only.',
      ['Burstable', 'Guaranteed'],
      { default: 'Burstable' },
    ),
  },
  { default: { cores: 2, memory: '8Gi' } },
);

const hostDevice = s.object(
  'KubevirtHostDevice',
  'A PCI host device (e.g. a GPU) of the infrastructure nodes passed through to each VM.',
  {
    deviceName: s.string('The device name as permitted in the KubeVirt configuration.', { maxLength: 255 }),
    count: s.int32('How many such devices each VM gets.', { default: 1, minimum: 1, maximum: 2147483647 }),
  },
  { required: ['deviceName'] },
);

/** `spec.platform.kubevirt` of a NodePool. */
export const kubevirtNodePoolPlatform: ObjectSchema = s.object(
  'KubevirtNodePoolPlatform',
  'The shape of the KubeVirt virtual machines of a NodePool.',
  {
    rootVolume,
    compute,
    networkInterfaceMultiqueue: s.enum(
      'MultiQueueSetting',
      'Enable turns on virtio multi-queue for the VM network interfaces.',
      ['Enable', 'Disable'],
      { default: 'Enable' },
    ),
    additionalNetworks: s.array(
      'Extra networks attached to each VM.',
      s.object(
        'KubevirtNetwork',
        'A Multus NetworkAttachmentDefinition to attach.',
        { name: s.string('The NetworkAttachmentDefinition as "namespace/name".', { maxLength: 255 }) },
        { required: ['name'] },
      ),
      { maxItems: 20 },
    ),
    attachDefaultNetwork: s.bool('Whether the pod network is attached to each VM.', { default: true }),
    nodeSelector: s.map('Infrastructure node labels the VMs must be scheduled onto.', s.string('A label value.')),
    hostDevices: s.array('Host devices passed through to each VM.', hostDevice, { maxItems: 10 }),
  },
  {
    required: ['rootVolume'],
    rules: [
      {
        rule: '!has(self.attachDefaultNetwork) || self.attachDefaultNetwork || (has(self.additionalNetworks) && size(self.additionalNetworks) > 0)',
        message: 'attachDefaultNetwork can be false only when additionalNetworks are set',
        fieldPath: '.attachDefaultNetwork',
      },
    ],
  },
);

/** `status.platform.kubeVirt` of a NodePool (note the capital V, as upstream). */
export const kubevirtNodePoolStatus: ObjectSchema = s.object(
  'KubeVirtNodePoolStatus',
  'What the operator resolved for the KubeVirt platform of a NodePool.',
  {
    cacheName: s.string('The name of the boot-image cache PVC, when caching is on.', { maxLength: 255 }),
    credentials: s.object(
      'KubevirtPlatformCredentialsStatus',
      'The infrastructure the NodePool VMs run on.',
      {
        infraKubeConfigSecret: withRules(
          secretKeyReference('KubeconfigSecretRef', 'The kubeconfig Secret of the infrastructure cluster.'),
          immutable('infraKubeConfigSecret is immutable'),
        ),
        infraNamespace: s.string('The namespace of the infrastructure cluster holding the VMs.', {
          maxLength: 255,
          rules: [immutable('infraNamespace is immutable')],
        }),
      },
      { required: ['infraNamespace'] },
    ),
  },
);
