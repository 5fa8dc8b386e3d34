import type { HostedControlPlane } from '../../api/index.ts';
import { appsDomainOf } from '../../api/v1beta1/dns.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { Passthrough } from '../../platform/kubevirt/passthrough.ts';
import { infrastructureReplicas } from './dns.ts';
import { GUEST_MANAGED_LABELS, guestMeta } from './labels.ts';

type Rendered = Record<string, unknown>;

/**
 * The hosted cluster's default ingress under OpenShift's names, so `oc get -n openshift-ingress …` habits, the manual's
 * `router-nodeport-default` commands and upstream's NetworkPolicy label all keep working; Traefik serves it.
 */
export const GuestIngress = {
  namespace: Passthrough.guestIngressNamespace,
  service: Passthrough.guestIngressService,
  deployment: 'router-default',
  serviceAccount: 'router',
  clusterRole: 'openshift-ingress-router',
  certificateSecret: 'router-certs-default',
  configMap: 'router-default',
  /** Ingresses naming this class (or none) are served; its controller value is Traefik's own. */
  ingressClass: 'openshift-default',
  ingressClassController: 'traefik.io/ingress-controller',
  labels: { 'ingresscontroller.operator.openshift.io/deployment-ingresscontroller': 'default' },
} as const;

/** The router's ports in its pod: unprivileged, so it runs as no one in particular; 1936 is OpenShift's router stats port. */
const PORTS = { http: 8080, https: 8443, health: 1936 } as const;
const CONFIG_DIR = '/etc/traefik';
const CERT_DIR = '/etc/traefik/certs';
/** Whoever the image's user is, the router needs none of its rights. */
const RUN_AS = 65532;

/** The default certificate (and its key) of the apps domain, from the control plane's PKI (`ingress-crt`). */
export interface IngressCertificate {
  readonly 'tls.crt': string;
  readonly 'tls.key': string;
}

/** Traefik's dynamic configuration: the default certificate every HTTPS request without a matching Ingress TLS gets. */
const DYNAMIC_CONFIG = ['tls:', '  stores:', '    default:', '      defaultCertificate:', `        certFile: ${CERT_DIR}/tls.crt`, `        keyFile: ${CERT_DIR}/tls.key`, ''].join('\n');

/**
 * Traefik's static configuration, as flags: HTTP and HTTPS entry points (TLS on every router of the HTTPS one, so any
 * Ingress is served over HTTPS with the default certificate), health and metrics on the stats port, standard
 * `Ingress` objects (with their status set to the router's name in the apps domain), the certificate file; and no
 * calls home.
 */
/** How long a stopping router still accepts requests. */
const LAMEDUCK = '5s';

function ingressArgs(domain: string): string[] {
  return [
    '--global.checknewversion=false',
    '--global.sendanonymoususage=false',
    `--entrypoints.web.address=:${String(PORTS.http)}`,
    '--entrypoints.web.asdefault=true',
    `--entrypoints.websecure.address=:${String(PORTS.https)}`,
    '--entrypoints.websecure.asdefault=true',
    '--entrypoints.websecure.http.tls=true',
    // A router told to stop keeps accepting for 5 s (lameduck) while kube-proxy on every worker learns that its
    // endpoint is terminating; stopping at once refuses the connections already sent its way (seen in the upgrade
    // bench as failed requests at each router's eviction).
    `--entrypoints.web.transport.lifecycle.requestacceptgracetimeout=${LAMEDUCK}`,
    `--entrypoints.websecure.transport.lifecycle.requestacceptgracetimeout=${LAMEDUCK}`,
    `--entrypoints.traefik.address=:${String(PORTS.health)}`,
    '--ping=true',
    '--metrics.prometheus=true',
    '--providers.kubernetesingress=true',
    `--providers.kubernetesingress.ingressendpoint.hostname=${GuestIngress.deployment}.${domain}`,
    `--providers.file.filename=${CONFIG_DIR}/dynamic.yaml`,
    '--log.level=INFO',
  ];
}

