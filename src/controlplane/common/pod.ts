import type { HostedControlPlane } from '../../api/index.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { MANAGED_BY, podAnnotations, podLabels, podPlacement, selectorLabels, type PriorityTier } from './placement.ts';

/** A Secret mounted read-only into a container. */
export interface SecretMount {
  /** Volume name, also the folder under `/etc/kubernetes/` it appears in. */
  readonly volume: string;
  readonly secret: string;
  /** Only these keys (e.g. a CA's certificate without its private key); all keys when absent. */
  readonly keys?: readonly string[];
}

/** The path a mounted Secret's files appear under. */
export const mountPath = (volume: string): string => `/etc/kubernetes/${volume}`;

/** Volumes for Secret mounts (mode 0640: readable by the container user's group only). */
export const secretVolumes = (mounts: readonly SecretMount[]): unknown[] =>
  mounts.map((m) => ({ name: m.volume, secret: { secretName: m.secret, defaultMode: 0o640, ...(m.keys === undefined ? {} : { items: m.keys.map((key) => ({ key, path: key })) }) } }));

/** Read-only mounts for Secret mounts. */
export const secretVolumeMounts = (mounts: readonly SecretMount[]): unknown[] => mounts.map((m) => ({ name: m.volume, mountPath: mountPath(m.volume), readOnly: true }));

/** What every control-plane container gets: no privilege escalation, a read-only root, `/tmp` writable. */
export const CONTAINER_SECURITY = {
  allowPrivilegeEscalation: false,
  capabilities: { drop: ['ALL'] },
  readOnlyRootFilesystem: true,
  runAsNonRoot: true,
  seccompProfile: { type: 'RuntimeDefault' },
} as const;

/** A container's requests, chosen per component (listed in ARCHITECTURE.md). */
export interface Requests {
  readonly cpu: string;
  readonly memory: string;
}

/** A check of an HTTPS endpoint of the container, for {@link probes}. */
export const httpsCheck = (path: string, port: number): Record<string, unknown> => ({ httpGet: { path, port, scheme: 'HTTPS' } });

/** What a container's probes check, and how long it may take to start. */
export interface ProbeChecks {
  /** The readiness check; a container without one is ready once started. */
  readonly ready?: Record<string, unknown>;
  readonly live: Record<string, unknown>;
  /** How many start-up checks may fail (one a second) before the container is restarted. */
  readonly startupLimit: number;
}

/** Steady-state probing: every 10 s, three failures in a row count. */
const STEADY = { periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 3 } as const;

/**
 * A container's probes. Until it first passes, the start-up probe asks every second (the readiness check when there
 * is one), and the kubelet runs readiness the moment it passes: a component is Ready within a second of being able to
 * serve, not at the next tick of a 10 s readiness period after an initial delay (which cost a hosted cluster up to
 * 15 s of its time to Available). Readiness and liveness then run every 10 s, with no initial delay: the start-up
 * probe holds them back while the component starts.
 */
export function probes(checks: ProbeChecks): Record<string, unknown> {
  return {
    startupProbe: { ...(checks.ready ?? checks.live), periodSeconds: 1, timeoutSeconds: 2, failureThreshold: checks.startupLimit },
    ...(checks.ready === undefined ? {} : { readinessProbe: { ...checks.ready, ...STEADY } }),
    livenessProbe: { ...checks.live, ...STEADY },
  };
}

/** The inputs every workload shares. */
export interface WorkloadInput {
  readonly hcp: HostedControlPlane;
  readonly component: string;
  readonly tier: PriorityTier;
  readonly configHash: string;
  readonly containers: readonly unknown[];
  readonly volumes: readonly unknown[];
  /** The replicas when the component pins them (else the availability policy's, which spreading follows). */
  readonly replicas?: number;
  /** The service account the pods act as on the management cluster (its token mounted); none when absent. */
  readonly serviceAccount?: string;
  /**
   * False for a component whose pods need not restart with every release: its image alone says what it runs (etcd,
   * whose image releases often share), so a release that keeps the image keeps its pods.
   */
  readonly annotateRelease?: boolean;
  /** How long a stopping pod may take (the kubelet's default, 30 s, when absent). */
  readonly terminationGracePeriodSeconds?: number;
}

/** The pod template of a control-plane component: labels, annotations, placement, containers, volumes. */
export function podTemplate(input: WorkloadInput): Record<string, unknown> {
  const { hcp, component } = input;
  return {
    metadata: { labels: podLabels(hcp, component), annotations: podAnnotations(hcp, input.configHash, input.annotateRelease ?? true) },
    spec: {
      ...podPlacement(hcp, component, input.tier, input.replicas),
      ...(input.serviceAccount === undefined ? { automountServiceAccountToken: false } : { serviceAccountName: input.serviceAccount, automountServiceAccountToken: true }),
      // No component reads Services from its environment, and etcd takes every ETCD_* variable for a flag: Service
      // links such as ETCD_CLIENT_PORT (from the etcd-client Service) were warned about on the first real run.
      enableServiceLinks: false,
      ...(input.terminationGracePeriodSeconds === undefined ? {} : { terminationGracePeriodSeconds: input.terminationGracePeriodSeconds }),
      containers: input.containers,
      volumes: [{ name: 'tmp-dir', emptyDir: {} }, ...input.volumes],
    },
  };
}

