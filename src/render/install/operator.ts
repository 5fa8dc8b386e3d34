import { InstallCliVersionAnnotation, OperatorLabel, PriorityClass } from '../../api/v1beta1/well-known.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { CONFIG_HASH_ANNOTATION } from '../../controlplane/common/placement.ts';
import type { KubeManifest } from '../../api/manifest.ts';
import { DEFAULT_METRICS_SET, METRICS_SET_ENV } from '../../controlplane/monitoring/metrics-set.ts';
import { MonitoringDashboard } from '../monitoring/dashboard.ts';
import { MONITORING_DASHBOARD_TEMPLATE } from '../monitoring/dashboard-template.ts';
import { FEATURE_SET_ENV, OPERATOR_NAME, OPERATOR_NODE_OPTIONS, OPERATOR_PORTS, TECH_PREVIEW_NO_UPGRADE, USER_CA_BUNDLE, type InstallInput } from './input.ts';

/** The command the operator image runs; the image puts `hcp-operator` on its PATH. */
export const OPERATOR_COMMAND = ['hcp-operator'] as const;

const podLabels = { name: OPERATOR_NAME, app: OPERATOR_NAME, [OperatorLabel.Component]: OPERATOR_NAME };

/** Resource requests of the operator: measured peak for 50 hosted clusters stays under this (bench/operator-scale). */
export const OPERATOR_REQUESTS = { cpu: '10m', memory: '160Mi' } as const;

const hasTrustBundle = (input: InstallInput): boolean => input.additionalTrustBundle !== undefined;

function operatorArgs(input: InstallInput): string[] {
  const trust = hasTrustBundle(input) ? [`--registry-ca-file=${USER_CA_BUNDLE.mountPath}/${USER_CA_BUNDLE.key}`] : [];
  return ['run', '--namespace=$(MY_NAMESPACE)', '--pod-name=$(MY_NAME)', `--metrics-addr=:${String(OPERATOR_PORTS.metrics)}`, `--health-addr=:${String(OPERATOR_PORTS.health)}`, ...trust];
}

/** The `--additional-trust-bundle` ConfigMap, when one is given. */
export function renderUserCABundle(input: InstallInput): KubeManifest[] {
  if (input.additionalTrustBundle === undefined) return [];
  return [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: USER_CA_BUNDLE.name, namespace: input.namespace }, data: { [USER_CA_BUNDLE.key]: input.additionalTrustBundle } }];
}

function operatorEnv(input: InstallInput): unknown[] {
  const fromField = (name: string, fieldPath: string): unknown => ({ name, valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath } } });
  const extra = Object.keys(input.additionalEnv)
    .sort()
    .map((name) => ({ name, value: input.additionalEnv[name] }));
  // OPERATOR_IMAGE: the operator's own image, which control-plane pods run as their availability prober.
  const featureSet = input.techPreviewNoUpgrade === true ? [{ name: FEATURE_SET_ENV, value: TECH_PREVIEW_NO_UPGRADE }] : [];
  return [fromField('MY_NAMESPACE', 'metadata.namespace'), fromField('MY_NAME', 'metadata.name'), { name: 'NODE_OPTIONS', value: OPERATOR_NODE_OPTIONS }, { name: 'OPERATOR_IMAGE', value: input.image }, ...featureSet, ...monitoringEnv(input), ...extra];
}

/** `METRICS_SET` (only when not the default) and `MONITORING_DASHBOARDS`. */
function monitoringEnv(input: InstallInput): unknown[] {
  const set = input.metricsSet === undefined || input.metricsSet === DEFAULT_METRICS_SET ? [] : [{ name: METRICS_SET_ENV, value: input.metricsSet }];
  return [...set, ...(input.monitoringDashboards === true ? [{ name: MonitoringDashboard.env, value: '1' }] : [])];
}

/** The dashboard template ConfigMap, with `--monitoring-dashboards` (upstream's name and key). */
export function renderDashboardTemplate(input: InstallInput): KubeManifest[] {
  if (input.monitoringDashboards !== true) return [];
  return [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: MonitoringDashboard.templateConfigMap, namespace: input.namespace }, data: { [MonitoringDashboard.templateKey]: MONITORING_DASHBOARD_TEMPLATE } }];
}

const probe = (path: string, initialDelaySeconds: number): unknown => ({
  httpGet: { path, port: OPERATOR_PORTS.health, scheme: 'HTTP' },
  initialDelaySeconds,
  periodSeconds: 10,
  timeoutSeconds: 5,
  failureThreshold: 3,
});

