/**
 * Dynamic volumes of the management cluster: rancher's local-path provisioner (the one kind ships) hands out
 * folders on the node for PersistentVolumeClaims — control planes' etcd claims among them — and removes a folder when
 * its claim goes, so `hcp destroy cluster` leaves no volume data. Its helper pods run the environment's own
 * `local-path-helper` instead of shell scripts on busybox.
 */
import { join } from 'node:path/posix';
import type { KubeManifest } from '../../api/manifest.ts';
import type { EnvironmentLayout } from './layout.ts';

const NAMESPACE = 'local-path-storage';
const SERVICE_ACCOUNT = 'local-path-provisioner-service-account';
const NAME = 'local-path-provisioner';

/** The image of the provisioner, under upstream's name. */
export const LOCAL_PATH_PROVISIONER_IMAGE = 'docker.io/rancher/local-path-provisioner:v0.0.30';

/** The name of the default StorageClass (kind's name for it, so manifests written for kind work). */
export const DEFAULT_STORAGE_CLASS = 'standard';

/** Where volumes live (one folder on this host for every node; each volume is pinned to the node that made it). */
export const volumesDir = (layout: EnvironmentLayout): string => join(layout.stateDir, 'volumes');

const rbac = (): KubeManifest[] => [
  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: SERVICE_ACCOUNT, namespace: NAMESPACE } },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'local-path-provisioner-role', namespace: NAMESPACE },
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'update', 'delete'] }],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'local-path-provisioner-role' },
    rules: [
      { apiGroups: [''], resources: ['nodes', 'persistentvolumeclaims', 'configmaps', 'pods', 'pods/log'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'update', 'delete'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
      { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: ['get', 'list', 'watch'] },
    ],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'local-path-provisioner-bind', namespace: NAMESPACE },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'local-path-provisioner-role' },
    subjects: [{ kind: 'ServiceAccount', name: SERVICE_ACCOUNT, namespace: NAMESPACE }],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'local-path-provisioner-bind' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'local-path-provisioner-role' },
    subjects: [{ kind: 'ServiceAccount', name: SERVICE_ACCOUNT, namespace: NAMESPACE }],
  },
];

function helperPod(helperImage: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'helper-pod' },
    spec: {
      priorityClassName: 'system-node-critical',
      tolerations: [{ key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' }],
      containers: [{ name: 'helper-pod', image: helperImage, imagePullPolicy: 'IfNotPresent' }],
    },
  });
}

/** The provisioner's objects and the default StorageClass, in apply order. */
export function storageObjects(layout: EnvironmentLayout, helperImage: string): KubeManifest[] {
  const config = {
    nodePathMap: [{ node: 'DEFAULT_PATH_FOR_NON_LISTED_NODES', paths: [volumesDir(layout)] }],
    setupCommand: '/local-path-helper',
    teardownCommand: '/local-path-helper',
  };
  const labels = { app: NAME };
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } },
    ...rbac(),
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'local-path-config', namespace: NAMESPACE }, data: { 'config.json': JSON.stringify(config, null, 2), 'helperPod.yaml': helperPod(helperImage) } },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: NAME, namespace: NAMESPACE },
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: SERVICE_ACCOUNT,
            priorityClassName: 'system-cluster-critical',
            containers: [
              {
                name: NAME,
                image: LOCAL_PATH_PROVISIONER_IMAGE,
                imagePullPolicy: 'IfNotPresent',
                command: ['local-path-provisioner', 'start', '--config', '/etc/config/config.json', '--helper-image', helperImage],
                env: [
                  { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
                  { name: 'CONFIG_MOUNT_PATH', value: '/etc/config/' },
                ],
                resources: { requests: { cpu: '5m', memory: '20Mi' } },
                volumeMounts: [{ name: 'config-volume', mountPath: '/etc/config/' }],
              },
            ],
            volumes: [{ name: 'config-volume', configMap: { name: 'local-path-config' } }],
          },
        },
      },
    },
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: DEFAULT_STORAGE_CLASS, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'rancher.io/local-path',
      volumeBindingMode: 'WaitForFirstConsumer',
      reclaimPolicy: 'Delete',
    },
  ];
}
