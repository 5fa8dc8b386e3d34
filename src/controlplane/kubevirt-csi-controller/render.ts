import type { HostedControlPlane, KubevirtStorageDriverSpec } from '../../api/index.ts';
import type { KubevirtCSIImages, ReleaseInfo } from '../../release/info.ts';
import { toYaml } from '../../lib/yaml.ts';
import { KubevirtCSI } from '../../platform/kubevirt/csi-names.ts';
import { infraKubeconfigVolume, infraTargetOf, type InfraTarget } from '../common/infra.ts';
import { MANAGED_BY } from '../common/placement.ts';
import { CONTAINER_SECURITY, configHashWith, deployment, serviceAccountWithRole, mountPath, secretVolumes, type Requests, type SecretMount } from '../common/pod.ts';
import { ControlPlaneNames } from '../names.ts';

/** Each container's requests (upstream's 10m/50Mi for the driver and every sidecar). */
export const KUBEVIRT_CSI_REQUESTS: Requests = { cpu: '10m', memory: '50Mi' };
const NAME = ControlPlaneNames.kubevirtCSIController;
const SOCKET_DIR = '/var/lib/csi/sockets/pluginproxy';
const SOCKET = `${SOCKET_DIR}/csi.sock`;
const HEALTH_PORT = 10301;
const TENANT: SecretMount = { volume: 'tenant-kubeconfig', secret: ControlPlaneNames.csiControllerKubeconfig };
const TENANT_KUBECONFIG = `${mountPath(TENANT.volume)}/kubeconfig`;
const INFRA_VOLUME = 'infra-kubeconfig';
const labels = { [MANAGED_BY.key]: MANAGED_BY.value };

/** The storage driver type (upstream's default: `Default`). */
export const storageDriverTypeOf = (hcp: HostedControlPlane): NonNullable<KubevirtStorageDriverSpec['type']> => hcp.spec.platform.kubevirt?.storageDriver?.type ?? 'Default';

/** Whether the hosted cluster gets the KubeVirt CSI driver (every type but `None`). */
export const csiDriverEnabled = (hcp: HostedControlPlane): boolean => storageDriverTypeOf(hcp) !== 'None';

const sorted = (values: Iterable<string>): string[] => [...values].sort((a, b) => a.localeCompare(b));

/** Class names by mapping group (the empty group for mappings without one). */
function byGroup(mappings: ReadonlyArray<{ group?: string | undefined; name: string }>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const { group = '', name } of mappings) groups.set(group, [...(groups.get(group) ?? []), name]);
  return groups;
}

/** Infrastructure classes grouped by mapping group: a storage class and a snapshot class of one group work together. */
function snapshotMapping(hcp: HostedControlPlane): Array<{ storageClasses?: string[]; volumeSnapshotClasses?: string[] }> {
  const manual = hcp.spec.platform.kubevirt?.storageDriver?.manual;
  const storage = byGroup((manual?.storageClassMapping ?? []).map((m) => ({ group: m.group, name: m.infraStorageClassName })));
  const snapshots = byGroup((manual?.volumeSnapshotClassMapping ?? []).map((m) => ({ group: m.group, name: m.infraVolumeSnapshotClassName })));
  const listed = (key: string, names: string[] | undefined): Record<string, string[]> => (names === undefined ? {} : { [key]: sorted(names) });
  return sorted(new Set([...storage.keys(), ...snapshots.keys()])).map((group) => ({ ...listed('storageClasses', storage.get(group)), ...listed('volumeSnapshotClasses', snapshots.get(group)) }));
}

/**
 * The driver's storage-class enforcement: `Default` allows only the infrastructure's default class, `Manual` exactly
 * the mapped classes with their snapshot groups (upstream's document, keys sorted).
 */
export function storageClassEnforcement(hcp: HostedControlPlane): string {
  if (storageDriverTypeOf(hcp) !== 'Manual') return toYaml({ allowDefault: true, allowAll: false });
  const allowList = sorted((hcp.spec.platform.kubevirt?.storageDriver?.manual?.storageClassMapping ?? []).map((m) => m.infraStorageClassName));
  return toYaml({ allowAll: false, allowList, storageSnapshotMapping: snapshotMapping(hcp) });
}

/** The `driver-config` ConfigMap: where on the infrastructure cluster, which labels, which classes. */
export function driverConfig(hcp: HostedControlPlane, infra: InfraTarget): Record<string, unknown> {
  const [key, value] = Object.entries(infra.labels)[0] ?? ['', ''];
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: KubevirtCSI.driverConfig, namespace: hcp.metadata.namespace, labels },
    data: { infraClusterNamespace: infra.namespace, infraClusterLabels: `${key}=${value}`, infraStorageClassEnforcement: storageClassEnforcement(hcp) },
  };
}

/** The controller's identity on the management cluster: DataVolumes, VMs/VMIs (hotplug), snapshots, PVCs. */
const infraRbac = (hcp: HostedControlPlane): Array<Record<string, unknown>> =>
  serviceAccountWithRole(hcp, KubevirtCSI.infraServiceAccount, [
    { apiGroups: ['cdi.kubevirt.io'], resources: ['datavolumes'], verbs: ['get', 'create', 'delete'] },
    { apiGroups: ['kubevirt.io'], resources: ['virtualmachineinstances', 'virtualmachines'], verbs: ['list', 'get'] },
    { apiGroups: ['subresources.kubevirt.io'], resources: ['virtualmachineinstances/addvolume', 'virtualmachineinstances/removevolume', 'virtualmachines/addvolume', 'virtualmachines/removevolume'], verbs: ['update'] },
    { apiGroups: ['snapshot.storage.k8s.io'], resources: ['volumesnapshots'], verbs: ['get', 'create', 'delete'] },
    { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['get', 'patch'] },
  ]);

