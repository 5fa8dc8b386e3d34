// The operator's entry point: `hcp-operator run [flags]`. Parses flags, builds the real clock, logger, randomness
// and management-cluster client, runs until SIGTERM/SIGINT (graceful: finish current work, release the lease) and
// exits non-zero when leadership is lost, so the pod restarts as a fresh candidate.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULT_SIZING_BASELINE_NAMESPACE } from '../capacity/baseline.ts';
import { managementClient, runsInCluster } from '../kube/kubeconfig.ts';
import { realClock } from '../runtime/clock.ts';
import { jsonLogger, type LogLevel } from '../runtime/logger.ts';
import { startOperator } from './operator.ts';
import { FEATURE_SET_ENV } from '../render/install/input.ts';
import { METRICS_SET_ENV, parseMetricsSet } from '../controlplane/monitoring/metrics-set.ts';
import { MonitoringDashboard } from '../render/monitoring/dashboard.ts';
import { availabilityProber, exitWhenDone, ignitionServer, UsageError } from './small-programs.ts';

const USAGE = `Usage: hcp-operator run [flags]
       hcp-operator availability-prober --target URL
       hcp-operator ignition-server [flags]   (see hcp-operator ignition-server --help)
       hcp-operator etcd-backup-upload --file F --bucket B --region R --key K --credentials-file F [--ca-file F] [--keep N]
       hcp-operator etcd-snapshot-fetch --url URL --data-dir D --out F --cluster-state-file F --encryption-config F
                                        [--credentials-file F] [--ca-file F]

Runs the hosted control planes operator against the management cluster; availability-prober waits until URL
answers 200 (the init container of control-plane components that need the hosted API server); etcd-backup-upload
puts an etcd snapshot into an S3 bucket (the last step of an HCPEtcdBackup's Job); etcd-snapshot-fetch fetches and
checks the snapshot an etcd member is restored from (restoreSnapshotURL; an init container of etcd).

Flags:
  --kubeconfig string        Management cluster kubeconfig (default: KUBECONFIG, ~/.kube/config, or in-cluster)
  --namespace string         The operator's namespace: leader-election Lease and supported-versions ConfigMap (default "hypershift")
  --pod-name string          This replica's identity for leader election (default: host name and process id)
  --metrics-addr string      Listen address of /metrics (default ":9000")
  --health-addr string       Listen address of /healthz and /readyz (default ":9440")
  --leader-elect             Elect a leader among replicas (default true; --leader-elect=false for a single local replica)
  --watch-namespace string   Reconcile only HostedClusters in this namespace (default: all namespaces)
  --apps-domain string       The management cluster's apps domain, for KubeVirt clusters with baseDomainPassthrough and
                             no base domain (default: discovered through a temporary Route, as upstream does)
  --sizing-baseline-namespace string
                             Namespace of the hcp-sizing-baseline ConfigMap behind the capacity gauges (default "local-cluster")
  --registry-ca-file string  PEM CAs trusted for release registries besides the system's (a private or mirror registry)
  --etcd-backup-max-count int
                             Successful HCPEtcdBackups kept per control-plane namespace (default 5; TechPreviewNoUpgrade)
  --log-level string         debug, info or error (default "info")
`;

const VERSION = '0.1.0';

/** The registry CAs of `--registry-ca-file`, read at start so a wrong path fails the operator at once. */
const registryCA = (path: string): { registryCA?: string } => (path === '' ? {} : { registryCA: readFileSync(path, 'utf8') });

function options(argv: string[]): ReturnType<typeof parseArgs<{ options: typeof FLAGS; strict: true; allowPositionals: true }>> {
  return parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: true });
}

