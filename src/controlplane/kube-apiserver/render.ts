import type { HostedControlPlane } from '../../api/index.ts';
import { goRuntimeEnv } from './go-runtime.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { CONTAINER_SECURITY, deployment, goMemoryLimitAtRequest, httpsCheck, probes, type EnvVar, mountPath, secretVolumeMounts, secretVolumes, type Requests, type SecretMount } from '../common/pod.ts';
import { podDisruptionBudget, replicasFor } from '../common/placement.ts';
import { ControlPlaneNames, KUBE_APISERVER_PORT } from '../names.ts';
import { etcdURL, PkiSecret } from '../pki/plan.ts';
import { EGRESS_CONFIG, KONNECTIVITY_SOCKET_DIR, renderEgressSelectorConfig, renderEncryptionConfig } from './config.ts';
import { KUBEADMIN, renderKubeadminTokenFile } from './kubeadmin.ts';
import { renderKubeAPIServerServices, KONNECTIVITY_AGENT_PORT } from './services.ts';

/** kube-apiserver's requests (upstream asks 350m/2000Mi); with the sidecar, its pod's memory as measured (bench/local-up/memory-measured.json). */
export const KUBE_APISERVER_REQUESTS: Requests = { cpu: '150m', memory: '384Mi' };
/** The konnectivity server sidecar's requests. */
export const KONNECTIVITY_SERVER_REQUESTS: Requests = { cpu: '10m', memory: '32Mi' };
const NAME = ControlPlaneNames.kubeAPIServer;

/** The root CA's certificate only: the API server verifies clients with it and never signs anything. */
const ROOT_CA_CERT: SecretMount = { volume: 'root-ca', secret: PkiSecret.rootCA, keys: ['ca.crt'] };
const MOUNTS: readonly SecretMount[] = [
  ROOT_CA_CERT,
  { volume: 'server-crt', secret: PkiSecret.kasServer },
  { volume: 'etcd-client', secret: PkiSecret.etcdClient },
  { volume: 'aggregator-crt', secret: PkiSecret.aggregatorClient },
  { volume: 'sa-key', secret: PkiSecret.serviceAccountKey },
  { volume: 'encryption-config', secret: ControlPlaneNames.encryptionConfig },
  { volume: 'kubelet-client-crt', secret: PkiSecret.kasKubeletClient, keys: ['tls.crt', 'tls.key'] },
];
/** The kubeadmin token file, mounted only while the cluster has a kubeadmin user. */
const KUBEADMIN_MOUNT: SecretMount = { volume: 'kubeadmin-token', secret: ControlPlaneNames.kubeadminTokenFile };
const KONNECTIVITY_MOUNTS: readonly SecretMount[] = [
  { volume: 'konnectivity-crt', secret: PkiSecret.konnectivityServer },
  ROOT_CA_CERT,
];

/** The Secrets of the API server that are not certificates; both are secret material. */
export interface KubeAPIServerSecrets {
  /** The AES-CBC key (base64) that encrypts Secrets at rest. */
  readonly encryptionKey: string;
  /** The kubeadmin password, accepted as a bearer token; absent once an identity provider replaces kubeadmin. */
  readonly kubeadminPassword?: string | undefined;
}

const mountsFor = (secrets: KubeAPIServerSecrets): readonly SecretMount[] => (secrets.kubeadminPassword === undefined ? MOUNTS : [...MOUNTS, KUBEADMIN_MOUNT]);

