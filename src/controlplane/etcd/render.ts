import type { HostedControlPlane } from '../../api/index.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { CONTAINER_SECURITY, goMemoryLimitAtRequest, mountPath, probes, secretVolumeMounts, secretVolumes, workloadMetadata, podTemplate, type Requests, type SecretMount } from '../common/pod.ts';
import { MANAGED_BY, podDisruptionBudget, replicasFor, selectorLabels } from '../common/placement.ts';
import { ControlPlaneNames, ETCD_CLIENT_PORT, ETCD_PEER_PORT } from '../names.ts';
import { etcdURL, PkiSecret } from '../pki/plan.ts';
import { MEMBER_START_SCRIPT, MemberStartEnv, type EtcdClusterState } from './member-start.ts';
import { restoreInitContainers, restoreVolumes } from './restore.ts';
import { OurAnnotation } from '../../api/v1beta1/well-known.ts';

/**
 * etcd's requests (upstream asks 300m/600Mi): a small hosted cluster's etcd, as measured (bench/local-up/memory-
 * measured.json).
 */
export const ETCD_REQUESTS: Requests = { cpu: '100m', memory: '128Mi' };
/** etcd's metrics over TLS, client certificate required (scraped through the `etcd-client` Service). */
const METRICS_PORT = 2382;
/** /livez and /readyz in plain HTTP on the loopback only, for the probes, which cannot present a client certificate. */
const PROBE_PORT = 2381;
const NAME = ControlPlaneNames.etcd;
const DATA_DIR = '/var/lib/data';

/**
 * Where the etcd container keeps the client certificate, at the paths the manual's procedures name
 * (`etcdctl --cacert /etc/etcd/tls/etcd-ca/ca.crt --cert /etc/etcd/tls/client/etcd-client.crt …`).
 */
export const EtcdClientFiles = {
  ca: '/etc/etcd/tls/etcd-ca/ca.crt',
  cert: '/etc/etcd/tls/client/etcd-client.crt',
  key: '/etc/etcd/tls/client/etcd-client.key',
} as const;

/**
 * The client certificate's Secret under the manual's file names: its CA in a folder of its own, as upstream mounts it.
 */
