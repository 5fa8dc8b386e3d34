import { DNS1123_LABEL } from '../../../api/schema/patterns.ts';
import { DEFAULT_METRICS_SET, InvalidMetricsSetError, parseMetricsSet, type MetricsSet } from '../../../controlplane/monitoring/metrics-set.ts';
import type { InstallInput, InstallScope } from '../../../render/install/input.ts';
import { BUILD_INFO, DEFAULT_OPERATOR_IMAGE } from '../../build-info.ts';
import type { CommandContext } from '../../framework/command.ts';
import { invalidFlag, UserError } from '../../framework/errors.ts';
import { readTrustBundleFile } from '../../framework/files.ts';
import { flag, type FlagSpec } from '../../framework/flags.ts';
import type { FlagReader } from '../../framework/parse.ts';

/** Flags shared by `hcp install` and `hcp install render` (upstream's persistent flags that apply to KubeVirt). */
export const INSTALL_FLAGS: readonly FlagSpec[] = [
  flag('namespace', 'string', 'hypershift', 'The namespace in which to install HyperShift'),
  flag('hypershift-image', 'string', DEFAULT_OPERATOR_IMAGE, 'The HyperShift image to deploy'),
  flag('image-pull-policy', 'string', 'IfNotPresent', 'The image pull policy to use for HyperShift operator containers (Always, Never, IfNotPresent). Defaults to IfNotPresent'),
  flag('development', 'bool', false, 'Enable tweaks to facilitate local development: the operator Deployment gets 0 replicas, so the operator can run outside the cluster'),
  flag('additional-operator-env-vars', 'stringToString', {}, 'Set of additional environment variables to be set on the HyperShift Operator deployment.'),
  flag('limit-crd-install', 'stringSlice', [], 'Used to limit the CRDs that are installed to a per platform basis. Only KubeVirt is accepted: this operator runs the KubeVirt platform only.'),
  flag('tech-preview-no-upgrade', 'bool', false, 'If true, the HyperShift operator runs with TechPreviewNoUpgrade features enabled'),
  flag('additional-trust-bundle', 'string', '', 'Path to a file with user CA bundle: PEM CAs the operator trusts for release registries (a mirror or private registry) besides the system ones'),
  flag('metrics-set', 'string', 'Telemetry', 'The set of metrics to produce for each HyperShift control plane. Valid values are: Telemetry, SRE, All'),
  flag('monitoring-dashboards', 'bool', false, 'If true, HyperShift will generate a monitoring dashboard for every HostedCluster that it creates'),
  flag('console', 'bool', false, 'Also deploy the web console (hcp console) beside the operator, with no rights of its own: users sign in with their own bearer token and reach it with kubectl port-forward'),
];

/** Flags of `hcp install` only. */
export const INSTALL_APPLY_FLAGS: readonly FlagSpec[] = [
  flag('install-scope', 'string', 'all', "Scope of installation: 'all' installs CRDs and resources (default), 'crds' installs only CRDs, 'resources' installs only resources assuming CRDs were installed previously (operator deployment and RBAC)"),
  flag('wait-until-available', 'bool', false, 'If true, pauses installation until hypershift operator has been rolled out'),
  flag('wait-until-crds-established', 'bool', false, 'If true, pauses installation until all custom resource definitions are established before applying other manifests.'),
  flag('kubeconfig', 'string', '', 'Path to a kubeconfig file for the management cluster. If not specified, the default kubeconfig resolution is used.'),
  flag('render', 'bool', false, 'Render output as YAML to stdout instead of applying (same as "hcp install render")'),
];

/** Flags of `hcp install render` (and of `hcp install --render`). */
export const INSTALL_RENDER_FLAGS: readonly FlagSpec[] = [
  flag('format', 'string', 'yaml', 'Output format for the manifests, supports yaml and json'),
  flag('outputs', 'string', 'all', 'Which manifests to output, one of all, crds, or resources. Output CRDs separately to allow applying them first and waiting for them to be established.'),
  flag('output-file', 'string', '', 'File to write the rendered manifests to. Writes to STDOUT if not specified.'),
];

const PULL_POLICIES = { always: 'Always', ifnotpresent: 'IfNotPresent', never: 'Never' } as const;
const SCOPES: readonly InstallScope[] = ['all', 'crds', 'resources'];
const NAMESPACE = new RegExp(DNS1123_LABEL);
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
/** Variables the Deployment sets itself; overriding them would break the operator's view of where it runs. */
const RESERVED_ENV = new Set(['MY_NAMESPACE', 'MY_NAME', 'NODE_OPTIONS']);

function checkEnv(env: Record<string, string>, errors: UserError[]): void {
  for (const name of Object.keys(env)) {
    if (!ENV_NAME.test(name)) errors.push(invalidFlag('additional-operator-env-vars', name, 'an environment variable name is letters, digits, "_", "-" and "." and does not start with a digit'));
    else if (RESERVED_ENV.has(name)) errors.push(invalidFlag('additional-operator-env-vars', name, 'set by the Deployment itself; choose another name'));
  }
}

