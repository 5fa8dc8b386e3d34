import { UserCABundle } from '../../api/v1beta1/well-known.ts';
import type { HostedCluster, HostedClusterSpec, KubevirtPlatformSpec, ServicePublishingStrategyMapping } from '../../api/index.ts';
import type { ClusterInput } from './input.ts';

/** The services published on one address by NodePort, in upstream's order (sorted by service name). */
const NODE_PORT_SERVICES = ['APIServer', 'Ignition', 'Konnectivity', 'OAuthServer', 'OIDC'] as const;

/**
 * The publishing strategy of `hcp`: `Ingress` publishes the API server by LoadBalancer (Route with external DNS) and
 * the rest by Route; `NodePort` publishes every service on the one address.
 */
function services(input: ClusterInput): ServicePublishingStrategyMapping[] {
  const publishing = input.servicePublishing;
  if (publishing.type === 'NodePort') {
    return NODE_PORT_SERVICES.map((service) => ({ service, servicePublishingStrategy: { type: 'NodePort', nodePort: { address: publishing.address } } }));
  }
  const route = { type: 'Route' as const };
  return [
    { service: 'APIServer', servicePublishingStrategy: input.externalDnsDomain === '' ? { type: 'LoadBalancer' } : route },
    { service: 'Ignition', servicePublishingStrategy: route },
    { service: 'Konnectivity', servicePublishingStrategy: route },
    { service: 'OAuthServer', servicePublishingStrategy: route },
  ];
}

function kubevirtPlatform(input: ClusterInput): KubevirtPlatformSpec {
  const manual = {
    ...(input.storageClassMappings.length === 0 ? {} : { storageClassMapping: [...input.storageClassMappings] }),
    ...(input.volumeSnapshotClassMappings.length === 0 ? {} : { volumeSnapshotClassMapping: [...input.volumeSnapshotClassMappings] }),
  };
  const credentials = input.infraCredentials;
  return {
    ...(input.baseDomain === '' ? { baseDomainPassthrough: true } : {}),
    ...(credentials === undefined
      ? {}
      : { credentials: { infraKubeConfigSecret: { name: `${input.name}-infra-credentials`, key: 'kubeconfig' }, infraNamespace: credentials.namespace } }),
    ...(Object.keys(manual).length === 0 ? {} : { storageDriver: { type: 'Manual', manual } }),
  };
}

function networking(input: ClusterInput): HostedClusterSpec['networking'] {
  return {
    networkType: input.networkType,
    clusterNetwork: input.clusterCidrs.map((cidr) => ({ cidr })),
    serviceNetwork: input.serviceCidrs.map((cidr) => ({ cidr })),
    ...(input.machineCidrs.length === 0 ? {} : { machineNetwork: input.machineCidrs.map((cidr) => ({ cidr })) }),
    ...(input.allocateNodeCidrs ? { allocateNodeCIDRs: 'Enabled' as const } : {}),
  };
}

function etcd(input: ClusterInput): HostedClusterSpec['etcd'] {
  const persistentVolume = { size: input.etcdStorageSize === '' ? '8Gi' : input.etcdStorageSize, ...(input.etcdStorageClass === '' ? {} : { storageClassName: input.etcdStorageClass }) };
  return { managementType: 'Managed', managed: { storage: { type: 'PersistentVolume', persistentVolume } } };
}

function configuration(input: ClusterInput): Record<string, unknown> {
  return input.olmDisableDefaultSources ? { operatorhub: { disableAllDefaultSources: true } } : {};
}

function operatorConfiguration(input: ClusterInput): Partial<HostedClusterSpec> {
  const cno = {
    ...(input.disableMultiNetwork ? { disableMultiNetwork: true } : {}),
    ...(input.ovnKubernetesMtu > 0 ? { ovnKubernetesConfig: { mtu: input.ovnKubernetesMtu } } : {}),
  };
  return Object.keys(cno).length === 0 ? {} : { operatorConfiguration: { clusterNetworkOperator: cno } };
}

function optional(input: ClusterInput): Partial<HostedClusterSpec> {
  const nonEmpty = (o: Readonly<Record<string, string>>): boolean => Object.keys(o).length > 0;
  return {
    ...(input.infrastructureAvailabilityPolicy === undefined ? {} : { infrastructureAvailabilityPolicy: input.infrastructureAvailabilityPolicy }),
    ...(nonEmpty(input.nodeSelector) ? { nodeSelector: { ...input.nodeSelector } } : {}),
    ...(nonEmpty(input.podsLabels) ? { labels: { ...input.podsLabels } } : {}),
    ...(input.tolerations.length === 0 ? {} : { tolerations: [...input.tolerations] }),
    // Upstream copies only dates here (so `--pausedUntil=true` paused the NodePool but not the cluster); both are copied.
    ...(input.pausedUntil === '' ? {} : { pausedUntil: input.pausedUntil }),
    ...(input.kasDnsName === '' ? {} : { kubeAPIServerDNSName: input.kasDnsName }),
    ...(input.additionalTrustBundle === undefined ? {} : { additionalTrustBundle: { name: UserCABundle.Name } }),
    ...(input.imageContentSources === undefined ? {} : { imageContentSources: [...input.imageContentSources] }),
    ...operatorConfiguration(input),
  };
}

function capabilities(input: ClusterInput): HostedClusterSpec['capabilities'] {
  return {
    ...(input.enabledCapabilities.length === 0 ? {} : { enabled: [...input.enabledCapabilities] }),
    ...(input.disabledCapabilities.length === 0 ? {} : { disabled: [...input.disabledCapabilities] }),
  };
}

/** The HostedCluster of `hcp create cluster kubevirt`, shaped like upstream's (empty structs included). */
export function renderHostedCluster(input: ClusterInput): HostedCluster {
  const nonEmpty = (o: Readonly<Record<string, string>>): boolean => Object.keys(o).length > 0;
  return {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'HostedCluster',
    metadata: {
      name: input.name,
      namespace: input.namespace,
      ...(nonEmpty(input.annotations) ? { annotations: { ...input.annotations } } : {}),
      ...(nonEmpty(input.labels) ? { labels: { ...input.labels } } : {}),
    },
    spec: {
      release: { image: input.releaseImage },
      infraID: input.infraID,
      pullSecret: { name: `${input.name}-pull-secret` },
      sshKey: input.sshKey === undefined ? {} : { name: `${input.name}-ssh-key` },
      dns: { baseDomain: input.baseDomain },
      fips: input.fips,
      controllerAvailabilityPolicy: input.controllerAvailabilityPolicy,
      olmCatalogPlacement: input.olmCatalogPlacement,
      autoscaling: {},
      capabilities: capabilities(input),
      configuration: configuration(input),
      networking: networking(input),
      etcd: etcd(input),
      secretEncryption: { type: 'aescbc', aescbc: { activeKey: { name: `${input.name}-etcd-encryption-key` } } },
      platform: { type: 'KubeVirt', kubevirt: kubevirtPlatform(input) },
      services: services(input),
      ...optional(input),
    },
    status: { controlPlaneEndpoint: { host: '', port: 0 } },
  };
}
