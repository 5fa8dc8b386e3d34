import { aHostedCluster, aNodePool } from './builders.ts';

/**
 * Invalid objects, one or more per validation rule, shared by the offline validator tests and the real API server
 * tests so both are held to the same expectations.
 */
/** Changes an object in place. */
export type Mutation = (o: Record<string, any>) => void;

/** One invalid object and the violations it must produce. */
export interface ValidationCase {
  readonly name: string;
  readonly base: () => object;
  readonly mutate: Mutation;
  /** Each expected line must appear among the violations. */
  readonly expect: readonly string[];
  /** For update cases: the change applied to a copy of the (valid) base to get the new object. */
  readonly update?: Mutation;
  /** Why the API server cannot be asked (the case is checked offline only). */
  readonly offlineOnly?: string;
  /** Set when upstream HyperShift's CRDs accept the object: why this project refuses it. */
  readonly ourExtension?: string;
}

const hc = (): object => aHostedCluster();
const np = (): object => aNodePool();

/** Objects the API must refuse on create. */
export const createCases: readonly ValidationCase[] = [
  {
    name: 'a root volume size that is not a quantity',
    base: np,
    mutate: (o) => (o['spec'].platform.kubevirt.rootVolume.persistent.size = '12GB'),
    expect: ['spec.platform.kubevirt.rootVolume.persistent.size: must be a quantity, got "12GB"'],
  },
  {
    name: 'a memory that is not a quantity',
    base: np,
    mutate: (o) => (o['spec'].platform.kubevirt.compute.memory = 'lots'),
    expect: ['spec.platform.kubevirt.compute.memory: must be a quantity, got "lots"'],
  },
  {
    name: 'attachDefaultNetwork false without additionalNetworks',
    ourExtension: 'upstream checks it only in the CLI',
    base: np,
    mutate: (o) => (o['spec'].platform.kubevirt.attachDefaultNetwork = false),
    expect: ['spec.platform.kubevirt.attachDefaultNetwork: attachDefaultNetwork can be false only when additionalNetworks are set, got false'],
  },
  {
    name: 'a node label value with a newline (it would reach the kubelet unit\'s ExecStart line)',
    ourExtension: 'upstream takes any text as a node label',
    base: np,
    mutate: (o) => (o['spec'].nodeLabels = { team: 'a\nExecStartPre=/bin/sh -c id' }),
    expect: ['spec.nodeLabels: nodeLabels values must be label values: up to 63 characters of letters, digits, "-", "_" and ".", beginning and ending with a letter or digit, or empty, got {"team":"a\\nExecStartPre=/bin/sh -c id"}'],
  },
  {
    name: 'a node label key that is no label key',
    ourExtension: 'upstream takes any text as a node label',
    base: np,
    mutate: (o) => (o['spec'].nodeLabels = { 'a b=c,d': 'x' }),
    expect: ['spec.nodeLabels: nodeLabels keys must be label keys: an optional DNS subdomain prefix and "/", then up to 63 characters of letters, digits, "-", "_" and ".", beginning and ending with a letter or digit, got {"a b=c,d":"x"}'],
  },
  {
    name: 'both replicas and autoScaling',
    base: np,
    mutate: (o) => (o['spec'].autoScaling = { min: 1, max: 3 }),
    expect: ['spec: Both replicas or autoScaling should not be set, got replicas=2, autoScaling={"min":1,"max":3}'],
  },
  {
    name: 'autoScaling max below min',
    base: np,
    mutate: (o) => {
      delete o['spec'].replicas;
      o['spec'].autoScaling = { min: 3, max: 2 };
    },
    expect: ['spec.autoScaling: max must be equal or greater than min, got max=2, min=3'],
  },
  {
    name: 'a NodePool pausedUntil that is neither a boolean nor a date',
    base: np,
    mutate: (o) => (o['spec'].pausedUntil = 'tomorrow'),
    expect: ["spec.pausedUntil: PausedUntil must be a date in RFC3339 format or 'True', 'true', 'False' or 'false', got \"tomorrow\""],
  },
  {
    name: 'a HostedCluster pausedUntil that is neither a boolean nor a date',
    base: hc,
    mutate: (o) => (o['spec'].pausedUntil = 'soon'),
    expect: ["spec.pausedUntil: PausedUntil must be a date in RFC3339 format or 'True', 'true', 'False' or 'false', got \"soon\""],
  },
  {
    name: 'fewer than 4 services',
    base: hc,
    mutate: (o) => o['spec'].services.pop(),
    expect: ['spec.services: spec.services in body should have at least 4 items or 3 for IBMCloud, got a list of 3 items'],
  },
  {
    name: 'KubeVirt infra credentials without the kubeconfig secret',
    ourExtension: 'a namespace without a kubeconfig cannot reach an external cluster',
    base: hc,
    mutate: (o) => (o['spec'].platform.kubevirt.credentials = { infraNamespace: 'vms' }),
    expect: [
      'spec.platform.kubevirt.credentials: external infrastructure credentials need both infraNamespace and infraKubeConfigSecret, got infraKubeConfigSecret=<unset>, infraNamespace="vms"',
    ],
  },
  {
    name: 'KubeVirt infra credentials without the namespace',
    base: hc,
    mutate: (o) => (o['spec'].platform.kubevirt.credentials = { infraKubeConfigSecret: { name: 'infra', key: 'kubeconfig' } }),
    expect: ['spec.platform.kubevirt.credentials.infraNamespace: is required'],
  },
  {
    name: 'an unknown platform type',
    base: hc,
    mutate: (o) => (o['spec'].platform.type = 'Kubevirt'),
    expect: ['spec.platform.type: must be one of "AWS", "Azure", "IBMCloud", "KubeVirt", "Agent", "PowerVS", "None", got "Kubevirt"'],
  },
  {
    name: 'a misspelt field',
    base: np,
    mutate: (o) => (o['spec'].platform.kubevirt.networkInterfaceMultiQueue = 'Enable'),
    expect: ['spec.platform.kubevirt.networkInterfaceMultiQueue: unknown field'],
  },
  {
    name: 'a NodePort service without its address',
    base: hc,
    mutate: (o) => (o['spec'].services[0].servicePublishingStrategy = { type: 'NodePort' }),
    expect: ['spec.services[0].servicePublishingStrategy: nodePort is required when type is NodePort, and forbidden otherwise, got type="NodePort", nodePort=<unset>'],
  },
  {
    name: 'zero cores',
    base: np,
    mutate: (o) => (o['spec'].platform.kubevirt.compute.cores = 0),
    expect: ['spec.platform.kubevirt.compute.cores: must be greater than or equal to 1, got 0'],
  },
  {
    name: 's390x on a non-KubeVirt pool',
    base: np,
    mutate: (o) => {
      o['spec'].arch = 's390x';
      o['spec'].platform = { type: 'None' };
    },
    expect: ['spec.arch: s390x is only supported on KubeVirt platform, got "s390x"'],
  },
  {
    name: 'an infraID that is not a DNS label',
    base: hc,
    mutate: (o) => (o['spec'].infraID = 'Example_1'),
    expect: [
      "spec.infraID: infraID must consist of lowercase alphanumeric characters or '-', start and end with an alphanumeric character, and be between 1 and 253 characters, got \"Example_1\"",
    ],
  },
  {
    name: 'overlapping cluster and service networks',
    base: hc,
    mutate: (o) => (o['spec'].networking.serviceNetwork = [{ cidr: '10.132.0.0/14' }]),
    expect: [
      'spec.networking: CIDR ranges in machineNetwork, clusterNetwork, and serviceNetwork must be unique and non-overlapping, got machineNetwork=<unset>, clusterNetwork=[{"cidr":"10.132.0.0/14"}], serviceNetwork=[{"cidr":"10.132.0.0/14"}]',
    ],
  },
  {
    name: 'a node drain timeout that is not a duration',
    ourExtension: 'upstream stores it and fails later when decoding',
    base: np,
    mutate: (o) => (o['spec'].nodeDrainTimeout = '10 minutes'),
    expect: ['spec.nodeDrainTimeout: must be a duration such as 30s or 1h30m, got "10 minutes"'],
  },
  {
    name: 'a host device count of zero',
    base: np,
    mutate: (o) => (o['spec'].platform.kubevirt.hostDevices = [{ deviceName: 'gpu', count: 0 }]),
    expect: ['spec.platform.kubevirt.hostDevices[0].count: must be greater than or equal to 1, got 0'],
  },
  {
    name: 'a release image with white space',
    base: np,
    mutate: (o) => (o['spec'].release.image = 'quay.io/x y'),
    expect: ['spec.release.image: Image must start with a word character (letters, digits, or underscores) and contain no white spaces, got "quay.io/x y"'],
  },
  {
    name: 'a wrong apiVersion and a missing name',
    base: np,
    offlineOnly: 'the server routes by apiVersion and needs a name in the URL',
    mutate: (o) => {
      o['apiVersion'] = 'hypershift.openshift.io/v1alpha1';
      delete o['metadata'].name;
    },
    expect: ['apiVersion: must be "hypershift.openshift.io/v1beta1", got "hypershift.openshift.io/v1alpha1"', 'metadata.name: is required'],
  },
  {
    name: 'a string where a number belongs',
    base: np,
    mutate: (o) => (o['spec'].replicas = '3'),
    expect: ['spec.replicas: must be an integer, got "3"'],
  },
];