const configEnv = (name: string, key: string): Record<string, unknown> => ({ name, valueFrom: { configMapKeyRef: { name: KubevirtCSI.driverConfig, key } } });

function csiContainer(name: string, image: string, args: readonly string[], mounts: readonly unknown[]): Record<string, unknown> {
  return {
    name,
    image,
    args,
    resources: { requests: KUBEVIRT_CSI_REQUESTS },
    securityContext: CONTAINER_SECURITY,
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [{ name: 'tmp-dir', mountPath: '/tmp' }, { name: 'socket-dir', mountPath: SOCKET_DIR }, ...mounts],
  };
}

function containers(images: KubevirtCSIImages, external: boolean): unknown[] {
  const tenant = { name: TENANT.volume, mountPath: mountPath(TENANT.volume), readOnly: true };
  const infra = external ? [{ name: INFRA_VOLUME, mountPath: mountPath(INFRA_VOLUME), readOnly: true }] : [];
  const sidecar = (name: string, image: string, extra: readonly string[]): Record<string, unknown> =>
    csiContainer(name, image, [`--csi-address=${SOCKET}`, `--kubeconfig=${TENANT_KUBECONFIG}`, '--timeout=3m', ...extra], [tenant]);
  const driver = csiContainer(
    'csi-driver',
    images.driver,
    [
      `--endpoint=unix://${SOCKET}`,
      '--infra-cluster-namespace=$(INFRACLUSTER_NAMESPACE)',
      `--tenant-cluster-kubeconfig=${TENANT_KUBECONFIG}`,
      '--infra-cluster-labels=$(INFRACLUSTER_LABELS)',
      ...(external ? [`--infra-cluster-kubeconfig=${mountPath(INFRA_VOLUME)}/kubeconfig`] : []),
      '--run-node-service=false',
      '--run-controller-service=true',
    ],
    [tenant, ...infra],
  );
  driver['env'] = [configEnv('INFRACLUSTER_NAMESPACE', 'infraClusterNamespace'), configEnv('INFRACLUSTER_LABELS', 'infraClusterLabels'), configEnv('INFRA_STORAGE_CLASS_ENFORCEMENT', 'infraStorageClassEnforcement')];
  driver['ports'] = [{ name: 'healthz', containerPort: HEALTH_PORT, protocol: 'TCP' }];
  driver['livenessProbe'] = { httpGet: { path: '/healthz', port: 'healthz' }, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 5 };
  const csi = images.sidecars;
  return [
    driver,
    sidecar('csi-provisioner', csi.provisioner, ['--default-fstype=ext4', '--retry-interval-max=1m']),
    sidecar('csi-attacher', csi.attacher, ['--retry-interval-max=1m']),
    sidecar('csi-snapshotter', csi.snapshotter, []),
    sidecar('csi-resizer', csi.resizer, ['--handle-volume-inuse-error=false']),
    csiContainer('csi-liveness-probe', csi.livenessProbe, [`--csi-address=${SOCKET}`, '--probe-timeout=3s', `--health-port=${String(HEALTH_PORT)}`], []),
  ];
}

/**
 * The KubeVirt CSI controller of a hosted cluster (upstream's component; absent when the storage driver is `None`):
 * `driver-config`, and one Deployment replica (the sidecars elect a leader anyway) of the driver and the
 * kubernetes-csi sidecars. It acts in the hosted cluster as the guest service account `kubevirt-csi-controller-sa`
 * (a client certificate of the control plane's PKI), and on the infrastructure cluster with its own service account
 * and Role, or, for an external infrastructure cluster, with the HostedCluster's kubeconfig. None when the release
 * carries no CSI driver.
 */
export function renderKubevirtCSIController(hcp: HostedControlPlane, release: ReleaseInfo, configHash: string): Array<Record<string, unknown>> {
  const images = release.images.kubevirtCSI;
  if (!csiDriverEnabled(hcp) || images === undefined) return [];
  const infra = infraTargetOf(hcp);
  const external = infra.kubeconfigKey !== undefined;
  const config = driverConfig(hcp, infra);
  const volumes = [
    { name: 'socket-dir', emptyDir: {} },
    ...secretVolumes([TENANT]),
    ...(infra.kubeconfigKey === undefined ? [] : [infraKubeconfigVolume(INFRA_VOLUME, infra.kubeconfigKey)]),
  ];
  // The driver reads driver-config from its environment at start: a changed one rolls the pod.
  const hash = configHashWith(configHash, toYaml(config));
  const workload = deployment({ hcp, component: NAME, tier: 'control-plane', configHash: hash, containers: containers(images, external), volumes, ...(external ? {} : { serviceAccount: KubevirtCSI.infraServiceAccount }) }, 1);
  return [...(external ? [] : infraRbac(hcp)), config, workload];
}