/** Metadata of a component's workload. */
export function workloadMetadata(hcp: HostedControlPlane, component: string): Record<string, unknown> {
  return { name: component, namespace: hcp.metadata.namespace, labels: { ...selectorLabels(component), [MANAGED_BY.key]: MANAGED_BY.value } };
}

/**
 * How a Deployment rolls. One replica: a new pod first, the old one after it is ready (upstream's strategy). Several:
 * their pods must be on different nodes, so on a management cluster with exactly as many nodes a surge pod has nowhere
 * to go, and upstream's maxUnavailable 0 never lets an old pod go to make room — a rollout stuck for ever (seen when a
 * changed kube-apiserver flag left the new pod Pending on 3 nodes). One pod may go at a time, as the budget allows.
 */
const rollingUpdate = (replicas: number): Record<string, number> => (replicas > 1 ? { maxSurge: 1, maxUnavailable: 1 } : { maxSurge: 1, maxUnavailable: 0 });

/** A Deployment of a control-plane component, rolling as {@link rollingUpdate} says. */
export function deployment(input: WorkloadInput, replicas: number): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: workloadMetadata(input.hcp, input.component),
    spec: {
      replicas,
      revisionHistoryLimit: 2,
      selector: { matchLabels: selectorLabels(input.component) },
      strategy: { type: 'RollingUpdate', rollingUpdate: rollingUpdate(replicas) },
      template: podTemplate({ ...input, replicas }),
    },
  };
}

/** A controller-style container: one binary, its HTTPS health port, its requests and its Secret mounts. */
export interface ControllerContainer {
  readonly name: string;
  readonly image: string;
  readonly args: readonly string[];
  readonly port: number;
  readonly requests: Requests;
  readonly mounts: readonly SecretMount[];
}

/** An environment variable of a container. */
export type EnvVar = Record<string, unknown> & { readonly name: string };

/**
 * GOMEMLIMIT at the container's memory request (the downward API gives it in bytes): as its memory nears what the
 * scheduler reserved for it, a Go component collects more often, instead of letting its heap grow to twice what is
 * live. A soft limit: a component that needs more still gets it (no memory limit is set, so nothing is OOM-killed).
 * It counts only Go's own memory, not the binary's pages that a pod's resident memory also counts.
 */
export const goMemoryLimitAtRequest = (container: string): EnvVar => ({ name: 'GOMEMLIMIT', valueFrom: { resourceFieldRef: { containerName: container, resource: 'requests.memory' } } });

/** The container of a controller-style component (kube-controller-manager, kube-scheduler). */
export function controllerContainer(c: ControllerContainer): Record<string, unknown> {
  return {
    name: c.name,
    image: c.image,
    command: [c.name],
    args: c.args,
    env: [goMemoryLimitAtRequest(c.name)],
    ports: [{ name: 'https', containerPort: c.port, protocol: 'TCP' }],
    ...probes({ live: httpsCheck('/healthz', c.port), startupLimit: 300 }),
    resources: { requests: c.requests },
    securityContext: CONTAINER_SECURITY,
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [{ name: 'tmp-dir', mountPath: '/tmp' }, ...secretVolumeMounts(c.mounts)],
  };
}

/**
 * A ClusterIP Service in front of a component's metrics port, labelled `app: <name>` for the ServiceMonitor that
 * selects it; its port is named `portName` (upstream's names) and reaches the container port named `targetPort`.
 */
export function metricsService(hcp: HostedControlPlane, name: string, ports: { readonly portName: string; readonly port: number; readonly targetPort: string }): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: hcp.metadata.namespace, labels: { [MANAGED_BY.key]: MANAGED_BY.value, app: name } },
    spec: { type: 'ClusterIP', selector: selectorLabels(name), ports: [{ name: ports.portName, port: ports.port, targetPort: ports.targetPort, protocol: 'TCP' }] },
  };
}

/**
 * A config hash that also covers configuration rendered beside the workload (a ConfigMap it reads once at start), so a
 * changed one rolls the pods like a changed Secret does.
 */
export const configHashWith = (configHash: string, ...rendered: readonly string[]): string => sha256Hex([configHash, ...rendered].join('\n')).slice(0, 16);

/**
 * A component's identity on the management cluster: its ServiceAccount (tokens mounted only into its pods, see
 * {@link WorkloadInput.serviceAccount}), a Role on its control-plane namespace and the binding.
 */
export function serviceAccountWithRole(hcp: HostedControlPlane, name: string, rules: readonly unknown[]): Array<Record<string, unknown>> {
  const metadata = { name, namespace: hcp.metadata.namespace, labels: { [MANAGED_BY.key]: MANAGED_BY.value } };
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata, automountServiceAccountToken: false },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata, rules },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name }, subjects: [{ kind: 'ServiceAccount', name, namespace: hcp.metadata.namespace }] },
  ];
}
