import type { HostedControlPlane } from '../../api/index.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { toYaml } from '../../lib/yaml.ts';
import { infraKubeconfigVolume, infraTargetOf, type InfraTarget } from '../common/infra.ts';
import { MANAGED_BY, podDisruptionBudget, replicasFor } from '../common/placement.ts';
import { CONTAINER_SECURITY, configHashWith, deployment, serviceAccountWithRole, httpsCheck, probes, mountPath, secretVolumes, type Requests, type SecretMount } from '../common/pod.ts';
import { ControlPlaneNames } from '../names.ts';

/** The cloud provider's requests (upstream's 75m/60Mi). */
export const KUBEVIRT_CCM_REQUESTS: Requests = { cpu: '75m', memory: '60Mi' };
const NAME = ControlPlaneNames.kubevirtCloudControllerManager;
/** The ConfigMap holding `cloud-config` (upstream's name). */
export const KUBEVIRT_CLOUD_CONFIG = 'kubevirt-cloud-config';
/** cloud-controller-manager's default secure port (health). */
const PORT = 10258;
const GUEST: SecretMount = { volume: 'kubeconfig', secret: ControlPlaneNames.serviceNetworkAdminKubeconfig };
const INFRA_VOLUME = 'infra-kubeconfig';
const labels = { [MANAGED_BY.key]: MANAGED_BY.value };

/**
 * The provider's `cloud-config`: LoadBalancer Services of the hosted cluster become selectorless Services in the
 * infrastructure namespace (their EndpointSlices follow the VMs), node addresses and instance data come from the VMIs
 * labelled with the cluster's infra-id; the kubeconfig only for an external infrastructure cluster (in-cluster
 * credentials otherwise).
 */
export function kubevirtCloudConfig(infra: InfraTarget): string {
  return toYaml({
    ...(infra.kubeconfigKey === undefined ? {} : { kubeconfig: `${mountPath(INFRA_VOLUME)}/kubeconfig` }),
    loadBalancer: { enabled: true, creationPollInterval: 0, selectorless: true },
    instancesV2: { enabled: true, zoneAndRegionEnabled: false },
    namespace: infra.namespace,
    infraLabels: infra.labels,
  });
}

/** On the management cluster the provider acts with its service account: VMs, VMIs and Services of the namespace. */
const infraRbac = (hcp: HostedControlPlane): Array<Record<string, unknown>> =>
  serviceAccountWithRole(hcp, NAME, [
    { apiGroups: ['kubevirt.io'], resources: ['virtualmachines'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['kubevirt.io'], resources: ['virtualmachineinstances'], verbs: ['get', 'list', 'watch', 'update'] },
    // Upstream grants `*`; these are the verbs the provider uses, and ones the operator holds to grant.
    { apiGroups: [''], resources: ['services'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
  ]);

function container(hcp: HostedControlPlane, image: string, external: boolean): Record<string, unknown> {
  return {
    name: 'cloud-controller-manager',
    image,
    command: ['/bin/kubevirt-cloud-controller-manager'],
    args: [
      '--cloud-provider=kubevirt',
      `--cloud-config=/etc/cloud/cloud-config`,
      `--kubeconfig=${mountPath(GUEST.volume)}/kubeconfig`,
      '--authentication-skip-lookup',
      `--cluster-name=${hcp.spec.infraID}`,
      `--secure-port=${String(PORT)}`,
      '--tls-min-version=VersionTLS12',
    ],
    ports: [{ name: 'https', containerPort: PORT, protocol: 'TCP' }],
    ...probes({ live: httpsCheck('/healthz', PORT), startupLimit: 300 }),
    resources: { requests: KUBEVIRT_CCM_REQUESTS },
    securityContext: CONTAINER_SECURITY,
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [
      { name: 'tmp-dir', mountPath: '/tmp' },
      { name: 'cloud-config', mountPath: '/etc/cloud', readOnly: true },
      { name: GUEST.volume, mountPath: mountPath(GUEST.volume), readOnly: true },
      ...(external ? [{ name: INFRA_VOLUME, mountPath: mountPath(INFRA_VOLUME), readOnly: true }] : []),
    ],
  };
}

/**
 * The KubeVirt cloud-controller-manager of a hosted cluster (upstream's component): its `cloud-config`, the
 * Deployment (2 replicas when HighlyAvailable, leader-elected in the hosted cluster) talking to the hosted API server
 * as its admin and to the infrastructure cluster either with its own service account (Role on the control-plane
 * namespace) or, for an external infrastructure cluster, with the HostedCluster's kubeconfig; and its budget. None
 * when the release carries no provider image.
 */
export function renderKubevirtCloudControllerManager(hcp: HostedControlPlane, release: ReleaseInfo, configHash: string): Array<Record<string, unknown>> {
  const image = release.images.kubevirtCloudControllerManager;
  if (image === undefined) return [];
  const infra = infraTargetOf(hcp);
  const external = infra.kubeconfigKey !== undefined;
  const cloudConfig = kubevirtCloudConfig(infra);
  const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: KUBEVIRT_CLOUD_CONFIG, namespace: hcp.metadata.namespace, labels }, data: { 'cloud-config': cloudConfig } };
  const volumes = [
    { name: 'cloud-config', configMap: { name: KUBEVIRT_CLOUD_CONFIG, defaultMode: 0o644 } },
    ...secretVolumes([GUEST]),
    ...(infra.kubeconfigKey === undefined ? [] : [infraKubeconfigVolume(INFRA_VOLUME, infra.kubeconfigKey)]),
  ];
  // The provider reads its cloud-config once: a changed one rolls the pods like a changed Secret.
  const hash = configHashWith(configHash, cloudConfig);
  const workload = deployment({ hcp, component: NAME, tier: 'control-plane', configHash: hash, containers: [container(hcp, image, external)], volumes, ...(external ? {} : { serviceAccount: NAME }) }, replicasFor(hcp, 'control-plane'));
  return [...(external ? [] : infraRbac(hcp)), config, workload, podDisruptionBudget(hcp, NAME)];
}
