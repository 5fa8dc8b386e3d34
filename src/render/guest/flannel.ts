import type { HostedControlPlane } from '../../api/index.ts';
import { GUEST_VXLAN_PORT, VXLAN_OVERHEAD, type PodNetwork } from '../../controlplane/common/pod-network.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { GUEST_MANAGED_LABELS, guestDaemonSet, guestMeta } from './labels.ts';

type Rendered = Record<string, unknown>;
type Flannel = Extract<PodNetwork, { kind: 'flannel' }>;

/** Flannel's objects in the hosted cluster, under upstream's names (kube-flannel.yml), so its users find them. */
export const FLANNEL = {
  namespace: 'kube-flannel',
  serviceAccount: 'flannel',
  configMap: 'kube-flannel-cfg',
  daemonSet: 'kube-flannel-ds',
  labels: { app: 'flannel', tier: 'node' },
} as const;

/** Where the DaemonSet's init container puts the CNI plugins and the network's configuration on every node. */
const NODE_CNI = { bin: '/opt/cni/bin', conf: '/etc/cni/net.d', confFile: '10-flannel.conflist' } as const;

/**
 * The node's CNI configuration: flannel's plugin (which reads the node's lease that flanneld writes and delegates to
 * the bridge plugin with it), then host ports.
 */
export function flannelCNIConfig(): string {
  const conf = {
    name: 'cbr0',
    cniVersion: '0.3.1',
    plugins: [
      // hairpinMode: a pod reaching itself through a Service it backs goes out and back through the bridge port.
      { type: 'flannel', delegate: { hairpinMode: true, isDefaultGateway: true } },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  };
  return `${JSON.stringify(conf, null, 2)}\n`;
}

const isIPv6 = (cidr: string): boolean => cidr.includes(':');

/**
 * flanneld's network: the cluster network (each node's share is its Node's `podCIDR`), VXLAN on
 * {@link GUEST_VXLAN_PORT}; with a declared overlay MTU, the underlay MTU it implies, else flannel takes each node's
 * interface MTU.
 */
export function flannelNetConfig(hcp: HostedControlPlane, network: Flannel): string {
  const cidrs = (hcp.spec.networking?.clusterNetwork ?? []).map((n) => n.cidr);
  const v4 = cidrs.find((c) => !isIPv6(c));
  const v6 = cidrs.find(isIPv6);
  const backend = { Type: 'vxlan', Port: GUEST_VXLAN_PORT, ...(network.overlayMTU === undefined ? {} : { MTU: network.overlayMTU + VXLAN_OVERHEAD }) };
  const conf = {
    ...(v4 === undefined ? { EnableIPv4: false } : { Network: v4 }),
    ...(v6 === undefined ? {} : { EnableIPv6: true, IPv6Network: v6 }),
    Backend: backend,
  };
  return `${JSON.stringify(conf, null, 2)}\n`;
}

function daemonSet(network: Flannel, apiServer: { readonly host: string; readonly port: number }, configHash: string): Rendered {
  const hostPath = (name: string, path: string, type?: string): Rendered => ({ name, hostPath: { path, ...(type === undefined ? {} : { type }) } });
  return guestDaemonSet({
    name: FLANNEL.daemonSet,
    namespace: FLANNEL.namespace,
    labels: FLANNEL.labels,
    rollingUpdate: { maxUnavailable: 1 },
    // flanneld reads its network once, at start: a changed configuration rolls the pods.
    podAnnotations: { 'hypershift.openshift.io/flannel-config': configHash },
    podSpec: {
      serviceAccountName: FLANNEL.serviceAccount,
      priorityClassName: 'system-node-critical',
      hostNetwork: true,
      tolerations: [{ operator: 'Exists' }],
      initContainers: [
        {
          name: 'install-cni',
          image: network.images.cniPlugins,
          command: ['/cni-install', '-plugins', '/opt/cni/bin', '-into', `/host${NODE_CNI.bin}`, '-conf', '/etc/kube-flannel/cni-conf.json', '-conf-into', `/host${NODE_CNI.conf}/${NODE_CNI.confFile}`],
          resources: { requests: { cpu: '10m', memory: '16Mi' } },
          volumeMounts: [
            { name: 'cni-plugin', mountPath: `/host${NODE_CNI.bin}` },
            { name: 'cni', mountPath: `/host${NODE_CNI.conf}` },
            { name: 'flannel-cfg', mountPath: '/etc/kube-flannel/' },
          ],
        },
      ],
      containers: [
        {
          name: 'kube-flannel',
          image: network.images.flannel,
          command: ['/opt/bin/flanneld'],
          args: ['--ip-masq', '--kube-subnet-mgr'],
          env: [
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
            { name: 'EVENT_QUEUE_DEPTH', value: '5000' },
            // The API server where nodes reach it: the `kubernetes` Service's address works only once kube-proxy runs,
            // and a plugin that needs it to start would wait on itself (k0smotron #1492).
            { name: 'KUBERNETES_SERVICE_HOST', value: apiServer.host },
            { name: 'KUBERNETES_SERVICE_PORT', value: String(apiServer.port) },
          ],
          // The VXLAN device, routes and masquerading rules of the node; no more than that.
          securityContext: { privileged: false, capabilities: { add: ['NET_ADMIN', 'NET_RAW'] } },
          resources: { requests: { cpu: '20m', memory: '50Mi' } },
          volumeMounts: [
            { name: 'run', mountPath: '/run/flannel' },
            { name: 'flannel-cfg', mountPath: '/etc/kube-flannel/' },
            { name: 'xtables-lock', mountPath: '/run/xtables.lock' },
          ],
        },
      ],
      volumes: [
        hostPath('run', '/run/flannel'),
        hostPath('cni-plugin', NODE_CNI.bin, 'DirectoryOrCreate'),
        hostPath('cni', NODE_CNI.conf, 'DirectoryOrCreate'),
        { name: 'flannel-cfg', configMap: { name: FLANNEL.configMap } },
        hostPath('xtables-lock', '/run/xtables.lock', 'FileOrCreate'),
      ],
    },
  });
}

/**
 * Flannel on every node of the hosted cluster: its namespace (privileged, as a network plugin must be), identity and
 * the least it may do (read pods, read Nodes and their pod ranges, patch their status), its
 * configuration and DaemonSet.
 */
export function renderGuestFlannel(hcp: HostedControlPlane, network: Flannel, apiServer: { readonly host: string; readonly port: number }): Rendered[] {
  const config = { 'cni-conf.json': flannelCNIConfig(), 'net-conf.json': flannelNetConfig(hcp, network) };
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: FLANNEL.namespace, labels: { ...GUEST_MANAGED_LABELS, 'pod-security.kubernetes.io/enforce': 'privileged' } } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: guestMeta(FLANNEL.serviceAccount, FLANNEL.namespace) },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: guestMeta('flannel'),
      rules: [
        { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
        { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
        // Its lease (annotations) and NetworkUnavailable, written through the status subresource.
        { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: guestMeta('flannel'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'flannel' },
      subjects: [{ kind: 'ServiceAccount', name: FLANNEL.serviceAccount, namespace: FLANNEL.namespace }],
    },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: guestMeta(FLANNEL.configMap, FLANNEL.namespace), data: config },
    daemonSet(network, apiServer, sha256Hex(JSON.stringify(config)).slice(0, 16)),
  ];
}