function checkLimitCrdInstall(platforms: readonly string[], errors: UserError[]): void {
  for (const platform of platforms) {
    if (platform.toLowerCase() !== 'kubevirt') errors.push(invalidFlag('limit-crd-install', platform, 'only KubeVirt is accepted: this operator runs the KubeVirt platform only'));
  }
}

function scopeOf(f: FlagReader, flagName: 'install-scope' | 'outputs', errors: UserError[]): InstallScope {
  const value = f.string(flagName);
  const scope = SCOPES.find((s) => s === value);
  if (scope === undefined) errors.push(invalidFlag(flagName, value, `must be one of ${SCOPES.join(', ')}`));
  return scope ?? 'all';
}

/** `--metrics-set`, case-insensitive as the operator reads it. */
function metricsSetOf(f: FlagReader, errors: UserError[]): MetricsSet {
  try {
    return parseMetricsSet(f.string('metrics-set'));
  } catch (error) {
    if (!(error instanceof InvalidMetricsSetError)) throw error;
    errors.push(invalidFlag('metrics-set', error.value, 'valid values are: Telemetry, SRE, All'));
    return DEFAULT_METRICS_SET;
  }
}

/** `--metrics-set` and `--monitoring-dashboards`. */
const monitoringInput = (f: FlagReader, errors: UserError[]): Pick<InstallInput, 'metricsSet' | 'monitoringDashboards'> => ({
  metricsSet: metricsSetOf(f, errors),
  ...(f.bool('monitoring-dashboards') ? { monitoringDashboards: true } : {}),
});

/** The switches that add to the install: `--tech-preview-no-upgrade` and `--console`. */
const optionalParts = (f: FlagReader): Pick<InstallInput, 'techPreviewNoUpgrade' | 'console'> => ({
  ...(f.bool('tech-preview-no-upgrade') ? { techPreviewNoUpgrade: true } : {}),
  ...(f.bool('console') ? { console: true } : {}),
});

/** The `--additional-trust-bundle` file's content (see {@link readTrustBundleFile}); undefined without the flag. */
function trustBundle(f: FlagReader, ctx: Pick<CommandContext, 'readFile'>, errors: UserError[]): string | undefined {
  const path = f.string('additional-trust-bundle');
  if (path === '') return undefined;
  try {
    return readTrustBundleFile(ctx, 'additional-trust-bundle', path);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    errors.push(error);
    return undefined;
  }
}

/**
 * Turns the flags into the renderer's input, collecting every problem (one line each) instead of stopping at the
 * first. `scopeFlag` is `install-scope` when applying and `outputs` when rendering, as upstream names them.
 */
export function installInput(f: FlagReader, scopeFlag: 'install-scope' | 'outputs', ctx: Pick<CommandContext, 'readFile'>): { input: InstallInput; errors: UserError[] } {
  const errors: UserError[] = [];
  const namespace = f.string('namespace');
  if (!NAMESPACE.test(namespace) || namespace.length > 63) errors.push(invalidFlag('namespace', namespace, 'must be a lowercase DNS-1123 label (a-z, 0-9 and "-", at most 63 characters)'));
  const image = f.string('hypershift-image');
  if (image.trim() === '' || /\s/.test(image)) errors.push(invalidFlag('hypershift-image', image, 'must be an image reference such as quay.io/org/image:tag, without spaces'));
  const policy = PULL_POLICIES[f.string('image-pull-policy').toLowerCase() as keyof typeof PULL_POLICIES] as InstallInput['imagePullPolicy'] | undefined;
  if (policy === undefined) errors.push(invalidFlag('image-pull-policy', f.string('image-pull-policy'), 'want Always, Never or IfNotPresent'));
  const additionalEnv = f.map('additional-operator-env-vars');
  checkEnv(additionalEnv, errors);
  checkLimitCrdInstall(f.strings('limit-crd-install'), errors);
  const scope = scopeOf(f, scopeFlag, errors);
  const replicas = f.bool('development') ? 0 : 2;
  const bundle = trustBundle(f, ctx, errors);
  const monitoring = monitoringInput(f, errors);
  return { input: { namespace, image, imagePullPolicy: policy ?? 'IfNotPresent', replicas, scope, additionalEnv, version: BUILD_INFO.version, ...(bundle === undefined ? {} : { additionalTrustBundle: bundle }), ...optionalParts(f), ...monitoring }, errors };
}

/** Where and how `render` writes. */
export interface RenderOutput {
  readonly format: 'yaml' | 'json';
  readonly file: string;
}

/** Reads `--format` and `--output-file`. */
export function renderOutput(f: FlagReader, errors: UserError[]): RenderOutput {
  const format = f.string('format');
  if (format !== 'yaml' && format !== 'json') errors.push(invalidFlag('format', format, 'must be yaml or json'));
  return { format: format === 'json' ? 'json' : 'yaml', file: f.string('output-file') };
}
