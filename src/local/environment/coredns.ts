/**
 * Cluster DNS of the management cluster: CoreDNS answering `cluster.local` from the API (control-plane pods reach
 * etcd and each other by Service names) with the RBAC, Service and Deployment kubeadm would create. There is no
 * upstream resolver to forward to on a loopback-only host, so names outside the cluster fail fast.
 */
import type { KubeManifest } from '../../api/manifest.ts';
import type { EnvironmentLayout } from './layout.ts';
import { COREDNS_IMAGE } from './local-images.ts';

const NAMESPACE = 'kube-system';
const NAME = 'coredns';
const labels = { 'k8s-app': 'kube-dns' };

const COREFILE = `.:53 {
    errors
    health {
        lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
        ttl 30
    }
    cache 30
    loop
    loadbalance
}
`;

const meta = { name: NAME, namespace: NAMESPACE };

/** CoreDNS's identity and what it may read. */
const rbac = (): KubeManifest[] => [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'system:coredns' },
      rules: [
        { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:coredns' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:coredns' },
      subjects: [{ kind: 'ServiceAccount', name: NAME, namespace: NAMESPACE }],
    },
];

/** The objects of cluster DNS, in apply order. */
export function coreDnsObjects(layout: EnvironmentLayout): KubeManifest[] {
  return [
    ...rbac(),
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta, data: { Corefile: COREFILE } },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kube-dns', namespace: NAMESPACE, labels },
      spec: {
        selector: labels,
        clusterIP: layout.dnsServiceAddress,
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
          { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
        ],
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { ...meta, labels },
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: NAME,
            dnsPolicy: 'Default',
            priorityClassName: 'system-cluster-critical',
            containers: [
              {
                name: NAME,
                image: COREDNS_IMAGE,
                imagePullPolicy: 'IfNotPresent',
                args: ['-conf', '/etc/coredns/Corefile'],
                ports: [
                  { name: 'dns', containerPort: 53, protocol: 'UDP' },
                  { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
                ],
                resources: { requests: { cpu: '10m', memory: '30Mi' }, limits: { memory: '170Mi' } },
                securityContext: {
                  allowPrivilegeEscalation: false,
                  capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
                  readOnlyRootFilesystem: true,
                },
                livenessProbe: { httpGet: { path: '/health', port: 8080 }, initialDelaySeconds: 10, periodSeconds: 10 },
                readinessProbe: { httpGet: { path: '/ready', port: 8181 }, periodSeconds: 2 },
                volumeMounts: [{ name: 'config', mountPath: '/etc/coredns', readOnly: true }],
              },
            ],
            volumes: [{ name: 'config', configMap: { name: NAME } }],
          },
        },
      },
    },
  ];
}
