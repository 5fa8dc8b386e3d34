import type { HostedControlPlane } from '../../api/index.ts';
import type { ReleaseInfo } from '../../release/catalog.ts';
import { CONTAINER_SECURITY, deployment, httpsProbe, mountPath, secretVolumeMounts, secretVolumes, type Requests, type SecretMount } from '../common/pod.ts';
import { podDisruptionBudget, replicasFor } from '../common/placement.ts';
import { ControlPlaneNames } from '../names.ts';

/** kube-scheduler's requests (upstream asks 25m/150Mi). */
export const KUBE_SCHEDULER_REQUESTS: Requests = { cpu: '20m', memory: '64Mi' };
const NAME = ControlPlaneNames.kubeScheduler;
const PORT = 10259;
const MOUNTS: readonly SecretMount[] = [{ volume: 'kubeconfig', secret: ControlPlaneNames.schedulerKubeconfig }];

/** kube-scheduler: replicas by availability policy with leader election, and its budget. */
export function renderKubeScheduler(hcp: HostedControlPlane, release: ReleaseInfo, configHash: string): Array<Record<string, unknown>> {
  const kubeconfig = `${mountPath('kubeconfig')}/kubeconfig`;
  const container = {
    name: NAME,
    image: release.images.kubeScheduler,
    command: ['kube-scheduler'],
    args: [`--kubeconfig=${kubeconfig}`, `--authentication-kubeconfig=${kubeconfig}`, `--authorization-kubeconfig=${kubeconfig}`, '--leader-elect=true', `--secure-port=${String(PORT)}`],
    ports: [{ name: 'https', containerPort: PORT, protocol: 'TCP' }],
    livenessProbe: httpsProbe('/healthz', PORT, 45),
    resources: { requests: KUBE_SCHEDULER_REQUESTS },
    securityContext: CONTAINER_SECURITY,
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [{ name: 'tmp-dir', mountPath: '/tmp' }, ...secretVolumeMounts(MOUNTS)],
  };
  const workload = deployment({ hcp, component: NAME, tier: 'control-plane', configHash, containers: [container], volumes: secretVolumes(MOUNTS) }, replicasFor(hcp, 'control-plane'));
  return [workload, podDisruptionBudget(hcp, NAME)];
}
