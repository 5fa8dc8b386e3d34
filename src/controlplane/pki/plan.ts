import type { HostedControlPlane } from '../../api/index.ts';
import { appsDomainOf } from '../../api/v1beta1/dns.ts';
import type { CertificateUsage } from '../../pki/certificate.ts';
import { KubevirtCSI, serviceAccountUser } from '../../platform/kubevirt/csi-names.ts';
import { csiDriverEnabled } from '../kubevirt-csi-controller/render.ts';
import { ipFamilyOf } from '../../lib/host-port.ts';
import { ETCD_CLIENT_PORT } from '../names.ts';

/** One certificate of the control plane's PKI, stored as a Secret. */
export interface CertificateSpec {
  /** The Secret's name. */
  readonly secret: string;
  readonly commonName: string;
  readonly organizations?: readonly string[];
  readonly usage: CertificateUsage;
  /** The Secret of the CA that signs it; absent for self-signed roots. */
  readonly issuer?: string;
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly validityDays: number;
}

/** CAs live ten years, leaf certificates one; leaves renew in their last 30 days (see `needsRenewal`). */
const CA_DAYS = 3650;
const LEAF_DAYS = 365;

/** The CAs and certificates of one control plane, roots first so each issuer exists before what it signs. */
export const PkiSecret = {
  rootCA: 'root-ca',
  etcdSigner: 'etcd-signer',
  etcdServer: 'etcd-server-tls',
  etcdPeer: 'etcd-peer-tls',
  etcdClient: 'etcd-client-tls',
  kasServer: 'kas-server-crt',
  aggregatorSigner: 'aggregator-client-signer',
  aggregatorClient: 'kas-aggregator-crt',
  adminClient: 'system-admin-client',
  kcmClient: 'kube-controller-manager-client',
  schedulerClient: 'kube-scheduler-client',
  konnectivityServer: 'konnectivity-server',
  /** The konnectivity agents' client certificate (upstream's name), copied into the hosted cluster for its DaemonSet. */
  konnectivityAgent: 'konnectivity-agent',
  /** kube-apiserver's client certificate towards kubelets (logs, exec, port-forward). */
  kasKubeletClient: 'kas-kubelet-client-crt',
  /** The ignition endpoint's own CA (upstream's name: machines trust only it) and its serving certificate. */
  ignitionCA: 'ignition-server-ca-cert',
  ignitionServer: 'ignition-server',
  /** The KubeVirt CSI controller's client certificate as the hosted cluster's `kubevirt-csi-controller-sa`. */
  csiControllerClient: 'kubevirt-csi-controller-client',
  /** The default certificate of the hosted cluster's ingress (upstream's name), for `*.apps.<name>.<base domain>`. */
  ingressServer: 'ingress-crt',
  /** Serving certificates of the controller manager and the scheduler, which a metrics scraper verifies. */
  kcmServer: 'kcm-server',
  schedulerServer: 'kube-scheduler-server',
  /**
   * The metrics scraper's client certificates (upstream's names): towards the API server, controller manager and
   * scheduler (group `system:monitoring`, which Kubernetes' bootstrap RBAC lets read /metrics), and towards etcd.
   */
  metricsClient: 'metrics-client',
  etcdMetricsClient: 'etcd-metrics-client-tls',
  /** Not a certificate: the service-account token signing key pair. */
  serviceAccountKey: 'sa-signing-key',
} as const;

/**
 * The `offset`-th address of the service network (offsets below 256): the first is the `kubernetes` Service's cluster
 * IP inside the hosted cluster, the tenth its DNS Service's (kubeadm's and upstream's choice).
 */
export function serviceAddress(cidr: string, offset: number): string {
  const [base = '172.31.0.0'] = cidr.split('/');
  if (base.includes(':')) return `${base.replace(/::?$/, '')}::${offset.toString(16)}`;
  const octets = base.split('.').map(Number);
  octets[3] = (octets[3] ?? 0) + offset;
  return octets.join('.');
}

const nonEmpty = (value: string | undefined): value is string => value !== undefined && value !== '';

/** The hosted cluster's service network (upstream's default when unset). */
export const serviceCIDROf = (hcp: HostedControlPlane): string => hcp.spec.networking?.serviceNetwork?.[0]?.cidr ?? '172.31.0.0/16';

/** Where the API is reachable from outside, when the publishing strategy names a host. */
export function publishedHost(hcp: HostedControlPlane): string | undefined {
  const strategy = hcp.spec.services.find((s) => s.service === 'APIServer')?.servicePublishingStrategy;
  const candidates = strategy === undefined ? [] : [strategy.loadBalancer?.hostname, strategy.route?.hostname, strategy.nodePort?.address];
  return [...candidates, hcp.status?.controlPlaneEndpoint?.host].find(nonEmpty);
}

const isIP = (host: string): boolean => ipFamilyOf(host) !== 0;