function deployment(hcp: HostedControlPlane, image: string, domain: string, configHash: string): Rendered {
  const probe = { httpGet: { path: '/ping', port: PORTS.health } };
  const container = {
    name: 'router',
    image,
    command: ['/usr/local/bin/traefik'],
    args: ingressArgs(domain),
    ports: [
      { name: 'http', containerPort: PORTS.http, protocol: 'TCP' },
      { name: 'https', containerPort: PORTS.https, protocol: 'TCP' },
      { name: 'metrics', containerPort: PORTS.health, protocol: 'TCP' },
    ],
    readinessProbe: { ...probe, periodSeconds: 5 },
    livenessProbe: { ...probe, initialDelaySeconds: 10, failureThreshold: 3, timeoutSeconds: 5 },
    resources: { requests: { cpu: '20m', memory: '48Mi' } },
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true, runAsNonRoot: true, runAsUser: RUN_AS, seccompProfile: { type: 'RuntimeDefault' } },
    volumeMounts: [
      { name: 'config', mountPath: CONFIG_DIR, readOnly: true },
      { name: 'default-certificate', mountPath: CERT_DIR, readOnly: true },
      { name: 'tmp', mountPath: '/tmp' },
    ],
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: guestMeta(GuestIngress.deployment, GuestIngress.namespace),
    spec: {
      replicas: infrastructureReplicas(hcp),
      selector: { matchLabels: GuestIngress.labels },
      // One router at a time goes: the NodePort keeps answering on every worker throughout.
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
      template: {
        // A renewed certificate or changed configuration restarts the routers (Traefik reads its flags once).
        metadata: { labels: GuestIngress.labels, annotations: { 'hypershift.openshift.io/router-config': configHash } },
        spec: {
          serviceAccountName: GuestIngress.serviceAccount,
          priorityClassName: 'system-cluster-critical',
          affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: GuestIngress.labels }, topologyKey: 'kubernetes.io/hostname' } }] } },
          containers: [container],
          volumes: [
            { name: 'config', configMap: { name: GuestIngress.configMap } },
            { name: 'default-certificate', secret: { secretName: GuestIngress.certificateSecret } },
            { name: 'tmp', emptyDir: { sizeLimit: '16Mi' } },
          ],
        },
      },
    },
  };
}

/** What the router may read: the Ingresses and what they point at, Nodes (NodePort balancing), and its Ingresses' status. */
const ROUTER_RULES = [
  { apiGroups: [''], resources: ['services', 'secrets', 'nodes'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses', 'ingressclasses'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses/status'], verbs: ['update'] },
];

/** The NodePort Service the infrastructure's passthrough targets, ports named as the manual's commands read them. */
function nodePortService(): Rendered {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { ...guestMeta(GuestIngress.service, GuestIngress.namespace), labels: { ...GUEST_MANAGED_LABELS, ...GuestIngress.labels } },
    spec: {
      type: 'NodePort',
      selector: GuestIngress.labels,
      // Traffic arriving on any worker is balanced over every router (the passthrough lists all workers).
      externalTrafficPolicy: 'Cluster',
      ports: [
        { name: 'http', port: 80, protocol: 'TCP', targetPort: 'http' },
        { name: Passthrough.guestIngressPortName, port: 443, protocol: 'TCP', targetPort: 'https' },
      ],
    },
  };
}

/**
 * The hosted cluster's default ingress (upstream's default IngressController on KubeVirt: NodePortService publishing,
 * domain `apps.<cluster domain>`): Traefik in `openshift-ingress` serving standard `Ingress` objects, its default
 * certificate the PKI's for `*.<domain>`, behind the `router-nodeport-default` NodePort Service the default-ingress
 * passthrough targets. Nothing until the release carries the controller and the domain (and its certificate) is known.
 */
export function renderGuestIngress(hcp: HostedControlPlane, image: string | undefined, certificate: IngressCertificate | undefined): Rendered[] {
  const domain = appsDomainOf(hcp.metadata.name ?? '', hcp.spec.dns);
  if (image === undefined || certificate === undefined || domain === undefined) return [];
  const rbac = 'rbac.authorization.k8s.io/v1';
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: GuestIngress.namespace, labels: { ...GUEST_MANAGED_LABELS, 'pod-security.kubernetes.io/enforce': 'restricted' } } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: guestMeta(GuestIngress.serviceAccount, GuestIngress.namespace) },
    { apiVersion: rbac, kind: 'ClusterRole', metadata: guestMeta(GuestIngress.clusterRole), rules: ROUTER_RULES },
    {
      apiVersion: rbac,
      kind: 'ClusterRoleBinding',
      metadata: guestMeta(GuestIngress.clusterRole),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: GuestIngress.clusterRole },
      subjects: [{ kind: 'ServiceAccount', name: GuestIngress.serviceAccount, namespace: GuestIngress.namespace }],
    },
    { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: guestMeta(GuestIngress.ingressClass), spec: { controller: GuestIngress.ingressClassController } },
    { apiVersion: 'v1', kind: 'Secret', metadata: guestMeta(GuestIngress.certificateSecret, GuestIngress.namespace), type: 'kubernetes.io/tls', data: { ...certificate } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: guestMeta(GuestIngress.configMap, GuestIngress.namespace), data: { 'dynamic.yaml': DYNAMIC_CONFIG } },
    deployment(hcp, image, domain, sha256Hex(`${DYNAMIC_CONFIG}${certificate['tls.crt']}`).slice(0, 16)),
    disruptionBudget(),
    nodePortService(),
  ];
}

/**
 * The routers' disruption budget (OpenShift's `router-default`, half of them at most): a NodePool rolling its
 * machines drains one at a time, and the budget keeps the next drain from taking a router before the one evicted
 * before it serves again elsewhere; one router alone may still go, so a single worker can be drained.
 */
function disruptionBudget(): Rendered {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: guestMeta(GuestIngress.deployment, GuestIngress.namespace),
    spec: { maxUnavailable: '50%', selector: { matchLabels: GuestIngress.labels } },
  };
}