/** Updates the API must refuse (the base object is valid). */
export const updateCases: readonly ValidationCase[] = [
  {
    name: 'changing the controller availability policy',
    base: hc,
    mutate: () => undefined,
    update: (o) => (o['spec'].controllerAvailabilityPolicy = 'SingleReplica'),
    expect: ['spec.controllerAvailabilityPolicy: ControllerAvailabilityPolicy is immutable, got "SingleReplica"'],
  },
  {
    name: 'changing the infraID',
    base: hc,
    mutate: () => undefined,
    update: (o) => (o['spec'].infraID = 'other-abcde'),
    expect: ['spec.infraID: infraID is immutable, got "other-abcde"'],
  },
  {
    name: 'removing the infraID',
    base: hc,
    mutate: () => undefined,
    update: (o) => delete o['spec'].infraID,
    expect: ['<root>: infraID cannot be removed once set, got spec.infraID=<unset>'],
  },
  {
    name: 'removing secret encryption',
    base: hc,
    mutate: () => undefined,
    update: (o) => delete o['spec'].secretEncryption,
    expect: ['spec: secretEncryption cannot be removed once configured, got secretEncryption=<unset>'],
  },
  {
    name: 'removing the KubeVirt generateID',
    base: hc,
    mutate: (o) => (o['spec'].platform.kubevirt.generateID = 'abcdefghij'),
    update: (o) => delete o['spec'].platform.kubevirt.generateID,
    expect: ['spec.platform.kubevirt: Kubevirt GenerateID is required once set, got generateID=<unset>'],
  },
  {
    name: 'changing the services',
    base: hc,
    mutate: () => undefined,
    update: (o) => (o['spec'].services[0].servicePublishingStrategy = { type: 'Route' }),
    expect: ['spec.services: Services is immutable. Changes might result in unpredictable and disruptive behavior., got a list of 4 items'],
  },
  {
    name: 'changing the NodePool cluster name',
    base: np,
    mutate: () => undefined,
    update: (o) => (o['spec'].clusterName = 'other'),
    expect: ['spec.clusterName: ClusterName is immutable, got "other"'],
  },
  {
    name: 'changing the infra namespace',
    base: hc,
    mutate: (o) => (o['spec'].platform.kubevirt.credentials = { infraNamespace: 'a', infraKubeConfigSecret: { name: 's', key: 'kubeconfig' } }),
    update: (o) => (o['spec'].platform.kubevirt.credentials.infraNamespace = 'b'),
    expect: ['spec.platform.kubevirt.credentials.infraNamespace: infraNamespace is immutable, got "b"'],
  },
  {
    name: 'changing the etcd volume size',
    base: hc,
    mutate: () => undefined,
    update: (o) => (o['spec'].etcd.managed.storage.persistentVolume.size = '16Gi'),
    expect: ['spec.etcd.managed.storage.persistentVolume.size: Etcd PV storage size is immutable, got "16Gi"'],
  },
];

/** The object (and, for updates, the stored object) of a case. */
export function prepare(c: ValidationCase): { obj: Record<string, unknown>; old?: Record<string, unknown> } {
  const base = structuredClone(c.base()) as Record<string, unknown>;
  c.mutate(base);
  if (c.update === undefined) return { obj: base };
  const next = structuredClone(base);
  c.update(next);
  return { obj: next, old: base };
}

