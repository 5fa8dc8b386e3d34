import type { HostedControlPlane } from '../../api/index.ts';
import { serviceCIDROf } from '../../controlplane/pki/plan.ts';
import { fromBase64 } from '../../lib/base64.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { ipFamilyOf } from '../../lib/host-port.ts';
import { guestDaemonSet, guestMeta } from './labels.ts';

type Rendered = Record<string, unknown>;
const NS = 'kube-system';
/** Upstream's names: the DaemonSet, its service account and the Secret with the agent's certificate share it. */
export const KONNECTIVITY_AGENT = 'konnectivity-agent';
const CA_BUNDLE = 'konnectivity-ca-bundle';
const HEALTH_PORT = 2041;
const AGENT_DIR = '/etc/konnectivity/agent';
const CA_DIR = '/etc/konnectivity/ca';

/** What the agents need: the konnectivity server as nodes reach it, and the agent's certificate (base64, as in its PKI Secret). */
export interface KonnectivityAgentInput {
  readonly server: { readonly host: string; readonly port: number };
  readonly credentials: { readonly 'tls.crt': string; readonly 'tls.key': string; readonly 'ca.crt': string };
}

/**
 * How an agent names itself to the server: its node's address, so the API server's connections to that node's
 * kubelet go through that node's own agent (the server's `destHost` strategy), and the default route for everything
 * else (pods and Services). Upstream's agents only claim the default route, so a kubelet is reached through whichever
 * agent the server picks, which works only while every node can reach every other.
 */
function identifiers(hcp: HostedControlPlane): string {
  const [base = ''] = serviceCIDROf(hcp).split('/');
  return `${ipFamilyOf(base) === 6 ? 'ipv6' : 'ipv4'}=$(HOST_IP)&default-route=true`;
}

function container(hcp: HostedControlPlane, image: string, server: KonnectivityAgentInput['server']): Rendered {
  return {
    name: KONNECTIVITY_AGENT,
    image,
    command: ['/proxy-agent'],
    args: [
      `--ca-cert=${CA_DIR}/ca.crt`,
      `--agent-cert=${AGENT_DIR}/tls.crt`,
      `--agent-key=${AGENT_DIR}/tls.key`,
      `--proxy-server-host=${server.host}`,
      `--proxy-server-port=${String(server.port)}`,
      '--health-server-host=127.0.0.1',
      `--health-server-port=${String(HEALTH_PORT)}`,
      `--agent-identifiers=${identifiers(hcp)}`,
      '--keepalive-time=30s',
      '--probe-interval=5s',
      '--sync-interval=5s',
      '--sync-interval-cap=30s',
    ],
    env: [{ name: 'HOST_IP', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } }],
    // Ready once it holds a tunnel to a server: the DaemonSet's ready count is the number of connected nodes.
    readinessProbe: { httpGet: { host: '127.0.0.1', path: '/readyz', port: HEALTH_PORT }, periodSeconds: 5 },
    livenessProbe: { httpGet: { host: '127.0.0.1', path: '/healthz', port: HEALTH_PORT }, initialDelaySeconds: 30, periodSeconds: 30, failureThreshold: 3 },
    resources: { requests: { cpu: '10m', memory: '30Mi' } },
    securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [
      { name: 'agent-certs', mountPath: AGENT_DIR, readOnly: true },
      { name: 'konnectivity-ca', mountPath: CA_DIR, readOnly: true },
    ],
  };
}

function daemonSet(hcp: HostedControlPlane, image: string, input: KonnectivityAgentInput): Rendered {
  return guestDaemonSet({
    name: KONNECTIVITY_AGENT,
    namespace: NS,
    labels: { app: KONNECTIVITY_AGENT },
    rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 },
    // A renewed certificate rolls the agents (they read it once, at start).
    podAnnotations: { 'hypershift.openshift.io/konnectivity-agent-credentials': sha256Hex(input.credentials['tls.crt']).slice(0, 16) },
    podSpec: {
      serviceAccountName: KONNECTIVITY_AGENT,
      automountServiceAccountToken: false,
      hostNetwork: true,
      dnsPolicy: 'Default',
      priorityClassName: 'system-node-critical',
      securityContext: { runAsUser: 1000, runAsNonRoot: true },
      tolerations: [{ operator: 'Exists' }],
      containers: [container(hcp, image, input.server)],
      volumes: [
        { name: 'agent-certs', secret: { secretName: KONNECTIVITY_AGENT, defaultMode: 0o440 } },
        { name: 'konnectivity-ca', configMap: { name: CA_BUNDLE, defaultMode: 0o444 } },
      ],
    },
  });
}

/**
 * The konnectivity agent on every node of the hosted cluster: it dials the control plane's konnectivity server and
 * carries the API server's traffic to nodes, pods and Services (logs, exec, port-forward, webhooks, aggregated APIs),
 * which the control plane cannot reach directly. Upstream's objects: the `konnectivity-agent` DaemonSet, service
 * account and Secret (the agent's client certificate) and the `konnectivity-ca-bundle` ConfigMap.
 */
export function renderKonnectivityAgent(hcp: HostedControlPlane, image: string, input: KonnectivityAgentInput): Rendered[] {
  const { credentials } = input;
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: guestMeta(KONNECTIVITY_AGENT, NS), automountServiceAccountToken: false },
    { apiVersion: 'v1', kind: 'Secret', metadata: guestMeta(KONNECTIVITY_AGENT, NS), type: 'kubernetes.io/tls', data: { 'tls.crt': credentials['tls.crt'], 'tls.key': credentials['tls.key'] } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: guestMeta(CA_BUNDLE, NS), data: { 'ca.crt': fromBase64(credentials['ca.crt']) } },
    daemonSet(hcp, image, input),
  ];
}