const CLIENT_VOLUMES: unknown[] = [
  { name: 'etcd-client-tls', secret: { secretName: PkiSecret.etcdClient, defaultMode: 0o640, items: [{ key: 'tls.crt', path: 'etcd-client.crt' }, { key: 'tls.key', path: 'etcd-client.key' }, { key: 'ca.crt', path: 'etcd-client-ca.crt' }] } },
  { name: 'etcd-ca', secret: { secretName: PkiSecret.etcdClient, defaultMode: 0o640, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
];
const CLIENT_MOUNTS: unknown[] = [
  { name: 'etcd-client-tls', mountPath: '/etc/etcd/tls/client', readOnly: true },
  { name: 'etcd-ca', mountPath: '/etc/etcd/tls/etcd-ca', readOnly: true },
];

/**
 * The ConfigMap holding the cluster's {@link EtcdClusterState}, mounted into every member (updates reach running pods).
 */
export const ETCD_CLUSTER_STATE_CONFIGMAP = 'etcd-cluster-state';
const CLUSTER_STATE_DIR = '/etc/etcd/clusterstate';

/**
 * Whether etcd's cluster exists, for good: the StatefulSet says so already, a quorum of members is ready, or the
 * control plane has run (its status names a version). The first makes it sticky: a member lost later does not make
 * the cluster new again.
 */
export function etcdBootstrapped(hcp: HostedControlPlane, statefulSet: EtcdStatefulSetView | undefined): boolean {
  return hcp.status?.version !== undefined || statefulSet?.metadata?.annotations?.[OurAnnotation.EtcdBootstrapped] === 'true' || quorumReady(statefulSet);
}

const quorumReady = (statefulSet: EtcdStatefulSetView | undefined): boolean => {
  const replicas = statefulSet?.spec?.replicas ?? 0;
  return replicas > 0 && (statefulSet?.status?.readyReplicas ?? 0) >= Math.floor(replicas / 2) + 1;
};

/** What {@link etcdBootstrapped} reads of the etcd StatefulSet as it runs. */
export interface EtcdStatefulSetView {
  readonly metadata?: { readonly annotations?: Readonly<Record<string, string>> };
  readonly spec?: { readonly replicas?: number };
  readonly status?: { readonly readyReplicas?: number };
}

function clusterStateConfigMap(hcp: HostedControlPlane, bootstrapped: boolean): Record<string, unknown> {
  const metadata = { name: ETCD_CLUSTER_STATE_CONFIGMAP, namespace: hcp.metadata.namespace, labels: { [MANAGED_BY.key]: MANAGED_BY.value } };
  const state: EtcdClusterState = bootstrapped ? 'existing' : 'new';
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { state } };
}

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
    `--data-dir=${DATA_DIR}`,
    `--listen-client-urls=https://0.0.0.0:${String(ETCD_CLIENT_PORT)}`,
    `--advertise-client-urls=https://${self}:${String(ETCD_CLIENT_PORT)}`,
    `--listen-peer-urls=https://0.0.0.0:${String(ETCD_PEER_PORT)}`,
    `--initial-advertise-peer-urls=https://${self}:${String(ETCD_PEER_PORT)}`,
    `--listen-metrics-urls=https://0.0.0.0:${String(METRICS_PORT)},http://127.0.0.1:${String(PROBE_PORT)}`,
    `--initial-cluster=${memberURLs(ns, replicas, ETCD_PEER_PORT)}`,
    // The member start script adds --initial-cluster-state. The token is upstream's, which the manual's restore uses.
    '--initial-cluster-token=etcd-cluster',
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

/** What the member start script reads (see member-start.ts). */
function memberStartEnv(ns: string): unknown[] {
  const tls = `--cacert=${EtcdClientFiles.ca} --cert=${EtcdClientFiles.cert} --key=${EtcdClientFiles.key}`;
  return [
    { name: MemberStartEnv.name, valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
    { name: MemberStartEnv.peerURL, value: `https://$(POD_NAME).${ControlPlaneNames.etcdDiscoveryService}.${ns}.svc:${String(ETCD_PEER_PORT)}` },
    { name: MemberStartEnv.clusterURL, value: etcdURL(ns) },
    { name: MemberStartEnv.dataDir, value: DATA_DIR },
    { name: MemberStartEnv.clientTLS, value: tls },
    { name: MemberStartEnv.clusterStateFile, value: `${CLUSTER_STATE_DIR}/state` },
  ];
}

const DATA_MOUNT = { name: 'data', mountPath: '/var/lib' };
const CLUSTER_STATE_MOUNT = { name: 'cluster-state', mountPath: CLUSTER_STATE_DIR, readOnly: true };

/**
 * A probe of the loopback health port from inside the container (a kubelet's HTTP probe comes from outside the pod).
 * BusyBox's wget in this product's image; curl in images that have it instead.
 */
function probeCommand(path: string): { command: string[] } {
  const url = `http://127.0.0.1:${String(PROBE_PORT)}${path}`;
  // The tool that is there answers, so a failed probe says why etcd did not answer (not that the other tool is
  // missing).
  return { command: ['/bin/sh', '-c', `if command -v wget >/dev/null; then wget -q -O /dev/null ${url}; else curl -fsS -o /dev/null ${url}; fi`] };
}

function etcdContainer(ns: string, replicas: number, image: string): Record<string, unknown> {
  return {
    name: NAME,
    image,
    command: ['/bin/sh', '-c', MEMBER_START_SCRIPT, 'etcd'],
    args: etcdArgs(ns, replicas),
    env: [...memberStartEnv(ns), goMemoryLimitAtRequest(NAME)],
    ports: [
      { name: 'client', containerPort: ETCD_CLIENT_PORT, protocol: 'TCP' },
      { name: 'peer', containerPort: ETCD_PEER_PORT, protocol: 'TCP' },
      { name: 'metrics', containerPort: METRICS_PORT, protocol: 'TCP' },
    ],
    // Started means ready (in quorum), so the member is Ready within a second of it, not at a 10 s readiness tick.
    // The start script may wait a minute for the running members (a member with no data joining them); liveness
    // would kill it before it says why. etcd is given five minutes to start, then liveness takes over; a member
    // restarted while the others are gone for longer starts again, its data kept.
    ...probes({ ready: { exec: probeCommand('/readyz') }, live: { exec: probeCommand('/livez') }, startupLimit: 300 }),
    resources: { requests: ETCD_REQUESTS },
    securityContext: CONTAINER_SECURITY,
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [DATA_MOUNT, { name: 'tmp-dir', mountPath: '/tmp' }, ...secretVolumeMounts(MOUNTS), ...CLIENT_MOUNTS, CLUSTER_STATE_MOUNT],
  };
}

function withInitContainers(template: Record<string, unknown>, initContainers: Array<Record<string, unknown>>): Record<string, unknown> {
  const spec = template['spec'] as Record<string, unknown>;
  return { ...template, spec: { ...spec, initContainers: [...((spec['initContainers'] as unknown[] | undefined) ?? []), ...initContainers] } };
}

function services(hcp: HostedControlPlane): Array<Record<string, unknown>> {
  const ns = hcp.metadata.namespace;
  const labels = { [MANAGED_BY.key]: MANAGED_BY.value };
  const client = { name: 'etcd-client', port: ETCD_CLIENT_PORT, targetPort: 'client', protocol: 'TCP' };
  const metrics = { name: 'metrics', port: METRICS_PORT, targetPort: 'metrics', protocol: 'TCP' };
  return [
    // Labelled `app: etcd` for the ServiceMonitor, which scrapes each member through it.
    { apiVersion: 'v1', kind: 'Service', metadata: { name: ControlPlaneNames.etcdClientService, namespace: ns, labels: { ...labels, app: NAME } }, spec: { type: 'ClusterIP', selector: selectorLabels(NAME), ports: [client, metrics] } },
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

/** What etcd's rendering needs besides the control plane and its release. */
export interface EtcdRenderOptions {
  /** Whether the cluster has had quorum (see {@link etcdBootstrapped}). */
  readonly bootstrapped?: boolean;
  /** The operator's image, which fetches a snapshot to restore; required when `restoreSnapshotURL` is set. */
  readonly operatorImage?: string | undefined;
}

/** The snapshot the cluster is restored from at creation, if any. */
export const restoreSnapshotURL = (hcp: HostedControlPlane): string | undefined => hcp.spec.etcd.managed?.storage.restoreSnapshotURL?.[0];

/** The restore's init containers and volumes when the control plane is restored from a snapshot. */
function restoreParts(hcp: HostedControlPlane, release: ReleaseInfo, operatorImage: string | undefined): { initContainers: Array<Record<string, unknown>>; volumes: unknown[] } {
  const url = restoreSnapshotURL(hcp);
  if (url === undefined) return { initContainers: [], volumes: [] };
  // The operator refuses such a control plane before rendering (components.ts); reaching here is a bug.
  if (operatorImage === undefined) throw new Error('restoring etcd from restoreSnapshotURL needs the operator image');
  const ns = hcp.metadata.namespace ?? '';
  const memberEnv = memberStartEnv(ns);
  const initialCluster = memberURLs(ns, replicasFor(hcp, 'etcd'), ETCD_PEER_PORT);
  const clusterStateFile = `${CLUSTER_STATE_DIR}/state`;
  const initContainers = restoreInitContainers({ url, operatorImage, etcdImage: release.images.etcd, memberEnv, initialCluster, dataMount: DATA_MOUNT, clusterStateMount: CLUSTER_STATE_MOUNT, clusterStateFile, securityContext: CONTAINER_SECURITY });
  return { initContainers, volumes: restoreVolumes(ControlPlaneNames.encryptionConfig) };
}

/**
 * etcd as a StatefulSet (1 member for SingleReplica, 3 for HighlyAvailable) with one PersistentVolumeClaim per
 * member from `spec.etcd.managed.storage`, mutual TLS for clients and peers, the client and discovery Services, and
 * its PodDisruptionBudget; restored from `restoreSnapshotURL` on first start when it is set (restore.ts).
 */
export function renderEtcd(hcp: HostedControlPlane, release: ReleaseInfo, configHash: string, options: EtcdRenderOptions = {}): Array<Record<string, unknown>> {
  const bootstrapped = options.bootstrapped === true;
  const ns = hcp.metadata.namespace ?? '';
  const replicas = replicasFor(hcp, 'etcd');
  const restore = restoreParts(hcp, release, options.operatorImage);
  // A release that keeps etcd's image keeps its members: restarting them would only cost the API requests in flight.
  const volumes = [...secretVolumes(MOUNTS), ...CLIENT_VOLUMES, { name: 'cluster-state', configMap: { name: ETCD_CLUSTER_STATE_CONFIGMAP } }, ...restore.volumes];
  const base = podTemplate({ hcp, component: NAME, tier: 'etcd', configHash, containers: [etcdContainer(ns, replicas, release.images.etcd)], volumes, annotateRelease: false });
  const template = restore.initContainers.length === 0 ? base : withInitContainers(base, restore.initContainers);
  const metadata = workloadMetadata(hcp, NAME);
  const statefulSet = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: bootstrapped ? { ...metadata, annotations: { ...(metadata['annotations'] as Record<string, string> | undefined), [OurAnnotation.EtcdBootstrapped]: 'true' } } : metadata,
    spec: {
      replicas,
      serviceName: ControlPlaneNames.etcdDiscoveryService,
      podManagementPolicy: 'Parallel',
      selector: { matchLabels: selectorLabels(NAME) },
      template,
      volumeClaimTemplates: [volumeClaim(hcp)],
    },
  };
  return [...services(hcp), clusterStateConfigMap(hcp, bootstrapped), statefulSet, podDisruptionBudget(hcp, NAME)];
}
