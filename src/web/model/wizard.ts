/**
 * The wizard's steps and fields, in the manual's order. Each field is a field of the console's ClusterForm, which the
 * console turns into the `hcp create cluster kubevirt` flag named in its help.
 */

/** One input of the wizard. */
export interface Field {
  readonly id: string;
  readonly label: string;
  readonly kind: 'text' | 'number' | 'choice' | 'bool' | 'file';
  readonly help: string;
  readonly required?: boolean;
  readonly initial?: string | boolean;
  readonly choices?: readonly string[];
}

/** One step. */
export interface Step {
  readonly title: string;
  readonly fields: readonly Field[];
}

const POLICIES = ['HighlyAvailable', 'SingleReplica'];

/** The steps before the review. */
export const STEPS: readonly Step[] = [
  {
    title: 'Cluster details',
    fields: [
      { id: 'name', label: 'Cluster name', kind: 'text', required: true, help: 'A DNS label: lowercase letters, digits and hyphens (--name).' },
      { id: 'namespace', label: 'Namespace', kind: 'text', initial: 'clusters', help: 'Where the HostedCluster and its NodePools live (--namespace).' },
      { id: 'releaseImage', label: 'Release image', kind: 'text', help: 'The OpenShift release payload (the releases of the clusters you may see are offered); empty picks the newest supported release the pull secret can read (--release-image).' },
      { id: 'pullSecret', label: 'Pull secret', kind: 'file', required: true, help: 'The pull secret, as a file or pasted; it is sent to the management cluster only (--pull-secret).' },
      { id: 'sshKey', label: 'SSH public key', kind: 'file', help: 'Put on every node for the core user (--ssh-key).' },
      { id: 'baseDomain', label: 'Base domain', kind: 'text', help: 'Empty: the default ingress of the management cluster (--base-domain).' },
      { id: 'controlPlaneAvailabilityPolicy', label: 'Control plane availability', kind: 'choice', choices: POLICIES, initial: 'HighlyAvailable', help: '--control-plane-availability-policy' },
      { id: 'infraAvailabilityPolicy', label: 'Infrastructure availability', kind: 'choice', choices: ['', ...POLICIES], help: '--infra-availability-policy' },
      { id: 'etcdStorageClass', label: 'etcd storage class', kind: 'text', help: 'Empty: the default storage class (--etcd-storage-class).' },
      { id: 'labels', label: 'Labels', kind: 'text', help: 'key=value, separated by commas (--labels).' },
    ],
  },
  {
    title: 'Infrastructure',
    fields: [
      { id: 'infraKubeconfig', label: 'External infrastructure kubeconfig', kind: 'file', help: 'Empty: the virtual machines run on the management cluster (--infra-kubeconfig-file).' },
      { id: 'infraNamespace', label: 'Infrastructure namespace', kind: 'text', help: 'The namespace of the external infrastructure cluster for the virtual machines (--infra-namespace).' },
      { id: 'storageClassMappings', label: 'Storage class mappings', kind: 'text', help: 'infra-class/guest-class, separated by commas (--infra-storage-class-mapping).' },
    ],
  },
  {
    title: 'Node pool',
    fields: [
      { id: 'nodePoolReplicas', label: 'Nodes', kind: 'number', initial: '2', help: '--node-pool-replicas' },
      { id: 'cores', label: 'Cores', kind: 'number', initial: '2', help: '--cores' },
      { id: 'memory', label: 'Memory', kind: 'text', initial: '8Gi', help: 'A quantity such as 8Gi (--memory).' },
      { id: 'rootVolumeSize', label: 'Root volume size (GiB)', kind: 'number', initial: '32', help: '--root-volume-size' },
      { id: 'rootVolumeStorageClass', label: 'Root volume storage class', kind: 'text', help: '--root-volume-storage-class' },
      { id: 'qosClass', label: 'QoS class', kind: 'choice', choices: ['Burstable', 'Guaranteed'], initial: 'Burstable', help: 'Guaranteed requests all the memory and cores it asks for (--qos-class).' },
      { id: 'nodeSelector', label: 'Node selector', kind: 'text', help: 'key=value of the infrastructure nodes the machines may run on, separated by commas (--node-selector).' },
      { id: 'additionalNetworks', label: 'Additional networks', kind: 'text', help: 'name:namespace/network-attachment, separated by commas (--additional-network).' },
      { id: 'attachDefaultNetwork', label: 'Attach the default pod network', kind: 'bool', initial: true, help: '--attach-default-network' },
      { id: 'autoRepair', label: 'Auto repair', kind: 'bool', help: 'Replace machines whose node fails its health checks (--auto-repair).' },
    ],
  },
  {
    title: 'Advanced',
    fields: [
      { id: 'servicePublishingStrategy', label: 'Service publishing', kind: 'choice', choices: ['', 'Ingress', 'NodePort'], help: 'How the API server and the other services are reached; default Ingress: a LoadBalancer and Routes (--service-publishing-strategy).' },
      { id: 'apiServerAddress', label: 'API server address', kind: 'text', help: 'With NodePort: the address the services are published at; empty: the first node\'s (--api-server-address).' },
      { id: 'imageContentSources', label: 'Image content sources', kind: 'file', help: 'Mirrors for a disconnected registry: a YAML list of {source, mirrors} (--image-content-sources).' },
      { id: 'additionalTrustBundle', label: 'Additional trust bundle', kind: 'file', help: 'CA certificates (PEM) the cluster trusts, for example a mirror registry\'s (--additional-trust-bundle).' },
      { id: 'containerDisk', label: 'Boot image (container disk)', kind: 'text', help: 'The node image, when the release payload does not name one (--containerdisk).' },
    ],
  },
];

/** The step that holds a field (for `form`-wide messages: none, -1). */
export const stepOfField = (field: string): number => STEPS.findIndex((s) => s.fields.some((f) => f.id === field));

/** The label of a field, for messages shown away from it (the review); `form`: none. */
export const labelOfField = (field: string): string => STEPS.flatMap((s) => s.fields).find((f) => f.id === field)?.label ?? '';