function apiServerArgs(hcp: HostedControlPlane, secrets: KubeAPIServerSecrets): string[] {
  const ns = hcp.metadata.namespace ?? '';
  const at = (volume: string, file: string): string => `${mountPath(volume)}/${file}`;
  return [
    `--secure-port=${String(KUBE_APISERVER_PORT)}`,
    '--bind-address=0.0.0.0',
    `--etcd-servers=${etcdURL(ns)}`,
    `--etcd-cafile=${at('etcd-client', 'ca.crt')}`,
    `--etcd-certfile=${at('etcd-client', 'tls.crt')}`,
    `--etcd-keyfile=${at('etcd-client', 'tls.key')}`,
    `--tls-cert-file=${at('server-crt', 'tls.crt')}`,
    `--tls-private-key-file=${at('server-crt', 'tls.key')}`,
    `--client-ca-file=${at('root-ca', 'ca.crt')}`,
    `--service-account-issuer=${hcp.spec.issuerURL}`,
    ...jwksURI(hcp.spec.issuerURL),
    `--service-account-key-file=${at('sa-key', 'service-account.pub')}`,
    `--service-account-signing-key-file=${at('sa-key', 'service-account.key')}`,
    `--service-cluster-ip-range=${hcp.spec.networking?.serviceNetwork?.[0]?.cidr ?? '172.31.0.0/16'}`,
    '--authorization-mode=Node,RBAC',
    // Kubelets join with bootstrap tokens and may touch only their own Node and its pods.
    '--enable-bootstrap-token-auth=true',
    '--enable-admission-plugins=NodeRestriction',
    `--kubelet-client-certificate=${at('kubelet-client-crt', 'tls.crt')}`,
    `--kubelet-client-key=${at('kubelet-client-crt', 'tls.key')}`,
    // Kubelets serve with certificates the cluster signed (serverTLSBootstrap), so the API server verifies them.
    `--kubelet-certificate-authority=${at('root-ca', 'ca.crt')}`,
    '--allow-privileged=true',
    '--endpoint-reconciler-type=none',
    '--kubelet-preferred-address-types=InternalIP',
    `--encryption-provider-config=${at('encryption-config', 'config.yaml')}`,
    `--egress-selector-config-file=${mountPath(EGRESS_CONFIG)}/config.yaml`,
    `--requestheader-client-ca-file=${at('aggregator-crt', 'ca.crt')}`,
    `--proxy-client-cert-file=${at('aggregator-crt', 'tls.crt')}`,
    `--proxy-client-key-file=${at('aggregator-crt', 'tls.key')}`,
    '--requestheader-allowed-names=system:openshift-aggregator',
    '--requestheader-username-headers=X-Remote-User',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    ...(secrets.kubeadminPassword === undefined ? [] : [`--token-auth-file=${at(KUBEADMIN_MOUNT.volume, KUBEADMIN.tokenFileKey)}`]),
    // Told to stop (a rollout, an eviction), it turns unready at once but keeps serving for a while: long enough for
    // the endpoint to leave every load balancer and kube-proxy, so no new request reaches a server that has closed.
    `--shutdown-delay-duration=${String(SHUTDOWN_DELAY_SECONDS)}s`,
    // Then open watches are told to end, and the server exits once they have (or this long after). Without it the
    // server waits for every watch until the request timeout, a minute, longer than its grace period: each stop of
    // an API server that anyone watched ended in a kill, and destroying a cluster waited for it.
    `--shutdown-watch-termination-grace-period=${String(WATCH_TERMINATION_SECONDS)}s`,
    // Requests that still arrive while it drains are told to retry (429 with Retry-After), as upstream does.
    '--shutdown-send-retry-after=true',
  ];
}

/**
 * How long a stopping API server keeps serving (its pods' grace period leaves it time to drain after that). Upstream
 * OpenShift waits 70 s for cloud load balancers; the management cluster's own Service routing follows in seconds.
 */
export const SHUTDOWN_DELAY_SECONDS = 10;
/** How long a stopping API server's watches have to end after the shutdown delay. */
const WATCH_TERMINATION_SECONDS = 5;
/** The API server pods' grace period: the shutdown delay, the watches' end, and some seconds to exit. */
const KUBE_APISERVER_GRACE_SECONDS = SHUTDOWN_DELAY_SECONDS + WATCH_TERMINATION_SECONDS + 10;

const socketMount = { name: 'konnectivity-uds', mountPath: KONNECTIVITY_SOCKET_DIR };

/** The container's Go runtime settings: the annotations', else GOMEMLIMIT at the memory request. */
function goRuntime(hcp: HostedControlPlane): { env: EnvVar[] } {
  const annotated = goRuntimeEnv(hcp.metadata.annotations);
  return { env: annotated.some((e) => e.name === 'GOMEMLIMIT') ? annotated : [...annotated, goMemoryLimitAtRequest(NAME)] };
}

function apiServerContainer(hcp: HostedControlPlane, image: string, secrets: KubeAPIServerSecrets): Record<string, unknown> {
  return {
    name: NAME,
    image,
    command: ['kube-apiserver'],
    args: apiServerArgs(hcp, secrets),
    ...goRuntime(hcp),
    ports: [{ name: 'client', containerPort: KUBE_APISERVER_PORT, protocol: 'TCP' }],
    // Five minutes to be ready: it waits for etcd, whose members may take that long to form a quorum.
    ...probes({ ready: httpsCheck('/readyz', KUBE_APISERVER_PORT), live: httpsCheck('/livez', KUBE_APISERVER_PORT), startupLimit: 300 }),
    resources: { requests: KUBE_APISERVER_REQUESTS },
    securityContext: CONTAINER_SECURITY,
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [{ name: 'tmp-dir', mountPath: '/tmp' }, socketMount, { name: EGRESS_CONFIG, mountPath: mountPath(EGRESS_CONFIG), readOnly: true }, ...secretVolumeMounts(mountsFor(secrets))],
  };
}