const FLAGS = {
  kubeconfig: { type: 'string', default: '' },
  namespace: { type: 'string', default: 'hypershift' },
  'pod-name': { type: 'string', default: '' },
  'metrics-addr': { type: 'string', default: ':9000' },
  'health-addr': { type: 'string', default: ':9440' },
  'leader-elect': { type: 'string', default: 'true' },
  'watch-namespace': { type: 'string', default: '' },
  'apps-domain': { type: 'string', default: '' },
  'sizing-baseline-namespace': { type: 'string', default: DEFAULT_SIZING_BASELINE_NAMESPACE },
  'registry-ca-file': { type: 'string', default: '' },
  'etcd-backup-max-count': { type: 'string', default: '5' },
  'log-level': { type: 'string', default: 'info' },
  target: { type: 'string', default: '' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Parses and checks the flags; every problem is a {@link UsageError}. */
function checkedOptions(argv: string[]): ReturnType<typeof options> {
  let parsed: ReturnType<typeof options>;
  try {
    parsed = options(argv);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values } = parsed;
  if (!['debug', 'info', 'error'].includes(values['log-level'])) throw new UsageError(`invalid --log-level "${values['log-level']}": want debug, info or error`);
  if (!['true', 'false'].includes(values['leader-elect'])) throw new UsageError(`invalid --leader-elect "${values['leader-elect']}": want true or false`);
  if (!/^[1-9]\d{0,3}$/.test(values['etcd-backup-max-count'])) throw new UsageError(`invalid --etcd-backup-max-count "${values['etcd-backup-max-count']}": want a whole number from 1 to 9999`);
  return parsed;
}

/** The environment variable through which the Deployment tells the operator its own image (`hcp install` sets it). */
const OPERATOR_IMAGE_ENV = 'OPERATOR_IMAGE';

/** `etcd-backup-upload`: one snapshot into a bucket; its report becomes the container's termination message. */
async function etcdBackupUpload(argv: string[]): Promise<number> {
  const { UploadInputError, parseUploadArgs, uploadSnapshot, writeTerminationMessage } = await import('./etcd-backup-upload.ts');
  try {
    const report = await uploadSnapshot(parseUploadArgs(argv));
    writeTerminationMessage(report);
    process.stdout.write(`uploaded ${String(report.size)} bytes (sha256 ${report.sha256}) to ${report.snapshotURL}\n`);
    return 0;
  } catch (error) {
    throw error instanceof UploadInputError ? new UsageError(error.message) : error;
  }
}

/** `etcd-snapshot-fetch`: the snapshot an etcd member is restored from, fetched and checked; a refusal is its termination message. */
async function etcdSnapshotFetch(argv: string[]): Promise<number> {
  const { SnapshotRefusedError, fetchSnapshot, parseFetchArgs, writeFailure } = await import('./etcd-snapshot-fetch.ts');
  const { ObjectStoreError } = await import('../objectstore/errors.ts');
  try {
    const outcome = await fetchSnapshot(parseFetchArgs(argv));
    process.stdout.write(outcome.kind === 'skipped' ? `nothing to restore: ${outcome.why}\n` : `fetched a ${String(outcome.size)}-byte snapshot; its hash checks out and ${outcome.note}\n`);
    return 0;
  } catch (error) {
    // Every failure is said where the condition reads it: a connection cut mid-body or a full volume too.
    const known = error instanceof SnapshotRefusedError || error instanceof ObjectStoreError;
    const message = `cannot restore etcd from the snapshot: ${known ? error.message : String(error)}`;
    writeFailure(message);
    process.stderr.write(`${message}\n`);
    return 1;
  }
}

/** Entry points of the same image other than `run`, each parsing its own flags. */
const SUBCOMMANDS: Readonly<Record<string, (argv: string[]) => Promise<number>>> = { 'ignition-server': ignitionServer, 'etcd-backup-upload': etcdBackupUpload, 'etcd-snapshot-fetch': etcdSnapshotFetch };

async function main(argv: string[]): Promise<number> {
  const subcommand = SUBCOMMANDS[argv[0] ?? ''];
  if (subcommand !== undefined) return subcommand(argv.slice(1));
  const { values, positionals } = checkedOptions(argv);
  if (!values.help && positionals[0] === 'availability-prober') return availabilityProber(values.target);
  if (values.help || positionals[0] !== 'run') {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  return run(values);
}

/** `run`: the operator itself, until it is stopped or loses leadership. */
async function run(values: ReturnType<typeof options>['values']): Promise<number> {
  const level = values['log-level'] as LogLevel;
  const logger = jsonLogger({ write: (line) => process.stdout.write(line), now: () => Date.now(), level });
  const metricsSet = parseMetricsSet(process.env[METRICS_SET_ENV]);
  logger.info('Using metrics set', { set: metricsSet });
  const operator = await startOperator({
    client: managementClient(values.kubeconfig, process.env),
    namespace: values.namespace,
    identity: values['pod-name'] === '' ? `${hostname()}_${String(process.pid)}` : values['pod-name'],
    clock: realClock,
    logger,
    random: (n) => randomBytes(n),
    leaderElect: values['leader-elect'] === 'true',
    listenAddresses: [values['metrics-addr'], values['health-addr']],
    version: VERSION,
    watchNamespace: values['watch-namespace'],
    appsDomain: values['apps-domain'],
    sizingBaselineNamespace: values['sizing-baseline-namespace'],
    ...registryCA(values['registry-ca-file']),
    ...(process.env[OPERATOR_IMAGE_ENV] ? { image: process.env[OPERATOR_IMAGE_ENV] } : {}),
    featureSet: process.env[FEATURE_SET_ENV] ?? '',
    etcdBackupMaxCount: Number(values['etcd-backup-max-count']),
    metricsSet,
    monitoringDashboards: process.env[MonitoringDashboard.env] === '1',
    // In the management cluster (its service account), hosted API servers are reached through their Services.
    hostedApiAccess: runsInCluster(values.kubeconfig, process.env) ? 'service-network' : 'published',
  });
  logger.info('operator started', { namespace: values.namespace, ports: operator.ports.join(',') });
  const stop = (): void => void operator.stop();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  const outcome = await operator.done;
  logger.info('operator stopped', { outcome });
  return outcome === 'lost-leadership' ? 1 : 0;
}

exitWhenDone(main(process.argv.slice(2)));