function kasNames(hcp: HostedControlPlane): { dnsNames: string[]; ipAddresses: string[] } {
  const ns = hcp.metadata.namespace ?? '';
  const dnsNames = ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local', 'kube-apiserver', `kube-apiserver.${ns}.svc`, `kube-apiserver.${ns}.svc.cluster.local`];
  const ipAddresses = ['127.0.0.1', serviceAddress(serviceCIDROf(hcp), 1)];
  const host = publishedHost(hcp);
  if (nonEmpty(host)) (isIP(host) ? ipAddresses : dnsNames).push(host);
  if (nonEmpty(hcp.spec.kubeAPIServerDNSName)) dnsNames.push(hcp.spec.kubeAPIServerDNSName);
  return { dnsNames, ipAddresses };
}

/** The hosts a publishing strategy names for one service (its Route host, NodePort address or LoadBalancer host). */
function strategyHosts(hcp: HostedControlPlane, service: 'Ignition' | 'Konnectivity'): string[] {
  const strategy = hcp.spec.services.find((s) => s.service === service)?.servicePublishingStrategy;
  return strategy === undefined ? [] : [strategy.route?.hostname, strategy.nodePort?.address, strategy.loadBalancer?.hostname].filter(nonEmpty);
}

/**
 * A published endpoint's names: its Service inside the management cluster, and the hosts its strategy names (as IP
 * addresses or DNS names). Machines dial the published host, so the certificate must carry it.
 */
function publishedNames(hcp: HostedControlPlane, service: 'Ignition' | 'Konnectivity', serviceName: string): { dnsNames: string[]; ipAddresses: string[] } {
  const ns = hcp.metadata.namespace ?? '';
  const dnsNames = [serviceName, `${serviceName}.${ns}.svc`, `${serviceName}.${ns}.svc.cluster.local`];
  const ipAddresses: string[] = [];
  for (const host of strategyHosts(hcp, service)) (isIP(host) ? ipAddresses : dnsNames).push(host);
  return { dnsNames, ipAddresses };
}

function etcdNames(ns: string): string[] {
  const discovery = `etcd-discovery.${ns}.svc`;
  return ['localhost', 'etcd-client', `etcd-client.${ns}.svc`, `etcd-client.${ns}.svc.cluster.local`, `*.${discovery}`, `*.${discovery}.cluster.local`];
}

/**
 * The certificate plan of a control plane: the root CA signs the API server's serving certificate and the client
 * certificates of the admin and the components; etcd has its own signer (server, peer, client); the aggregator
 * (front proxy) has its own signer. Changing the published endpoint changes the API server certificate's names,
 * which renews it.
 */
export function certificatePlan(hcp: HostedControlPlane): CertificateSpec[] {
  const ns = hcp.metadata.namespace ?? '';
  const etcd = etcdNames(ns);
  return [
    { secret: PkiSecret.rootCA, commonName: 'root-ca', organizations: ['openshift'], usage: 'ca', validityDays: CA_DAYS },
    { secret: PkiSecret.etcdSigner, commonName: 'etcd-signer', organizations: ['openshift'], usage: 'ca', validityDays: CA_DAYS },
    { secret: PkiSecret.aggregatorSigner, commonName: 'aggregator-client-signer', organizations: ['openshift'], usage: 'ca', validityDays: CA_DAYS },
    { secret: PkiSecret.ignitionCA, commonName: 'ignition-root-ca', organizations: ['openshift'], usage: 'ca', validityDays: CA_DAYS },
    { secret: PkiSecret.etcdServer, issuer: PkiSecret.etcdSigner, commonName: 'etcd-server', organizations: ['kubernetes'], usage: 'server-client', dnsNames: etcd, ipAddresses: ['127.0.0.1'], validityDays: LEAF_DAYS },
    { secret: PkiSecret.etcdPeer, issuer: PkiSecret.etcdSigner, commonName: 'etcd-peer', organizations: ['kubernetes'], usage: 'server-client', dnsNames: etcd, ipAddresses: ['127.0.0.1'], validityDays: LEAF_DAYS },
    { secret: PkiSecret.etcdClient, issuer: PkiSecret.etcdSigner, commonName: 'etcd-client', organizations: ['kubernetes'], usage: 'client', validityDays: LEAF_DAYS },
    { secret: PkiSecret.kasServer, issuer: PkiSecret.rootCA, commonName: 'kubernetes', organizations: ['kubernetes'], usage: 'server', ...kasNames(hcp), validityDays: LEAF_DAYS },
    { secret: PkiSecret.aggregatorClient, issuer: PkiSecret.aggregatorSigner, commonName: 'system:openshift-aggregator', organizations: ['kubernetes'], usage: 'client', validityDays: LEAF_DAYS },
    { secret: PkiSecret.adminClient, issuer: PkiSecret.rootCA, commonName: 'system:admin', organizations: ['system:masters'], usage: 'client', validityDays: LEAF_DAYS },
    { secret: PkiSecret.kcmClient, issuer: PkiSecret.rootCA, commonName: 'system:kube-controller-manager', usage: 'client', validityDays: LEAF_DAYS },
    { secret: PkiSecret.konnectivityServer, issuer: PkiSecret.rootCA, commonName: 'konnectivity-server', usage: 'server', ...publishedNames(hcp, 'Konnectivity', 'konnectivity-server'), validityDays: LEAF_DAYS },
    { secret: PkiSecret.konnectivityAgent, issuer: PkiSecret.rootCA, commonName: 'konnectivity-agent', usage: 'client', validityDays: LEAF_DAYS },
    { secret: PkiSecret.schedulerClient, issuer: PkiSecret.rootCA, commonName: 'system:kube-scheduler', usage: 'client', validityDays: LEAF_DAYS },
    // Kubelets authorise it by webhook; system:masters spares a binding inside the hosted cluster (kubeadm's own
    // apiserver-kubelet-client certificate carried the same group for years). Only the API server mounts its key.
    { secret: PkiSecret.kasKubeletClient, issuer: PkiSecret.rootCA, commonName: 'system:kube-apiserver', organizations: ['system:masters'], usage: 'client', validityDays: LEAF_DAYS },
    ...metricsCertificates(ns),
    { secret: PkiSecret.ignitionServer, issuer: PkiSecret.ignitionCA, commonName: 'ignition-server', usage: 'server', ...publishedNames(hcp, 'Ignition', 'ignition-server'), validityDays: LEAF_DAYS },
    ...(csiDriverEnabled(hcp) ? [csiControllerClient()] : []),
    ...ingressCertificate(hcp),
  ];
}

