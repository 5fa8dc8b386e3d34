/**
 * Names of the KubeVirt CSI driver shared by the control-plane side (its controller) and the hosted cluster side (its
 * node plugin, storage classes): upstream's, which users' storage classes and scripts rely on.
 */
export const KubevirtCSI = {
  /** The CSI driver name: provisioner of the storage classes, driver of the snapshot classes. */
  driver: 'csi.kubevirt.io',
  /** The hosted cluster namespace of the driver's objects. */
  guestNamespace: 'openshift-cluster-csi-drivers',
  /** The guest service account the controller acts as in the hosted cluster. */
  controllerServiceAccount: 'kubevirt-csi-controller-sa',
  nodeServiceAccount: 'kubevirt-csi-node-sa',
  /** The controller's service account and Role on the infrastructure namespace (management cluster case). */
  infraServiceAccount: 'kubevirt-csi',
  /** The ConfigMap the controller reads its infrastructure settings from. */
  driverConfig: 'driver-config',
  /** The guest storage class and snapshot class when the storage driver is `Default`. */
  defaultStorageClass: 'kubevirt-csi-infra-default',
  defaultSnapshotClass: 'kubevirt-csi-snapshot',
} as const;

/** The user name a client certificate must carry to act as a guest service account (what RBAC matches). */
export const serviceAccountUser = (namespace: string, name: string): string => `system:serviceaccount:${namespace}:${name}`;
