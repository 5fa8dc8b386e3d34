import type { HostedControlPlane } from '../../api/index.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { controllerContainer, deployment, metricsService, mountPath, secretVolumes, type Requests, type SecretMount } from '../common/pod.ts';
import { podDisruptionBudget, replicasFor } from '../common/placement.ts';
import { allocatesNodeCIDRs, hostPrefixOf } from '../common/pod-network.ts';
import { ControlPlaneNames } from '../names.ts';
import { PkiSecret } from '../pki/plan.ts';

/** kube-controller-manager's requests (upstream asks 60m/200Mi). */
export const KUBE_CONTROLLER_MANAGER_REQUESTS: Requests = { cpu: '50m', memory: '128Mi' };
const NAME = ControlPlaneNames.kubeControllerManager;
const PORT = 10257;

const MOUNTS: readonly SecretMount[] = [
  { volume: 'kubeconfig', secret: ControlPlaneNames.kcmKubeconfig },
  // The root CA with its key: the controller manager signs kubelet CSRs and publishes the CA into every namespace.
  { volume: 'root-ca', secret: PkiSecret.rootCA },
  { volume: 'sa-key', secret: PkiSecret.serviceAccountKey, keys: ['service-account.key'] },
  // A certificate the metrics scraper verifies, instead of the self-signed one the controller manager makes up.
  { volume: 'serving-cert', secret: PkiSecret.kcmServer },
];

function args(hcp: HostedControlPlane, release: ReleaseInfo): string[] {
  const kubeconfig = `${mountPath('kubeconfig')}/kubeconfig`;
  return [
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    '--leader-elect=true',
    '--use-service-account-credentials=true',
    '--controllers=*,bootstrapsigner,tokencleaner',
    `--service-account-private-key-file=${mountPath('sa-key')}/service-account.key`,
    `--root-ca-file=${mountPath('root-ca')}/ca.crt`,
    `--cluster-signing-cert-file=${mountPath('root-ca')}/ca.crt`,
    `--cluster-signing-key-file=${mountPath('root-ca')}/ca.key`,
    `--service-cluster-ip-range=${hcp.spec.networking?.serviceNetwork?.[0]?.cidr ?? '172.31.0.0/16'}`,
    `--cluster-cidr=${hcp.spec.networking?.clusterNetwork?.[0]?.cidr ?? '10.132.0.0/14'}`,
    // Each Node gets its pod range when the cluster's plugin takes it from there (flannel does).
    ...(allocatesNodeCIDRs(hcp, release) ? ['--allocate-node-cidrs=true', `--node-cidr-mask-size=${String(hostPrefixOf(hcp))}`] : ['--allocate-node-cidrs=false']),
    `--secure-port=${String(PORT)}`,
    `--tls-cert-file=${mountPath('serving-cert')}/tls.crt`,
    `--tls-private-key-file=${mountPath('serving-cert')}/tls.key`,
    // Its default, /usr/libexec/kubernetes/…, cannot be created on the read-only root: the first real run logged
    // "error (re-)creating driver directory". The writable /tmp has room for the (empty) FlexVolume plugin folder.
    '--flex-volume-plugin-dir=/tmp/volume-plugins',
  ];
}

/** kube-controller-manager: 2 replicas with leader election when HighlyAvailable, 1 otherwise, its budget and metrics Service. */
export function renderKubeControllerManager(hcp: HostedControlPlane, release: ReleaseInfo, configHash: string): Array<Record<string, unknown>> {
  const container = controllerContainer({ name: NAME, image: release.images.kubeControllerManager, args: args(hcp, release), port: PORT, requests: KUBE_CONTROLLER_MANAGER_REQUESTS, mounts: MOUNTS });
  const workload = deployment({ hcp, component: NAME, tier: 'control-plane', configHash, containers: [container], volumes: secretVolumes(MOUNTS) }, replicasFor(hcp, 'control-plane'));
  return [workload, podDisruptionBudget(hcp, NAME), metricsService(hcp, NAME, { portName: 'client', port: PORT, targetPort: 'https' })];
}