/** The user the metrics scraper's `metrics-client` certificate names (the hosted cluster's RBAC binds it). */
export const METRICS_CLIENT_USER = 'system:hosted-control-plane-metrics';

/** A component's names inside the management cluster, for its serving certificate. */
const serviceNames = (service: string, ns: string): string[] => [service, `${service}.${ns}.svc`, `${service}.${ns}.svc.cluster.local`];

/**
 * What metrics scraping needs: serving certificates the scraper can verify where components would otherwise make
 * their own, and the scraper's client certificates. The etcd one is issued by etcd's signer, the only CA etcd trusts
 * on its metrics port; it is therefore also a valid etcd client, which is why only monitors reference it.
 */
function metricsCertificates(ns: string): CertificateSpec[] {
  return [
    { secret: PkiSecret.kcmServer, issuer: PkiSecret.rootCA, commonName: 'kube-controller-manager', usage: 'server', dnsNames: serviceNames('kube-controller-manager', ns), validityDays: LEAF_DAYS },
    { secret: PkiSecret.schedulerServer, issuer: PkiSecret.rootCA, commonName: 'kube-scheduler', usage: 'server', dnsNames: serviceNames('kube-scheduler', ns), validityDays: LEAF_DAYS },
    { secret: PkiSecret.metricsClient, issuer: PkiSecret.rootCA, commonName: METRICS_CLIENT_USER, organizations: ['system:monitoring'], usage: 'client', validityDays: LEAF_DAYS },
    { secret: PkiSecret.etcdMetricsClient, issuer: PkiSecret.etcdSigner, commonName: 'etcd-metrics-client', organizations: ['kubernetes'], usage: 'client', validityDays: LEAF_DAYS },
  ];
}

/**
 * The ingress's default certificate, for every name of the apps domain, signed by the root CA the cluster's
 * kubeconfig already trusts (so `curl --cacert` of that CA reaches an application). None while the domain is unknown.
 */
function ingressCertificate(hcp: HostedControlPlane): CertificateSpec[] {
  const domain = appsDomainOf(hcp.metadata.name ?? '', hcp.spec.dns);
  if (domain === undefined) return [];
  return [{ secret: PkiSecret.ingressServer, issuer: PkiSecret.rootCA, commonName: `*.${domain}`, usage: 'server', dnsNames: [`*.${domain}`, domain], validityDays: LEAF_DAYS }];
}

/**
 * The CSI controller acts in the hosted cluster as a guest service account, so the RBAC applied there (bound to that
 * service account) is all it holds; a certificate instead of a token needs no token minter and renews with the PKI.
 */
function csiControllerClient(): CertificateSpec {
  const ns = KubevirtCSI.guestNamespace;
  return { secret: PkiSecret.csiControllerClient, issuer: PkiSecret.rootCA, commonName: serviceAccountUser(ns, KubevirtCSI.controllerServiceAccount), organizations: ['system:serviceaccounts', `system:serviceaccounts:${ns}`], usage: 'client', validityDays: LEAF_DAYS };
}

/** The client port of etcd as kube-apiserver addresses it. */
export const etcdURL = (ns: string): string => `https://etcd-client.${ns}.svc:${String(ETCD_CLIENT_PORT)}`;
