import type { HostedControlPlane } from '../../api/index.ts';
import { serviceAddress, serviceCIDROf } from '../../controlplane/pki/plan.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { GUEST_MANAGED_LABELS, guestMeta } from './labels.ts';

type Rendered = Record<string, unknown>;
const NS = 'kube-system';
const NAME = 'coredns';
const SELECTOR = { 'k8s-app': 'kube-dns' };
/** The cluster domain every node's kubelet is configured with (the ignition config's `clusterDomain`). */
export const CLUSTER_DOMAIN = 'cluster.local';

/** CoreDNS's configuration: the cluster's names, everything else forwarded to the node's resolver. */
export const COREFILE = `.:53 {
    errors
    health {
        lameduck 5s
    }
    ready
    kubernetes ${CLUSTER_DOMAIN} in-addr.arpa ip6.arpa {
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
        ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
        max_concurrent 1000
    }
    cache 30
    loop
    reload
    loadbalance
}
`;

/** Workers' components run 2 replicas when the infrastructure is HighlyAvailable (upstream's rule), else 1. */
export const infrastructureReplicas = (hcp: HostedControlPlane): number => (hcp.spec.infrastructureAvailabilityPolicy === 'HighlyAvailable' ? 2 : 1);

function deployment(hcp: HostedControlPlane, image: string): Rendered {
  const container = {
    name: 'coredns',
    image,
    args: ['-conf', '/etc/coredns/Corefile'],
    ports: [
      { name: 'dns', containerPort: 53, protocol: 'UDP' },
      { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
      { name: 'metrics', containerPort: 9153, protocol: 'TCP' },
    ],
    readinessProbe: { httpGet: { path: '/ready', port: 8181 }, periodSeconds: 10 },
    livenessProbe: { httpGet: { path: '/health', port: 8080 }, initialDelaySeconds: 60, timeoutSeconds: 5, failureThreshold: 5 },
    resources: { requests: { cpu: '10m', memory: '40Mi' }, limits: { memory: '170Mi' } },
    // Port 53 without root: only the capability to bind it.
    securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] }, readOnlyRootFilesystem: true },
    volumeMounts: [{ name: 'config-volume', mountPath: '/etc/coredns', readOnly: true }],
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: guestMeta(NAME, NS),
    spec: {
      replicas: infrastructureReplicas(hcp),
      selector: { matchLabels: SELECTOR },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      template: {
        metadata: { labels: SELECTOR },
        spec: {
          serviceAccountName: NAME,
          priorityClassName: 'system-cluster-critical',
          // CoreDNS resolves through the node's resolver, not through itself.
          dnsPolicy: 'Default',
          tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }, { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
          affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: SELECTOR }, topologyKey: 'kubernetes.io/hostname' } }] } },
          containers: [container],
          volumes: [{ name: 'config-volume', configMap: { name: NAME, items: [{ key: 'Corefile', path: 'Corefile' }] } }],
        },
      },
    },
  };
}

/**
 * The hosted cluster's DNS (kubeadm's layout, which Kubernetes users know): CoreDNS in `kube-system` behind the
 * `kube-dns` Service at the 10th address of the service network, the address every node's kubelet hands its pods.
 */
export function renderGuestDNS(hcp: HostedControlPlane, release: ReleaseInfo): Rendered[] {
  const rbac = 'rbac.authorization.k8s.io/v1';
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: guestMeta(NAME, NS) },
    {
      apiVersion: rbac,
      kind: 'ClusterRole',
      metadata: guestMeta('system:coredns'),
      rules: [
        { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      ],
    },
    { apiVersion: rbac, kind: 'ClusterRoleBinding', metadata: guestMeta('system:coredns'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:coredns' }, subjects: [{ kind: 'ServiceAccount', name: NAME, namespace: NS }] },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: guestMeta(NAME, NS), data: { Corefile: COREFILE } },
    deployment(hcp, release.images.coreDNS),
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { ...guestMeta('kube-dns', NS), labels: { ...GUEST_MANAGED_LABELS, ...SELECTOR, 'kubernetes.io/name': 'CoreDNS' } },
      spec: {
        selector: SELECTOR,
        clusterIP: serviceAddress(serviceCIDROf(hcp), 10),
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
          { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
          { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
        ],
      },
    },
  ];
}
