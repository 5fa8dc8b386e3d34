/**
 * Names inside a control-plane namespace, in one place: Secrets of the PKI, Services and workloads of the
 * components (upstream's names where users and tools know them).
 */
export const ControlPlaneNames = {
  /** Services. */
  kubeAPIServerService: 'kube-apiserver',
  etcdClientService: 'etcd-client',
  etcdDiscoveryService: 'etcd-discovery',
  /** Workloads. */
  etcd: 'etcd',
  kubeAPIServer: 'kube-apiserver',
  kubeControllerManager: 'kube-controller-manager',
  kubeScheduler: 'kube-scheduler',
  /** The KubeVirt platform's components (Deployments, service accounts; upstream's names). */
  kubevirtCloudControllerManager: 'kubevirt-cloud-controller-manager',
  kubevirtCSIController: 'kubevirt-csi-controller',
  /** The ignition endpoint (Deployment, Service, Route, ServiceAccount, Role: upstream's name). */
  ignitionServer: 'ignition-server',
  /** Kubeconfig Secrets. */
  adminKubeconfig: 'admin-kubeconfig',
  serviceNetworkAdminKubeconfig: 'service-network-admin-kubeconfig',
  kcmKubeconfig: 'kube-controller-manager-kubeconfig',
  schedulerKubeconfig: 'kube-scheduler-kubeconfig',
  /** The CSI controller's kubeconfig for the hosted cluster, as the guest service account its RBAC names. */
  csiControllerKubeconfig: 'kubevirt-csi-controller-service-account-kubeconfig',
  /** The secret-encryption configuration of kube-apiserver. */
  encryptionConfig: 'kas-secret-encryption-config',
  /** The kubeadmin password (key `password`; upstream's name) and the token file kube-apiserver reads it from. */
  kubeadminPassword: 'kubeadmin-password',
  kubeadminTokenFile: 'kas-kubeadmin-token',
} as const;

/** The port kube-apiserver serves on inside the management cluster (upstream's). */
export const KUBE_APISERVER_PORT = 6443;
/** etcd's client and peer ports. */
export const ETCD_CLIENT_PORT = 2379;
export const ETCD_PEER_PORT = 2380;
