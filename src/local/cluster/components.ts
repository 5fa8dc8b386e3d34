/**
 * Command lines of the three processes of a local cluster. Pure: a function of the ports and file locations, so
 * the flags are reviewable and testable without starting anything.
 */

/** Where a cluster's files live and which ports it uses. */
export interface ClusterLayout {
  readonly name: string;
  readonly dir: string;
  readonly etcdClientPort: number;
  readonly etcdPeerPort: number;
  readonly apiServerPort: number;
  readonly controllerManagerPort: number;
}

/** The Service IP range of local clusters; the `kubernetes` Service gets its first address. */
export const SERVICE_CIDR = '10.96.0.0/16';

const file = (layout: Pick<ClusterLayout, 'dir'>, name: string): string => `${layout.dir}/${name}`;

/** etcd on loopback, without fsync (test data is disposable and fsync dominates start-up on slow disks). */
export function etcdArgs(layout: Pick<ClusterLayout, 'dir' | 'etcdClientPort' | 'etcdPeerPort'>): string[] {
  const client = `http://127.0.0.1:${layout.etcdClientPort}`;
  const peer = `http://127.0.0.1:${layout.etcdPeerPort}`;
  return [
    '--name=default',
    `--data-dir=${file(layout, 'etcd-data')}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=default=${peer}`,
    '--unsafe-no-fsync=true',
    '--log-level=warn',
  ];
}

/** kube-apiserver with RBAC, client-certificate authentication and service-account tokens, bound to loopback. */
export function apiServerArgs(layout: ClusterLayout): string[] {
  return [
    `--etcd-servers=http://127.0.0.1:${layout.etcdClientPort}`,
    `--secure-port=${layout.apiServerPort}`,
    '--bind-address=127.0.0.1',
    // Without it the server looks for a default route to pick its address, and a loopback-only host has none.
    '--advertise-address=127.0.0.1',
    // A loopback advertise address fails endpoint validation forever; nothing here needs the kubernetes Endpoints.
    '--endpoint-reconciler-type=none',
    `--tls-cert-file=${file(layout, 'pki/apiserver.crt')}`,
    `--tls-private-key-file=${file(layout, 'pki/apiserver.key')}`,
    `--client-ca-file=${file(layout, 'pki/client-ca.crt')}`,
    `--service-account-issuer=https://127.0.0.1:${layout.apiServerPort}`,
    `--service-account-key-file=${file(layout, 'pki/sa.pub')}`,
    `--service-account-signing-key-file=${file(layout, 'pki/sa.key')}`,
    `--service-cluster-ip-range=${SERVICE_CIDR}`,
    // As a hosted cluster authorises: kubelets through the Node authorizer (their CSRs, their Node), everyone else RBAC.
    '--authorization-mode=Node,RBAC',
    // Kubelets and tests join with bootstrap tokens (kube-system/bootstrap-token-*), as on a hosted cluster.
    '--enable-bootstrap-token-auth=true',
    '--allow-privileged=true',
    '--enable-priority-and-fairness=false',
    '--profiling=false',
    `--cert-dir=${file(layout, 'pki')}`,
  ];
}

/** The controllers a local cluster runs: enough for garbage collection, namespaces, workloads and Jobs, disruption budgets, claims and CSRs. */
export const CONTROLLERS = [
  'garbage-collector-controller',
  'namespace-controller',
  'serviceaccount-controller',
  'serviceaccount-token-controller',
  'root-ca-certificate-publisher-controller',
  'deployment-controller',
  'replicaset-controller',
  'statefulset-controller',
  // The operator's etcd backups run as Jobs, removed a while after they finish.
  'job-controller',
  'ttl-after-finished-controller',
  // Computes what each PodDisruptionBudget allows: without it every eviction of a guarded pod is refused for ever
  // (control planes carry budgets; a hosted cluster's drain is judged by them).
  'disruption-controller',
  // StatefulSets' claims carry the protection finalizer (admission adds it); without these controllers a namespace
  // holding one never finishes deleting.
  'persistentvolumeclaim-protection-controller',
  'persistentvolume-protection-controller',
  'certificatesigningrequest-signing-controller',
  'certificatesigningrequest-approving-controller',
  'certificatesigningrequest-cleaner-controller',
] as const;

/** kube-controller-manager, each controller with its own service account as in a real cluster. */
export function controllerManagerArgs(layout: ClusterLayout): string[] {
  const kubeconfig = file(layout, 'controller-manager.kubeconfig');
  return [
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${layout.controllerManagerPort}`,
    `--cert-dir=${file(layout, 'controller-manager-certs')}`,
    '--leader-elect=false',
    `--controllers=${CONTROLLERS.join(',')}`,
    '--use-service-account-credentials=true',
    `--service-account-private-key-file=${file(layout, 'pki/sa.key')}`,
    `--root-ca-file=${file(layout, 'pki/server-ca.crt')}`,
    `--cluster-signing-cert-file=${file(layout, 'pki/client-ca.crt')}`,
    `--cluster-signing-key-file=${file(layout, 'pki/client-ca.key')}`,
    `--cluster-name=${layout.name}`,
    `--service-cluster-ip-range=${SERVICE_CIDR}`,
  ];
}
