import { immutable, s } from '../../schema/build.ts';
import type { ObjectSchema } from '../../schema/model.ts';
import { DNS1123_LABEL, inCelString, LABEL_KEY, LABEL_VALUE } from '../../schema/patterns.ts';
import { duration, localObjectReference, pausedUntil, release } from './common.ts';
import { kubevirtNodePoolPlatform, kubevirtNodePoolStatus } from './kubevirt.ts';
import { platformSpec } from './platform.ts';

const management = s.object(
  'NodePoolManagement',
  'How node upgrades and repairs are carried out.',
  {
    upgradeType: s.enum('UpgradeType', 'Replace creates new machines; InPlace updates the existing ones.', ['Replace', 'InPlace'], {
      rules: [immutable('UpgradeType is immutable')],
    }),
    replace: s.object(
      'ReplaceUpgrade',
      'Settings of Replace upgrades.',
      {
        strategy: s.enum('UpgradeStrategy', 'RollingUpdate replaces machines a few at a time; OnDelete waits for deletion.', [
          'RollingUpdate',
          'OnDelete',
        ]),
        rollingUpdate: s.object('RollingUpdate', 'Pace of a rolling replacement.', {
          maxUnavailable: s.intOrString('How many machines may be unavailable at once (number or percentage).'),
          maxSurge: s.intOrString('How many machines may be created above the desired count (number or percentage).'),
        }),
      },
      {
        default: { strategy: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
        rules: [
          {
            rule: "!has(self.rollingUpdate) || self.strategy == 'RollingUpdate'",
            message: "The 'rollingUpdate' field can only be set when 'strategy' is 'RollingUpdate'",
          },
        ],
      },
    ),
    inPlace: s.object('InPlaceUpgrade', 'Settings of InPlace upgrades.', {
      maxUnavailable: s.intOrString('How many nodes may be updated at once (number or percentage).'),
    }),
    autoRepair: s.bool('Replaces machines whose node stays unhealthy.', { default: false }),
  },
  {
    required: ['upgradeType'],
    rules: [
      {
        rule: "!has(self.inPlace) || self.upgradeType == 'InPlace'",
        message: "The 'inPlace' field can only be set when 'upgradeType' is 'InPlace'",
      },
    ],
  },
);

const taint = s.object(
  'Taint',
  'A taint put on every node of the pool.',
  {
    key: s.string('The taint key.', {
      minLength: 1,
      maxLength: 253,
      rules: [
        {
          rule: "self.matches('^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\\\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$')",
          message: 'key must be a qualified name with an optional subdomain prefix e.g. example.com/MyName',
        },
      ],
    }),
    value: s.string('The taint value.', {
      maxLength: 253,
      rules: [
        {
          rule: "self.matches('^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$')",
          message: "Value must start and end with alphanumeric characters and can only contain '-', '_', '.' in the middle",
        },
      ],
    }),
    effect: s.enum('TaintEffect', 'What the taint does to pods that do not tolerate it.', ['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
  },
  { required: ['key', 'effect'] },
);

const configRef = (description: string): ObjectSchema => ({ ...localObjectReference, description, mapType: 'atomic' });

/** `NodePool.spec`. */
export const nodePoolSpec: ObjectSchema = s.object(
  'NodePoolSpec',
  'The desired state of a set of worker nodes of one hosted cluster.',
  {
    clusterName: s.string('The name of the HostedCluster, in the same namespace, the nodes join.', {
      minLength: 1,
      maxLength: 253,
      rules: [
        immutable('ClusterName is immutable'),
        {
          rule: `self.matches('${DNS1123_LABEL}')`,
          message:
            "clusterName must consist of lowercase alphanumeric characters or '-', start and end with an alphanumeric character, and be between 1 and 253 characters",
        },
      ],
    }),
    release,
    platform: platformSpec('NodePoolPlatform', 'The infrastructure the nodes run on.', kubevirtNodePoolPlatform),
    replicas: s.int32('The desired number of nodes; mutually exclusive with autoScaling.'),
    management,
    autoScaling: s.object(
      'NodePoolAutoScaling',
      'Lets the cluster autoscaler choose the number of nodes.',
      { min: s.int32('The fewest nodes.', { minimum: 0 }), max: s.int32('The most nodes.', { minimum: 1 }) },
      { required: ['min', 'max'], rules: [{ rule: 'self.max >= self.min', message: 'max must be equal or greater than min' }] },
    ),
    config: s.array('ConfigMaps with MachineConfig-style node configuration.', configRef('A ConfigMap.'), { maxItems: 10 }),
    nodeDrainTimeout: duration('How long to drain a node before deleting its machine anyway; 0s waits forever.'),
    nodeVolumeDetachTimeout: duration('How long to wait for volumes to detach before deleting a machine; 0s waits forever.'),
    nodeLabels: s.map('Labels put on every node of the pool.', s.string('A label value.', { maxLength: 63 }), {
      // Ours: upstream takes any text here, which the kubelet's command line then carries (a newline, a new directive).
      maxProperties: 100,
      rules: [
        { rule: `self.all(k, size(k) <= 317 && k.matches('${inCelString(LABEL_KEY)}'))`, message: 'nodeLabels keys must be label keys: an optional DNS subdomain prefix and "/", then up to 63 characters of letters, digits, "-", "_" and ".", beginning and ending with a letter or digit' },
        { rule: `self.all(k, self[k].matches('${inCelString(LABEL_VALUE)}'))`, message: 'nodeLabels values must be label values: up to 63 characters of letters, digits, "-", "_" and ".", beginning and ending with a letter or digit, or empty' },
      ],
    }),
    taints: s.array('Taints put on every node of the pool.', taint, { maxItems: 50 }),
    pausedUntil: pausedUntil(1),
    tuningConfig: s.array('ConfigMaps with node tuning profiles.', configRef('A ConfigMap.'), { maxItems: 10 }),
    arch: s.enum('NodePoolArch', 'The CPU architecture of the nodes.', ['arm64', 'amd64', 'ppc64le', 's390x'], {
      default: 'amd64',
      rules: [immutable('Arch is immutable')],
    }),
  },
  {
    required: ['clusterName', 'management', 'platform', 'release'],
    rules: [
      { rule: '!has(oldSelf.arch) || has(self.arch)', message: 'Arch is required once set' },
      {
        rule: "self.arch != 'arm64' || has(self.platform.aws) || has(self.platform.azure) || has(self.platform.agent) || self.platform.type == 'GCP' || self.platform.type == 'None'",
        message: 'Setting Arch to arm64 is only supported for AWS, Azure, Agent, GCP and None',
        fieldPath: '.arch',
      },
      { rule: '!has(self.replicas) || !has(self.autoScaling)', message: 'Both replicas or autoScaling should not be set' },
      { rule: "self.arch != 's390x' || has(self.platform.kubevirt)", message: 's390x is only supported on KubeVirt platform', fieldPath: '.arch' },
      {
        rule: "!has(self.autoScaling) || self.autoScaling.min > 0 || self.platform.type == 'AWS' || self.platform.type == 'Azure'",
        message: 'Scale-from-zero (autoScaling.min=0) is currently only supported for AWS and Azure platforms',
        fieldPath: '.autoScaling.min',
      },
    ],
  },
);

const nodeVersions = s.object(
  'NodeVersionInfo',
  'How many nodes run one kubelet/OS version.',
  {
    kubeletVersion: s.string('The kubelet version.', {
      minLength: 1,
      maxLength: 64,
      rules: [
        {
          rule: "self.matches('^v?\\\\d+\\\\.\\\\d+\\\\.\\\\d+.*$')",
          message: "kubeletVersion must start with semantic version prefix x.y.z (optional leading 'v')",
        },
      ],
    }),
    ocpVersion: s.string('The release version of the node image.', {
      minLength: 1,
      maxLength: 64,
      rules: [{ rule: "self.matches('^\\\\d+\\\\.\\\\d+\\\\.\\\\d+.*$')", message: 'ocpVersion must start with semantic version prefix x.y.z' }],
    }),
    readyNodeCount: s.int32('Ready nodes with this version.', { minimum: 0 }),
    unreadyNodeCount: s.int32('Not-ready nodes with this version.', { minimum: 0 }),
  },
  { required: ['kubeletVersion', 'ocpVersion', 'readyNodeCount', 'unreadyNodeCount'] },
);

const nodePoolCondition = s.object(
  'NodePoolCondition',
  'One aspect of the state of a NodePool (upstream keeps its own condition shape here, with a severity).',
  {
    type: s.string('The condition type.', { maxLength: 316 }),
    status: s.string('True, False or Unknown.'),
    severity: s.string('How bad a False condition is: Error, Warning or Info.', { maxLength: 1024 }),
    lastTransitionTime: s.string('When the status last changed.', { format: 'date-time' }),
    reason: s.string('A CamelCase word that explains the status.', { maxLength: 1024 }),
    message: s.string('A human-readable explanation.', { maxLength: 32768 }),
    observedGeneration: s.int64('The generation the condition was computed from.', { minimum: 0 }),
  },
  { required: ['type', 'status', 'lastTransitionTime'] },
);

/** `NodePool.status`. */
export const nodePoolStatus: ObjectSchema = s.object('NodePoolStatus', 'The observed state of a NodePool.', {
  replicas: s.int32('The number of available nodes.'),
  version: s.string('The release version the nodes run.', { maxLength: 64 }),
  nodesInfo: s.object(
    'NodesInfo',
    'The versions of the nodes, for skew checks.',
    { nodeVersions: s.array('Node counts per version.', nodeVersions, { minItems: 1, maxItems: 100, listType: 'atomic' }) },
    { required: ['nodeVersions'] },
  ),
  platform: s.object('NodePoolPlatformStatus', 'Platform-specific status.', { kubeVirt: kubevirtNodePoolStatus }),
  conditions: s.array('The observed state, one entry per condition type.', nodePoolCondition, { maxItems: 100 }),
});
