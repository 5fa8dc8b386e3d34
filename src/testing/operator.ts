import type { MetricsSet } from '../api/index.ts';
import { catalogReleaseProvider } from '../release/catalog.ts';
import type { ReleaseProvider } from '../release/provider.ts';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after } from 'node:test';
import { KubeClient } from '../kube/client.ts';
import { createServiceAccountUser } from '../local/cluster/users.ts';
import { realClock } from '../runtime/clock.ts';
import { jsonLogger, silentLogger } from '../runtime/logger.ts';
import { startOperator, type RunningOperator } from '../operator/operator.ts';
import { runHcp } from './cli.ts';
import { testClusters, type TestCluster } from './envtest/clusters.ts';

/** An operator running in-process as the `operator` service account that `hcp install` set up, for one test namespace. */
export interface TestOperator {
  readonly operator: RunningOperator;
  /** The operator's namespace (RBAC, Lease, supported-versions ConfigMap). */
  readonly namespace: string;
  /** The namespace whose HostedClusters it reconciles. */
  readonly watchNamespace: string;
  readonly client: KubeClient;
}

/** A kubeconfig (file path) with a token of the `operator` service account that `hcp install` made in `namespace`. */
export async function operatorAccount(cluster: TestCluster, namespace: string): Promise<{ namespace: string; kubeconfig: string }> {
  const user = await createServiceAccountUser(cluster, { namespace, name: 'operator' });
  return { namespace, kubeconfig: user.kubeconfig };
}

/** Installs the operator's RBAC with `hcp install` (and `installFlags`) into a fresh namespace; returns it and its service account's kubeconfig. */
export async function installOperatorAccount(cluster: TestCluster, installFlags: readonly string[] = []): Promise<{ namespace: string; kubeconfig: string }> {
  const namespace = await cluster.namespace('hcp-operator');
  const install = await runHcp(['install', `--kubeconfig=${cluster.adminKubeconfig}`, `--namespace=${namespace}`, '--install-scope=resources', '--development', ...installFlags], { realClock: true });
  if (install.code !== 0) throw new Error(`hcp install failed: ${install.stderr}`);
  return operatorAccount(cluster, namespace);
}


/**
 * The apps domain test operators are given: the test clusters serve Routes but have no router to assign hosts, so
 * discovery would (correctly) fail. Pass `''` to test discovery itself.
 */
export const TEST_APPS_DOMAIN = 'apps.mgmt.example.com';

/** Options of {@link startOperatorAs}. */
export interface TestOperatorOptions {
  readonly identity?: string;
  readonly appsDomain?: string;
  readonly nodePoolInfraDeleteGraceMs?: number;
  /**
   * The hosted cluster every NodePool sees: by default the environment's `guest` cluster (no control plane runs in
   * tests); `null` keeps the production path, the control plane's admin kubeconfig.
   */
  readonly hostedClusterKubeconfig?: string | null;
  /** The operator's own image (what `hcp install` passes as OPERATOR_IMAGE): components that run it are rendered. */
  readonly image?: string;
  /** Bring the control planes' in-cluster components (DNS, kube-proxy, CSI) into the environment's `guest` cluster. */
  readonly guestComponents?: boolean;
  /** Where the capacity gauges read the `hcp-sizing-baseline` ConfigMap (default: the manual's `local-cluster`). */
  readonly sizingBaselineNamespace?: string;
  /** How release images resolve: by default the built-in catalog alone, so tests never reach out to a registry. */
  readonly releases?: ReleaseProvider;
  /** `HYPERSHIFT_FEATURESET` (TechPreviewNoUpgrade runs the gated controllers) and the backups kept per namespace. */
  readonly featureSet?: string;
  readonly etcdBackupMaxCount?: number;
  /** `METRICS_SET` and `MONITORING_DASHBOARDS=1`. */
  readonly metricsSet?: MetricsSet;
  readonly monitoringDashboards?: boolean;
}

