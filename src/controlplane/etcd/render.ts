import type { HostedControlPlane } from '../../api/index.ts';
import type { ReleaseInfo } from '../../release/catalog.ts';
import { CONTAINER_SECURITY, mountPath, secretVolumeMounts, secretVolumes, workloadMetadata, podTemplate, type Requests, type SecretMount } from '../common/pod.ts';
import { MANAGED_BY, podDisruptionBudget, replicasFor, selectorLabels } from '../common/placement.ts';
import { ControlPlaneNames, ETCD_CLIENT_PORT, ETCD_PEER_PORT } from '../names.ts';
import { PkiSecret } from '../pki/plan.ts';

/** etcd's requests: a small hosted cluster's etcd works in well under this (upstream asks 300m/600Mi). */
export const ETCD_REQUESTS: Requests = { cpu: '100m', memory: '256Mi' };
const METRICS_PORT = 2382;
const NAME = ControlPlaneNames.etcd;

const MOUNTS: readonly SecretMount[] = [
  { volume: 'etcd-server-tls', secret: PkiSecret.etcdServer },
  { volume: 'etcd-peer-tls', secret: PkiSecret.etcdPeer },
];

function memberURLs(ns: string, replicas: number, port: number): string {
  return Array.from({ length: replicas }, (_, i) => `${NAME}-${String(i)}=https://${NAME}-${String(i)}.${ControlPlaneNames.etcdDiscoveryService}.${ns}.svc:${String(port)}`).join(',');
}

function etcdArgs(ns: string, replicas: number): string[] {
  const self = `$(POD_NAME).${ControlPlaneNames.etcdDiscoveryService}.${ns}.svc`;
  const server = mountPath('etcd-server-tls');
  const peer = mountPath('etcd-peer-tls');
  return [
    '--name=$(POD_NAME)',
    '--data-dir=/var/lib/data',
    `--listen-client-urls=https://0.0.0.0:${String(ETCD_CLIENT_PORT)}`,
    `--advertise-client-urls=https://${self}:${String(ETCD_CLIENT_PORT)}`,
    `--listen-peer-urls=https://0.0.0.0:${String(ETCD_PEER_PORT)}`,
    `--initial-advertise-peer-urls=https://${self}:${String(ETCD_PEER_PORT)}`,
    `--listen-metrics-urls=http://0.0.0.0:${String(METRICS_PORT)}`,
    `--initial-cluster=${memberURLs(ns, replicas, ETCD_PEER_PORT)}`,
    '--initial-cluster-state=new',
    `--initial-cluster-token=${ns}`,
    `--cert-file=${server}/tls.crt`,
    `--key-file=${server}/tls.key`,
    `--trusted-ca-file=${server}/ca.crt`,
    '--client-cert-auth=true',
    `--peer-cert-file=${peer}/tls.crt`,
    `--peer-key-file=${peer}/tls.key`,
    `--peer-trusted-ca-file=${peer}/ca.crt`,
    '--peer-client-cert-auth=true',
    '--quota-backend-bytes=4294967296',
  ];
}

function etcdContainer(ns: string, replicas: number, image: string): Record<string, unknown> {
  const probe = (path: string, delay: number): unknown => ({ httpGet: { path, port: METRICS_PORT, scheme: 'HTTP' }, initialDelaySeconds: delay, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 3 });
  return {
    name: NAME,
    image,
    command: ['etcd'],
    args: etcdArgs(ns, replicas),
    env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
    ports: [
      { name: 'client', containerPort: ETCD_CLIENT_PORT, protocol: 'TCP' },
      { name: 'peer', containerPort: ETCD_PEER_PORT, protocol: 'TCP' },
      { name: 'metrics', containerPort: METRICS_PORT, protocol: 'TCP' },
    ],
    readinessProbe: probe('/readyz', 5),
    livenessProbe: probe('/livez', 30),
    resources: { requests: ETCD_REQUESTS },
    securityContext: CONTAINER_SECURITY,
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [{ name: 'data', mountPath: '/var/lib' }, { name: 'tmp-dir', mountPath: '/tmp' }, ...secretVolumeMounts(MOUNTS)],
  };
}

function services(hcp: HostedControlPlane): Array<Record<string, unknown>> {
  const ns = hcp.metadata.namespace;
  const labels = { [MANAGED_BY.key]: MANAGED_BY.value };
  const client = { name: 'etcd-client', port: ETCD_CLIENT_PORT, targetPort: 'client', protocol: 'TCP' };
  return [
    { apiVersion: 'v1', kind: 'Service', metadata: { name: ControlPlaneNames.etcdClientService, namespace: ns, labels }, spec: { type: 'ClusterIP', selector: selectorLabels(NAME), ports: [client] } },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: ControlPlaneNames.etcdDiscoveryService, namespace: ns, labels },
      // Headless, and publishing members before they are ready: peers must find each other to become ready at all.
      spec: { clusterIP: 'None', publishNotReadyAddresses: true, selector: selectorLabels(NAME), ports: [{ name: 'peer', port: ETCD_PEER_PORT, targetPort: 'peer', protocol: 'TCP' }, client] },
    },
  ];
}

function volumeClaim(hcp: HostedControlPlane): Record<string, unknown> {
  const pv = hcp.spec.etcd.managed?.storage.persistentVolume;
  const storageClassName = pv?.storageClassName;
  return {
    metadata: { name: 'data' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: pv?.size ?? '8Gi' } }, ...(storageClassName === undefined ? {} : { storageClassName }) },
  };
}

/**
 * etcd as a StatefulSet (1 member for SingleReplica, 3 for HighlyAvailable) with one PersistentVolumeClaim per
 * member from `spec.etcd.managed.storage`, mutual TLS for clients and peers, the client and discovery Services, and
 * its PodDisruptionBudget.
 */
export function renderEtcd(hcp: HostedControlPlane, release: ReleaseInfo, configHash: string): Array<Record<string, unknown>> {
  const ns = hcp.metadata.namespace ?? '';
  const replicas = replicasFor(hcp, 'etcd');
  // A release that keeps etcd's image keeps its members: restarting them would only cost the API requests in flight.
  const template = podTemplate({ hcp, component: NAME, tier: 'etcd', configHash, containers: [etcdContainer(ns, replicas, release.images.etcd)], volumes: secretVolumes(MOUNTS), annotateRelease: false });
  const statefulSet = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: workloadMetadata(hcp, NAME),
    spec: {
      replicas,
      serviceName: ControlPlaneNames.etcdDiscoveryService,
      podManagementPolicy: 'Parallel',
      selector: { matchLabels: selectorLabels(NAME) },
      template,
      volumeClaimTemplates: [volumeClaim(hcp)],
    },
  };
  return [...services(hcp), statefulSet, podDisruptionBudget(hcp, NAME)];
}
