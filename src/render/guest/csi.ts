import type { HostedControlPlane } from '../../api/index.ts';
import { csiDriverEnabled, storageDriverTypeOf } from '../../controlplane/kubevirt-csi-controller/render.ts';
import type { KubevirtCSIImages, ReleaseInfo } from '../../release/info.ts';
import { KubevirtCSI } from '../../platform/kubevirt/csi-names.ts';
import { GUEST_MANAGED_LABELS, guestDaemonSet, guestMeta } from './labels.ts';

type Rendered = Record<string, unknown>;
const NS = KubevirtCSI.guestNamespace;
const NODE_HEALTH_PORT = 10300;
const PLUGIN_DIR = `/var/lib/kubelet/plugins/${KubevirtCSI.driver}`;
const rw = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
const read = ['get', 'list', 'watch'];

/** The controller's rights in the hosted cluster (it provisions, attaches, snapshots and resizes volumes). */
const CONTROLLER_RULES = [
  { apiGroups: [''], resources: ['persistentvolumes'], verbs: rw },
  { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
  { apiGroups: [''], resources: ['persistentvolumeclaims/status'], verbs: ['update', 'patch'] },
  { apiGroups: [''], resources: ['nodes'], verbs: read },
  { apiGroups: [''], resources: ['events'], verbs: ['list', 'watch', 'create', 'update', 'patch'] },
  { apiGroups: ['storage.k8s.io'], resources: ['storageclasses', 'csinodes'], verbs: read },
  { apiGroups: ['storage.k8s.io'], resources: ['volumeattachments', 'volumeattachments/status'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
  { apiGroups: ['snapshot.storage.k8s.io'], resources: ['volumesnapshotclasses'], verbs: read },
  { apiGroups: ['snapshot.storage.k8s.io'], resources: ['volumesnapshotcontents'], verbs: rw },
  { apiGroups: ['snapshot.storage.k8s.io'], resources: ['volumesnapshotcontents/status'], verbs: ['update', 'patch'] },
  { apiGroups: ['snapshot.storage.k8s.io'], resources: ['volumesnapshots'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
  { apiGroups: ['snapshot.storage.k8s.io'], resources: ['volumesnapshots/status'], verbs: ['update'] },
  // The sidecars' leader election.
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: rw },
];

/**
 * The node plugin's rights: it reads volumes and attachments to stage them on its node. Upstream also lets it write
 * PVs, PVCs and Nodes; the driver's node service does neither, so they are left out.
 */
const NODE_RULES = [
  { apiGroups: [''], resources: ['persistentvolumes', 'persistentvolumeclaims', 'nodes'], verbs: read },
  { apiGroups: ['storage.k8s.io'], resources: ['storageclasses', 'csinodes', 'volumeattachments'], verbs: read },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];

function identity(sa: string, role: string, rules: readonly unknown[]): Rendered[] {
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: guestMeta(sa, NS) },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: guestMeta(role), rules },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: guestMeta(`${role}-binding`),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
      subjects: [{ kind: 'ServiceAccount', name: sa, namespace: NS }],
    },
  ];
}

const hostPath = (name: string, path: string, type: string): Rendered => ({ name, hostPath: { path, type } });

