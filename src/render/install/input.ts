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
}

/** Ports of the operator container. */
export const OPERATOR_PORTS = { metrics: 9000, health: 9440, metricsService: 9393 } as const;

/** Name of the operator's Deployment, ServiceAccount and Service (upstream's). */
export const OPERATOR_NAME = 'operator';

/** Name of the operator's ClusterRole, ClusterRoleBinding, Role and RoleBinding (upstream's). */
export const OPERATOR_ROLE_NAME = 'hypershift-operator';
