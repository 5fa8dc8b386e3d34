import type { HostedControlPlane } from '../../api/index.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { controllerContainer, deployment, metricsService, mountPath, secretVolumes, type Requests, type SecretMount } from '../common/pod.ts';
import { podDisruptionBudget, replicasFor } from '../common/placement.ts';
import { ControlPlaneNames } from '../names.ts';
import { PkiSecret } from '../pki/plan.ts';

/** kube-scheduler's requests (upstream asks 25m/150Mi). */
export const KUBE_SCHEDULER_REQUESTS: Requests = { cpu: '20m', memory: '64Mi' };
const NAME = ControlPlaneNames.kubeScheduler;
const PORT = 10259;
const MOUNTS: readonly SecretMount[] = [
  { volume: 'kubeconfig', secret: ControlPlaneNames.schedulerKubeconfig },
  // A certificate the metrics scraper verifies, instead of the self-signed one the scheduler makes up at start.
  { volume: 'serving-cert', secret: PkiSecret.schedulerServer },
];

/** kube-scheduler: replicas by availability policy with leader election, its budget, and its metrics Service. */
export function renderKubeScheduler(hcp: HostedControlPlane, release: ReleaseInfo, configHash: string): Array<Record<string, unknown>> {
  const kubeconfig = `${mountPath('kubeconfig')}/kubeconfig`;
  const args = [`--kubeconfig=${kubeconfig}`, `--authentication-kubeconfig=${kubeconfig}`, `--authorization-kubeconfig=${kubeconfig}`, '--leader-elect=true', `--secure-port=${String(PORT)}`];
  args.push(`--tls-cert-file=${mountPath('serving-cert')}/tls.crt`, `--tls-private-key-file=${mountPath('serving-cert')}/tls.key`);
  const container = controllerContainer({ name: NAME, image: release.images.kubeScheduler, args, port: PORT, requests: KUBE_SCHEDULER_REQUESTS, mounts: MOUNTS });
  const workload = deployment({ hcp, component: NAME, tier: 'control-plane', configHash, containers: [container], volumes: secretVolumes(MOUNTS) }, replicasFor(hcp, 'control-plane'));
  return [workload, podDisruptionBudget(hcp, NAME), metricsService(hcp, NAME, { portName: 'client', port: PORT, targetPort: 'https' })];
}