function nodeDaemonSet(images: KubevirtCSIImages): Rendered {
  const csi = images.sidecars;
  const plugin = { name: 'plugin-dir', mountPath: '/csi' };
  const driver = {
    name: 'csi-driver',
    image: images.driver,
    args: ['--endpoint=unix:/csi/csi.sock', '--node-name=$(KUBE_NODE_NAME)', '--run-node-service=true', '--run-controller-service=false'],
    env: [{ name: 'KUBE_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
    // Mounting block devices into pods' volumes needs the host's mount namespace and devices.
    securityContext: { privileged: true, allowPrivilegeEscalation: true },
    ports: [{ name: 'healthz', containerPort: NODE_HEALTH_PORT, protocol: 'TCP' }],
    livenessProbe: { httpGet: { path: '/healthz', port: 'healthz' }, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 5 },
    resources: { requests: { cpu: '10m', memory: '50Mi' } },
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [{ name: 'kubelet-dir', mountPath: '/var/lib/kubelet', mountPropagation: 'Bidirectional' }, plugin, { name: 'device-dir', mountPath: '/dev' }, { name: 'udev', mountPath: '/run/udev' }],
  };
  const registrar = {
    name: 'csi-node-driver-registrar',
    image: csi.nodeDriverRegistrar,
    args: ['--csi-address=/csi/csi.sock', `--kubelet-registration-path=${PLUGIN_DIR}/csi.sock`],
    resources: { requests: { cpu: '5m', memory: '20Mi' } },
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [plugin, { name: 'registration-dir', mountPath: '/registration' }],
  };
  const liveness = {
    name: 'csi-liveness-probe',
    image: csi.livenessProbe,
    args: ['--csi-address=/csi/csi.sock', '--probe-timeout=3s', `--health-port=${String(NODE_HEALTH_PORT)}`],
    resources: { requests: { cpu: '5m', memory: '20Mi' } },
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [plugin],
  };
  return guestDaemonSet({
    name: 'kubevirt-csi-node',
    namespace: NS,
    labels: { app: 'kubevirt-csi-node' },
    rollingUpdate: { maxUnavailable: '10%' },
    podSpec: {
      serviceAccountName: KubevirtCSI.nodeServiceAccount,
      priorityClassName: 'system-node-critical',
      tolerations: [{ operator: 'Exists' }],
      containers: [driver, registrar, liveness],
      volumes: [
        hostPath('kubelet-dir', '/var/lib/kubelet', 'Directory'),
        hostPath('plugin-dir', `${PLUGIN_DIR}/`, 'DirectoryOrCreate'),
        hostPath('registration-dir', '/var/lib/kubelet/plugins_registry/', 'Directory'),
        hostPath('device-dir', '/dev', 'Directory'),
        hostPath('udev', '/run/udev', ''),
      ],
    },
  });
}

const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';

/**
 * The hosted cluster's storage classes: `Default` → `kubevirt-csi-infra-default`, marked the default class (the
 * guest controller leaves the mark alone once the class exists, so a user may move it); `Manual` → one per mapping,
 * named as the guest class, passing the infrastructure class on.
 */
export function guestStorageClasses(hcp: HostedControlPlane): Rendered[] {
  const storageClass = (name: string, parameters: Record<string, string>, annotations?: Record<string, string>): Rendered => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { ...guestMeta(name), ...(annotations === undefined ? {} : { annotations }) },
    provisioner: KubevirtCSI.driver,
    parameters,
    allowVolumeExpansion: true,
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'Immediate',
  });
  if (storageDriverTypeOf(hcp) !== 'Manual') return [storageClass(KubevirtCSI.defaultStorageClass, { bus: 'scsi' }, { [DEFAULT_CLASS_ANNOTATION]: 'true' })];
  const mappings = hcp.spec.platform.kubevirt?.storageDriver?.manual?.storageClassMapping ?? [];
  return mappings.map((m) => storageClass(m.guestStorageClassName, { bus: 'scsi', infraStorageClassName: m.infraStorageClassName }));
}

/** The hosted cluster's snapshot classes: `kubevirt-csi-snapshot` for `Default`, one per mapping for `Manual`. */
export function guestSnapshotClasses(hcp: HostedControlPlane): Rendered[] {
  const snapshotClass = (name: string, parameters: Record<string, string>): Rendered => ({
    apiVersion: 'snapshot.storage.k8s.io/v1',
    kind: 'VolumeSnapshotClass',
    metadata: guestMeta(name),
    driver: KubevirtCSI.driver,
    deletionPolicy: 'Delete',
    parameters,
  });
  if (storageDriverTypeOf(hcp) !== 'Manual') return [snapshotClass(KubevirtCSI.defaultSnapshotClass, {})];
  const mappings = hcp.spec.platform.kubevirt?.storageDriver?.manual?.volumeSnapshotClassMapping ?? [];
  return mappings.map((m) => snapshotClass(m.guestVolumeSnapshotClassName, { infraSnapshotClassName: m.infraVolumeSnapshotClassName }));
}

/**
 * The KubeVirt CSI driver's side inside the hosted cluster (absent for `None` and releases without the driver): its namespace, the controller's and
 * node plugin's identities, the CSIDriver, the node DaemonSet and the storage classes (snapshot classes come
 * separately: they need the snapshot CRDs in the hosted cluster).
 */
export function renderGuestCSI(hcp: HostedControlPlane, release: ReleaseInfo): Rendered[] {
  const images = release.images.kubevirtCSI;
  if (!csiDriverEnabled(hcp) || images === undefined) return [];
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, labels: { ...GUEST_MANAGED_LABELS, 'pod-security.kubernetes.io/enforce': 'privileged' } } },
    ...identity(KubevirtCSI.controllerServiceAccount, 'kubevirt-csi-controller-cr', CONTROLLER_RULES),
    ...identity(KubevirtCSI.nodeServiceAccount, 'kubevirt-csi-node-cr', NODE_RULES),
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: guestMeta(KubevirtCSI.driver),
      spec: { attachRequired: true, podInfoOnMount: true, fsGroupPolicy: 'ReadWriteOnceWithFSType' },
    },
    nodeDaemonSet(images),
    ...guestStorageClasses(hcp),
  ];
}
