/**
 * The create wizard's form as `hcp create cluster kubevirt` flags. The console renders and creates by running that
 * very command with these flags, so the wizard and the CLI cannot drift apart: one renderer, one validator, one set
 * of messages. Only the form's own fields become flags, and the files they name (pull secret, SSH key, infrastructure
 * kubeconfig) are the uploaded contents, served to the command from memory: a page cannot make the console read a
 * file of the machine or use another kubeconfig.
 */

/** What the wizard sends. Every field is optional here; the command says what is missing, at the field. */
export interface ClusterForm {
  readonly name?: string;
  readonly namespace?: string;
  readonly releaseImage?: string;
  readonly pullSecret?: string;
  readonly sshKey?: string;
  readonly baseDomain?: string;
  readonly controlPlaneAvailabilityPolicy?: string;
  readonly infraAvailabilityPolicy?: string;
  readonly etcdStorageClass?: string;
  readonly labels?: readonly string[];
  readonly infraKubeconfig?: string;
  readonly infraNamespace?: string;
  readonly storageClassMappings?: readonly string[];
  readonly nodePoolReplicas?: number;
  readonly cores?: number;
  readonly memory?: string;
  readonly rootVolumeSize?: number;
  readonly rootVolumeStorageClass?: string;
  readonly qosClass?: string;
  readonly nodeSelector?: readonly string[];
  readonly additionalNetworks?: readonly string[];
  readonly attachDefaultNetwork?: boolean;
  readonly autoRepair?: boolean;
  readonly servicePublishingStrategy?: string;
  readonly imageContentSources?: string;
  readonly additionalTrustBundle?: string;
  readonly containerDisk?: string;
  readonly apiServerAddress?: string;
}

/** The paths the uploaded contents are served under (they exist only in the command's in-memory file system). */
export const UPLOADED = {
  pullSecret: '/console/pull-secret',
  sshKey: '/console/ssh-key.pub',
  infraKubeconfig: '/console/infra-kubeconfig',
  imageContentSources: '/console/image-content-sources.yaml',
  additionalTrustBundle: '/console/additional-trust-bundle.pem',
} as const;

/** The form field each flag comes from: a message naming `--flag` is shown at that field. */
export const FIELD_OF_FLAG: Readonly<Record<string, keyof ClusterForm>> = {
  name: 'name',
  namespace: 'namespace',
  'release-image': 'releaseImage',
  'pull-secret': 'pullSecret',
  'ssh-key': 'sshKey',
  'base-domain': 'baseDomain',
  'control-plane-availability-policy': 'controlPlaneAvailabilityPolicy',
  'infra-availability-policy': 'infraAvailabilityPolicy',
  'etcd-storage-class': 'etcdStorageClass',
  labels: 'labels',
  'infra-kubeconfig-file': 'infraKubeconfig',
  'infra-namespace': 'infraNamespace',
  'infra-storage-class-mapping': 'storageClassMappings',
  'node-pool-replicas': 'nodePoolReplicas',
  cores: 'cores',
  memory: 'memory',
  'root-volume-size': 'rootVolumeSize',
  'root-volume-storage-class': 'rootVolumeStorageClass',
  'qos-class': 'qosClass',
  'node-selector': 'nodeSelector',
  'additional-network': 'additionalNetworks',
  'attach-default-network': 'attachDefaultNetwork',
  'auto-repair': 'autoRepair',
  'service-publishing-strategy': 'servicePublishingStrategy',
  'image-content-sources': 'imageContentSources',
  'additional-trust-bundle': 'additionalTrustBundle',
  containerdisk: 'containerDisk',
  'api-server-address': 'apiServerAddress',
};