/** The operator options a test sets only when it asks for them. */
function optionalSettings(options: TestOperatorOptions): Partial<Parameters<typeof startOperator>[0]> {
  return {
    ...(options.nodePoolInfraDeleteGraceMs === undefined ? {} : { nodePoolInfraDeleteGraceMs: options.nodePoolInfraDeleteGraceMs }),
    ...(options.image === undefined ? {} : { image: options.image }),
    ...(options.sizingBaselineNamespace === undefined ? {} : { sizingBaselineNamespace: options.sizingBaselineNamespace }),
    ...(options.featureSet === undefined ? {} : { featureSet: options.featureSet }),
    ...(options.etcdBackupMaxCount === undefined ? {} : { etcdBackupMaxCount: options.etcdBackupMaxCount }),
    ...(options.metricsSet === undefined ? {} : { metricsSet: options.metricsSet }),
    ...(options.monitoringDashboards === undefined ? {} : { monitoringDashboards: options.monitoringDashboards }),
    releases: options.releases ?? catalogReleaseProvider,
    ...(options.guestComponents === true ? { guestComponentsKubeconfig: readFileSync(testClusters().guest.adminKubeconfig, 'utf8') } : {}),
  };
}

/** Starts an operator with the given service-account kubeconfig; it reconciles only `watchNamespace`. */
export async function startOperatorAs(account: { namespace: string; kubeconfig: string }, watchNamespace: string, options: TestOperatorOptions = {}): Promise<TestOperator> {
  const { identity = 'test-operator', appsDomain = TEST_APPS_DOMAIN } = options;
  const hostedClusterKubeconfig = options.hostedClusterKubeconfig === undefined ? readFileSync(testClusters().guest.adminKubeconfig, 'utf8') : options.hostedClusterKubeconfig;
  const client = KubeClient.fromKubeconfigFile(account.kubeconfig);
  const operator = await startOperator({
    client,
    namespace: account.namespace,
    identity,
    clock: realClock,
    // HCP_TEST_LOG=1 prints the operator's log lines to stderr when a test needs explaining.
    logger: process.env['HCP_TEST_LOG'] === '1' ? jsonLogger({ write: (line) => process.stderr.write(line), now: () => Date.now(), level: 'debug' }) : silentLogger,
    // Real randomness: test files run two at a time against the same clusters, and a sequence that restarts in every
    // process gave two files' NodePools the same bootstrap token ID in the shared hosted cluster (one pool's deletion
    // then deleted the other's token, failing its kubelet's next request with 401).
    random: (n) => randomBytes(n),
    leaderElect: true,
    leaseDurations: { leaseDurationMs: 4_000, renewDeadlineMs: 3_000, retryPeriodMs: 500 },
    listenAddresses: ['127.0.0.1:0'],
    version: '0.1.0',
    watchNamespace,
    appsDomain,
    ...(hostedClusterKubeconfig === null ? {} : { hostedClusterKubeconfig }),
    ...optionalSettings(options),
  });
  return { operator, namespace: account.namespace, watchNamespace, client };
}

/**
 * Kills an operator the hard way: every request it makes from now on fails, as if the process had died mid-work
 * (it cannot even release its lease), then its loops are stopped.
 */
export async function crashOperator(op: TestOperator): Promise<void> {
  op.client.rest.call = () => Promise.reject(new Error('operator killed'));
  op.client.rest.stream = () => Promise.reject(new Error('operator killed'));
  await op.operator.stop();
  op.client.close();
}

/**
 * Installs the operator's RBAC and starts the operator in-process with a token of its service account, so every
 * test proves the installed permissions suffice. It reconciles only `watchNamespace`, leaving other tests'
 * HostedClusters alone, and stops after the test file.
 */
export async function startTestOperator(cluster: TestCluster, watchNamespace: string, appsDomain = TEST_APPS_DOMAIN): Promise<TestOperator> {
  const op = await startOperatorAs(await installOperatorAccount(cluster), watchNamespace, { appsDomain });
  after(async () => {
    await op.operator.stop();
    op.client.close();
  });
  return op;
}