/** The container security context of the operator and the console: no privilege, a read-only root, Pod Security "restricted". */
export const RESTRICTED_CONTAINER = {
  allowPrivilegeEscalation: false,
  capabilities: { drop: ['ALL'] },
  privileged: false,
  readOnlyRootFilesystem: true,
  runAsNonRoot: true,
  seccompProfile: { type: 'RuntimeDefault' },
} as const;

function operatorContainer(input: InstallInput): unknown {
  return {
    name: OPERATOR_NAME,
    image: input.image,
    imagePullPolicy: input.imagePullPolicy,
    command: OPERATOR_COMMAND,
    args: operatorArgs(input),
    ...(hasTrustBundle(input) ? { volumeMounts: [{ name: USER_CA_BUNDLE.name, mountPath: USER_CA_BUNDLE.mountPath, readOnly: true }] } : {}),
    env: operatorEnv(input),
    ports: [
      { name: 'metrics', containerPort: OPERATOR_PORTS.metrics, protocol: 'TCP' },
      { name: 'health', containerPort: OPERATOR_PORTS.health, protocol: 'TCP' },
    ],
    livenessProbe: probe('/healthz', 15),
    readinessProbe: probe('/readyz', 5),
    resources: { requests: OPERATOR_REQUESTS },
    securityContext: RESTRICTED_CONTAINER,
    terminationMessagePolicy: 'FallbackToLogsOnError',
  };
}

/** The operator Deployment: one active replica at a time through leader election, spread across nodes. */
export function renderOperatorDeployment(input: InstallInput): KubeManifest {
  const spreadAcrossNodes = {
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 10, podAffinityTerm: { labelSelector: { matchExpressions: [{ key: 'name', operator: 'In', values: [OPERATOR_NAME] }] }, topologyKey: 'kubernetes.io/hostname' } },
      ],
    },
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: OPERATOR_NAME, namespace: input.namespace, annotations: { [InstallCliVersionAnnotation]: input.version } },
    spec: {
      replicas: input.replicas,
      selector: { matchLabels: { name: OPERATOR_NAME } },
      template: {
        // The operator reads the bundle at start: its hash in the template rolls the pods when it changes.
        metadata: { labels: podLabels, ...(input.additionalTrustBundle === undefined ? {} : { annotations: { [CONFIG_HASH_ANNOTATION]: sha256Hex(input.additionalTrustBundle).slice(0, 16) } }) },
        spec: {
          serviceAccountName: OPERATOR_NAME,
          priorityClassName: PriorityClass.Operator,
          affinity: spreadAcrossNodes,
          // Leader election hands over on a graceful stop; give it time to release the Lease.
          terminationGracePeriodSeconds: 30,
          containers: [operatorContainer(input)],
          ...(hasTrustBundle(input) ? { volumes: [{ name: USER_CA_BUNDLE.name, configMap: { name: USER_CA_BUNDLE.name } }] } : {}),
        },
      },
    },
  };
}

/** The Service in front of the operator's metrics port (upstream's name and port). */
export function renderOperatorService(input: InstallInput): KubeManifest {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: OPERATOR_NAME, namespace: input.namespace, labels: { name: OPERATOR_NAME } },
    spec: {
      type: 'ClusterIP',
      selector: { name: OPERATOR_NAME },
      ports: [{ name: 'metrics', port: OPERATOR_PORTS.metricsService, targetPort: 'metrics', protocol: 'TCP' }],
    },
  };
}

const priorityClass = (name: string, value: number, description: string, preemptNever: boolean): KubeManifest => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value,
  globalDefault: false,
  description,
  ...(preemptNever ? { preemptionPolicy: 'Never' } : {}),
});

/** The four priority classes control-plane pods and the operator use (upstream's names and values). */
export function renderPriorityClasses(): KubeManifest[] {
  return [
    priorityClass(PriorityClass.ControlPlane, 100_000_000, 'For hosted control-plane pods that do not serve the API.', true),
    priorityClass(PriorityClass.APICritical, 100_001_000, 'For hosted control-plane pods the API depends on to serve requests.', true),
    priorityClass(PriorityClass.Etcd, 100_002_000, 'For hosted control-plane etcd pods.', true),
    priorityClass(PriorityClass.Operator, 100_003_000, 'For the hosted control planes operator.', false),
  ];
}
