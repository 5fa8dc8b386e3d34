/**
 * The web console beside the operator (`hcp install --console`): `hcp console --authentication-mode=token` from the
 * operator's image. It has no rights of its own — its service account carries no token and no binding — and acts only
 * as the users who sign in with their own bearer token; users reach it through the API server with
 * `kubectl port-forward`, which takes their credentials and RBAC (`pods/portforward` in the namespace) first, and a
 * NetworkPolicy keeps other pods out.
 */
import type { KubeManifest } from '../../api/manifest.ts';
import type { InstallInput } from './input.ts';
import { RESTRICTED_CONTAINER } from './operator.ts';

/** Name of the console's Deployment, ServiceAccount and Service. */
export const CONSOLE_NAME = 'hcp-console';
/** The port the console listens on, in its pod and on its Service. */
export const CONSOLE_PORT = 7480;
/** Where the cluster's CA bundle (the `kube-root-ca.crt` ConfigMap every namespace has) is mounted. */
export const CONSOLE_CA_DIR = '/etc/hcp-console/kube-root-ca';
/** The console's only writable place (memory): the kubeconfig of each signed-in user, 0600, removed at sign-out. */
export const CONSOLE_SESSION_DIR = '/var/run/hcp-console';
/** Resource requests: measured with a few signed-in users watching 50 clusters (bench/console). */
export const CONSOLE_REQUESTS = { cpu: '10m', memory: '96Mi' } as const;

const labels = { name: CONSOLE_NAME, app: CONSOLE_NAME };

function consoleContainer(input: InstallInput): unknown {
  return {
    name: 'console',
    image: input.image,
    imagePullPolicy: input.imagePullPolicy,
    command: ['hcp-operator'],
    args: ['console', '--authentication-mode=token', '--address=0.0.0.0', `--port=${String(CONSOLE_PORT)}`, `--certificate-authority=${CONSOLE_CA_DIR}/ca.crt`],
    env: [{ name: 'TMPDIR', value: CONSOLE_SESSION_DIR }],
    ports: [{ name: 'http', containerPort: CONSOLE_PORT, protocol: 'TCP' }],
    // A TCP probe: the console answers HTTP only to the names it serves (DNS rebinding), not to the pod's address.
    readinessProbe: { tcpSocket: { port: CONSOLE_PORT }, periodSeconds: 10 },
    livenessProbe: { tcpSocket: { port: CONSOLE_PORT }, initialDelaySeconds: 10, periodSeconds: 20 },
    volumeMounts: [
      { name: 'kube-root-ca', mountPath: CONSOLE_CA_DIR, readOnly: true },
      { name: 'sessions', mountPath: CONSOLE_SESSION_DIR },
    ],
    resources: { requests: CONSOLE_REQUESTS },
    securityContext: RESTRICTED_CONTAINER,
    terminationMessagePolicy: 'FallbackToLogsOnError',
  };
}

/** The console's Deployment: one replica, as signed-in sessions live in its memory. */
function consoleDeployment(input: InstallInput): KubeManifest {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: CONSOLE_NAME, namespace: input.namespace, labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: { name: CONSOLE_NAME } },
      template: {
        metadata: { labels },
        spec: {
          serviceAccountName: CONSOLE_NAME,
          automountServiceAccountToken: false,
          containers: [consoleContainer(input)],
          volumes: [
            { name: 'kube-root-ca', configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            { name: 'sessions', emptyDir: { medium: 'Memory', sizeLimit: '16Mi' } },
          ],
        },
      },
    },
  };
}

/**
 * No traffic in from other pods: only `kubectl port-forward` (which the kubelet delivers inside the pod, past any
 * NetworkPolicy) reaches the console, so every user has passed the API server's authentication and RBAC first.
 * Anything in the cluster could otherwise sign in with any service account's token again and again.
 */
const denyIngress = (input: InstallInput): KubeManifest => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name: CONSOLE_NAME, namespace: input.namespace, labels },
  spec: { podSelector: { matchLabels: { name: CONSOLE_NAME } }, policyTypes: ['Ingress'] },
});

/** With `--console`: the console's ServiceAccount (no token, no binding), Service, NetworkPolicy and Deployment. */
export function renderConsole(input: InstallInput): KubeManifest[] {
  if (input.console !== true) return [];
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: CONSOLE_NAME, namespace: input.namespace, labels }, automountServiceAccountToken: false },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: CONSOLE_NAME, namespace: input.namespace, labels },
      spec: { type: 'ClusterIP', selector: { name: CONSOLE_NAME }, ports: [{ name: 'http', port: CONSOLE_PORT, targetPort: 'http', protocol: 'TCP' }] },
    },
    denyIngress(input),
    consoleDeployment(input),
  ];
}