/**
 * The konnectivity server. It tells agents how many servers there are (one per API server replica), so each agent
 * keeps a tunnel to every replica; with upstream's default of one, an agent behind a load-balanced address stays on
 * whichever replica it reached first, and the other replicas answer "No agent available".
 */
function konnectivityContainer(image: string, serverCount: number): Record<string, unknown> {
  const crt = mountPath('konnectivity-crt');
  return {
    name: 'konnectivity-server',
    image,
    command: ['/proxy-server'],
    args: [
      `--uds-name=${KONNECTIVITY_SOCKET_DIR}/konnectivity-server.socket`,
      '--mode=grpc',
      '--server-port=0',
      `--agent-port=${String(KONNECTIVITY_AGENT_PORT)}`,
      '--health-port=2041',
      `--server-count=${String(serverCount)}`,
      // A node's own address reaches its own agent; anything else goes to an agent marked default-route.
      '--proxy-strategies=destHost,defaultRoute',
      `--cluster-cert=${crt}/tls.crt`,
      `--cluster-key=${crt}/tls.key`,
      `--cluster-ca-cert=${mountPath('root-ca')}/ca.crt`,
      '--keepalive-time=30s',
      '--frontend-keepalive-time=30s',
    ],
    ports: [{ name: 'agent', containerPort: KONNECTIVITY_AGENT_PORT, protocol: 'TCP' }],
    livenessProbe: { httpGet: { path: '/healthz', port: 2041, scheme: 'HTTP' }, initialDelaySeconds: 30, periodSeconds: 10 },
    resources: { requests: KONNECTIVITY_SERVER_REQUESTS },
    securityContext: CONTAINER_SECURITY,
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [{ name: 'tmp-dir', mountPath: '/tmp' }, socketMount, ...secretVolumeMounts(KONNECTIVITY_MOUNTS)],
  };
}

/** The issuer the API server itself serves, at the `kubernetes` Service (the default). */
const IN_CLUSTER_ISSUER = 'https://kubernetes.default.svc';

/**
 * Where the discovery document says the issuer's keys are. By default kube-apiserver names its own advertised address —
 * here a pod address of the management cluster, which the hosted cluster's pods cannot reach and its certificate does
 * not cover (found by the conformance suite's ServiceAccountIssuerDiscovery spec). For the in-cluster issuer, the keys
 * are at the same Service; an external issuer publishes its own discovery document.
 */
const jwksURI = (issuer: string): string[] => (issuer === IN_CLUSTER_ISSUER ? [`--service-account-jwks-uri=${IN_CLUSTER_ISSUER}/openid/v1/jwks`] : []);

/**
 * kube-apiserver with secret encryption (AES-CBC from the cluster's key), the service-account issuer and keys, the
 * aggregator front proxy, the kubeadmin token while the cluster has one, and the konnectivity server as a sidecar
 * reached over a shared socket; plus its Services per publishing strategy and its disruption budget.
 */
export function renderKubeAPIServer(hcp: HostedControlPlane, release: ReleaseInfo, configHash: string, secrets: KubeAPIServerSecrets): Array<Record<string, unknown>> {
  const volumes = [
    { name: 'konnectivity-uds', emptyDir: {} },
    { name: EGRESS_CONFIG, configMap: { name: EGRESS_CONFIG } },
    ...secretVolumes([...mountsFor(secrets), KONNECTIVITY_MOUNTS[0] as SecretMount]),
  ];
  const replicas = replicasFor(hcp, 'api-critical');
  const containers = [apiServerContainer(hcp, release.images.kubeAPIServer, secrets), konnectivityContainer(release.images.konnectivityServer, replicas)];
  const workload = deployment({ hcp, component: NAME, tier: 'api-critical', configHash, containers, volumes, terminationGracePeriodSeconds: KUBE_APISERVER_GRACE_SECONDS }, replicas);
  const tokenFile = secrets.kubeadminPassword === undefined ? [] : [renderKubeadminTokenFile(hcp, secrets.kubeadminPassword)];
  return [renderEncryptionConfig(hcp, secrets.encryptionKey), ...tokenFile, renderEgressSelectorConfig(hcp), ...renderKubeAPIServerServices(hcp), workload, podDisruptionBudget(hcp, NAME)];
}
