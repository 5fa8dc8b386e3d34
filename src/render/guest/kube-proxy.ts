import type { HostedControlPlane } from '../../api/index.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { toYaml } from '../../lib/yaml.ts';
import { guestDaemonSet, guestMeta } from './labels.ts';

type Rendered = Record<string, unknown>;
const NS = 'kube-system';
const NAME = 'kube-proxy';
const CONFIG_DIR = '/var/lib/kube-proxy';
const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * kube-proxy's kubeconfig: the API server's published address (kube-proxy is what makes the `kubernetes` Service's
 * cluster IP work, so it cannot use it) with its service account's token and CA.
 */
export function kubeProxyKubeconfig(apiServerURL: string): string {
  return toYaml({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'default', cluster: { server: apiServerURL, 'certificate-authority': `${SA_DIR}/ca.crt` } }],
    users: [{ name: 'default', user: { tokenFile: `${SA_DIR}/token` } }],
    contexts: [{ name: 'default', context: { cluster: 'default', user: 'default', namespace: 'default' } }],
    'current-context': 'default',
  });
}

/**
 * kube-proxy's configuration: iptables mode over the cluster's pod network. It leaves the kernel's connection
 * tracking limits and timeouts alone: those are the node's (its image or its Ignition sysctls), and a kube-proxy that
 * cannot write them — a node without its own kernel — would otherwise exit.
 */
export function kubeProxyConfiguration(hcp: HostedControlPlane): string {
  return toYaml({
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig: `${CONFIG_DIR}/kubeconfig.conf` },
    clusterCIDR: (hcp.spec.networking?.clusterNetwork ?? []).map((n) => n.cidr).join(','),
    mode: 'iptables',
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
  });
}

function daemonSet(image: string): Rendered {
  return guestDaemonSet({
    name: NAME,
    namespace: NS,
    labels: { 'k8s-app': NAME },
    rollingUpdate: { maxUnavailable: 1 },
    podSpec: {
      serviceAccountName: NAME,
      priorityClassName: 'system-node-critical',
      hostNetwork: true,
      tolerations: [{ operator: 'Exists' }],
      containers: [
        {
          name: NAME,
          image,
          command: ['/usr/local/bin/kube-proxy', `--config=${CONFIG_DIR}/config.conf`, '--hostname-override=$(NODE_NAME)'],
          env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
          // It writes the node's iptables rules.
          securityContext: { privileged: true },
          resources: { requests: { cpu: '10m', memory: '30Mi' } },
          volumeMounts: [
            { name: NAME, mountPath: CONFIG_DIR, readOnly: true },
            { name: 'xtables-lock', mountPath: '/run/xtables.lock' },
            { name: 'lib-modules', mountPath: '/lib/modules', readOnly: true },
          ],
        },
      ],
      volumes: [
        { name: NAME, configMap: { name: NAME } },
        { name: 'xtables-lock', hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' } },
        { name: 'lib-modules', hostPath: { path: '/lib/modules', type: '' } },
      ],
    },
  });
}

/** kube-proxy on every node of the hosted cluster (kubeadm's layout): identity, configuration, DaemonSet. */
export function renderGuestKubeProxy(hcp: HostedControlPlane, release: ReleaseInfo, apiServerURL: string): Rendered[] {
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: guestMeta(NAME, NS) },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: guestMeta('hcp-kubevirt:node-proxier'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node-proxier' },
      subjects: [{ kind: 'ServiceAccount', name: NAME, namespace: NS }],
    },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: guestMeta(NAME, NS), data: { 'config.conf': kubeProxyConfiguration(hcp), 'kubeconfig.conf': kubeProxyKubeconfig(apiServerURL) } },
    daemonSet(release.images.kubeProxy),
  ];
}
