import type { MetricsSet } from '../../api/index.ts';
import { UserCABundle } from '../../api/v1beta1/well-known.ts';
/** Which manifests an install writes: upstream's `--outputs` / `--install-scope` values. */
export type InstallScope = 'all' | 'crds' | 'resources';

/** Everything the install renderer needs; built from flags by the CLI, so the renderer stays pure. */
export interface InstallInput {
  /** Namespace of the operator (upstream default `hypershift`). */
  readonly namespace: string;
  readonly image: string;
  readonly imagePullPolicy: 'Always' | 'IfNotPresent' | 'Never';
  /** 0 with `--development`: everything is installed but the operator runs outside the cluster. */
  readonly replicas: number;
  readonly scope: InstallScope;
  /** Extra environment of the operator container (`--additional-operator-env-vars`). */
  readonly additionalEnv: Readonly<Record<string, string>>;
  /** The version of the installing CLI, recorded on the Deployment and in the supported-versions ConfigMap. */
  readonly version: string;
  /** PEM CAs the operator trusts for release registries besides the system's (`--additional-trust-bundle`). */
  readonly additionalTrustBundle?: string;
  /**
   * `--tech-preview-no-upgrade`: the gated kinds' CRDs (HCPEtcdBackup) are installed and the operator runs with
   * `HYPERSHIFT_FEATURESET=TechPreviewNoUpgrade`, as upstream's.
   */
  readonly techPreviewNoUpgrade?: boolean;
  /** `--metrics-set`: the operator's `METRICS_SET` (set on the Deployment when it is not the default, Telemetry). */
  readonly metricsSet?: MetricsSet;
  /** `--monitoring-dashboards`: `MONITORING_DASHBOARDS=1` and the dashboard template ConfigMap. */
  readonly monitoringDashboards?: boolean;
  /** `--console`: the web console's Deployment beside the operator (console.ts). */
  readonly console?: boolean;
}

/** The feature set `--tech-preview-no-upgrade` selects, in the operator's `HYPERSHIFT_FEATURESET` (upstream's names). */
export const FEATURE_SET_ENV = 'HYPERSHIFT_FEATURESET';
export const TECH_PREVIEW_NO_UPGRADE = 'TechPreviewNoUpgrade';

/**
 * The ConfigMap `--additional-trust-bundle` is installed as (upstream's name and key), and where the operator reads it:
 * mounted into its pod and named by `--registry-ca-file`.
 */
export const USER_CA_BUNDLE = { name: UserCABundle.Name, key: UserCABundle.Key, mountPath: '/etc/hcp/user-ca-bundle' } as const;

/** Ports of the operator container. */
export const OPERATOR_PORTS = { metrics: 9000, health: 9440, metricsService: 9393 } as const;

/** Name of the operator's Deployment, ServiceAccount and Service (upstream's). */
export const OPERATOR_NAME = 'operator';

/** Name of the operator's ClusterRole, ClusterRoleBinding, Role and RoleBinding (upstream's). */
export const OPERATOR_ROLE_NAME = 'hypershift-operator';

/**
 * The name of the cluster-scoped ClusterRole and ClusterRoleBinding: upstream's for the default namespace, suffixed
 * with the namespace otherwise, so a second install in another namespace does not take the binding from the first
 * (with one shared name, the last install's subject replaces the others').
 */
export const clusterRoleName = (namespace: string): string => (namespace === 'hypershift' ? OPERATOR_ROLE_NAME : `${OPERATOR_ROLE_NAME}-${namespace}`);

/**
 * Node flags the operator runs with (also in bin/hcp-operator's shebang and `./dev operator`). The operator's
 * garbage is many short-lived parsed objects; with V8's defaults resident memory climbed to ~310 MiB for 50 control
 * planes while the live heap stayed near 30 MiB. A 4 MiB young generation and a 256 MiB old-space ceiling (with V8's
 * growth heuristics that follow from it) keep it near 140 MiB for ~25% more GC time (bench/operator-scale). V8 reads
 * them only at start, hence NODE_OPTIONS.
 */
export const OPERATOR_NODE_OPTIONS = '--max-semi-space-size=4 --max-old-space-size=256';