const STRING_FLAGS: ReadonlyArray<[keyof ClusterForm, string]> = [
  ['name', 'name'],
  ['namespace', 'namespace'],
  ['releaseImage', 'release-image'],
  ['baseDomain', 'base-domain'],
  ['controlPlaneAvailabilityPolicy', 'control-plane-availability-policy'],
  ['infraAvailabilityPolicy', 'infra-availability-policy'],
  ['etcdStorageClass', 'etcd-storage-class'],
  ['infraNamespace', 'infra-namespace'],
  ['memory', 'memory'],
  ['rootVolumeStorageClass', 'root-volume-storage-class'],
  ['qosClass', 'qos-class'],
  ['servicePublishingStrategy', 'service-publishing-strategy'],
  ['containerDisk', 'containerdisk'],
  ['apiServerAddress', 'api-server-address'],
];
const NUMBER_FLAGS: ReadonlyArray<[keyof ClusterForm, string]> = [
  ['nodePoolReplicas', 'node-pool-replicas'],
  ['cores', 'cores'],
  ['rootVolumeSize', 'root-volume-size'],
];
const LIST_FLAGS: ReadonlyArray<[keyof ClusterForm, string]> = [
  ['labels', 'labels'],
  ['storageClassMappings', 'infra-storage-class-mapping'],
  ['additionalNetworks', 'additional-network'],
];

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const flagOf = (name: string, value: string | number | undefined): string[] => (value === undefined ? [] : [`--${name}=${String(value)}`]);
const numberOf = (v: unknown): number | string | undefined => (typeof v === 'number' || (typeof v === 'string' && v !== '') ? v : undefined);
const listOf = (v: unknown): string[] => (Array.isArray(v) ? v.map(text).filter((e) => e !== undefined) : []);

/** The flag of each uploaded content. */
const UPLOAD_FLAGS: ReadonlyArray<[keyof typeof UPLOADED, string]> = [
  ['pullSecret', 'pull-secret'],
  ['sshKey', 'ssh-key'],
  ['infraKubeconfig', 'infra-kubeconfig-file'],
  ['imageContentSources', 'image-content-sources'],
  ['additionalTrustBundle', 'additional-trust-bundle'],
];

/** The flags and in-memory files of `hcp create cluster kubevirt` for a form. */
export function formToArgs(form: ClusterForm): { argv: string[]; files: Record<string, string> } {
  const files: Record<string, string> = {};
  const argv = [
    ...STRING_FLAGS.flatMap(([field, name]) => flagOf(name, text(form[field]))),
    ...NUMBER_FLAGS.flatMap(([field, name]) => flagOf(name, numberOf(form[field]))),
    ...LIST_FLAGS.flatMap(([field, name]) => listOf(form[field]).flatMap((entry) => flagOf(name, entry))),
  ];
  const selector = listOf(form.nodeSelector);
  if (selector.length > 0) argv.push(`--node-selector=${selector.join(',')}`);
  for (const [field, name] of UPLOAD_FLAGS) {
    if (text(form[field]) === undefined) continue;
    files[UPLOADED[field]] = String(form[field]);
    argv.push(`--${name}=${UPLOADED[field]}`);
  }
  if (form.attachDefaultNetwork === false) argv.push('--attach-default-network=false');
  if (form.autoRepair === true) argv.push('--auto-repair');
  return { argv, files };
}

/** A message, placed at the form field whose flag it names (`--memory`, `"--cores"`), else at the form as a whole. */
export function fieldOfMessage(message: string): keyof ClusterForm | 'form' {
  for (const match of message.matchAll(/--([a-z][a-z-]*)/g)) {
    const field = FIELD_OF_FLAG[match[1] ?? ''];
    if (field !== undefined) return field;
  }
  if (/external infra/i.test(message)) return 'infraKubeconfig';
  // The schema validator names fields by path (spec.platform.kubevirt…), not by flag.
  if (/\bnodepool\b.*(replicas)/i.test(message)) return 'nodePoolReplicas';
  if (/compute\.cores/.test(message)) return 'cores';
  if (/compute\.memory/.test(message)) return 'memory';
  return 'form';
}
