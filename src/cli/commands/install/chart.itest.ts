import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import type { ObjectRef } from '../../../kube/client.ts';
import { ensureTool, HELM } from '../../../local/binaries/tools.ts';
import type { InstallInput } from '../../../render/install/input.ts';
import { renderInstall } from '../../../render/install/render.ts';
import type { KubeManifest } from '../../../api/manifest.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { REPO_ROOT, scratchDir } from '../../../testing/paths.ts';
import { runProcess, type ProcessResult } from '../../../testing/process.ts';
import { BUILD_INFO } from '../../build-info.ts';
import { FlagReader, parseArgs } from '../../framework/parse.ts';
import { INSTALL_FLAGS, INSTALL_RENDER_FLAGS, installInput } from './options.ts';

const CHART = join(REPO_ROOT, 'deploy', 'chart');
const CA = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUexample\n-----END CERTIFICATE-----\n';

const scratch = scratchDir('hcp-chart-');
const caFile = join(scratch, 'ca.pem');
writeFileSync(caFile, CA);
let helmBinary = 'helm';

/** Runs helm with its cache, configuration and data in a scratch folder and no kubeconfig of the user's. */
function helm(args: readonly string[]): Promise<ProcessResult> {
  const env = { PATH: process.env['PATH'] ?? '', HOME: scratch, KUBECONFIG: join(scratch, 'no-kubeconfig'), HELM_CACHE_HOME: join(scratch, 'cache'), HELM_CONFIG_HOME: join(scratch, 'config'), HELM_DATA_HOME: join(scratch, 'data') };
  return runProcess(helmBinary, args, { env });
}

/** `helm template --include-crds` of the chart in `namespace`, parsed. */
async function template(namespace: string, values: readonly string[]): Promise<KubeManifest[]> {
  const out = await helm(['template', 'hcp-operator', CHART, '--include-crds', `--namespace=${namespace}`, ...values]);
  assert.equal(out.code, 0, out.stderr);
  return parseAllDocuments(out.stdout)
    .map((d) => d.toJS() as KubeManifest | null)
    .filter((o) => o !== null);
}

/** What `hcp install render` renders with these flags, through the CLI's own flag parsing and the same renderer. */
function hcpInstallRender(flags: readonly string[], overrides: Partial<InstallInput> = {}): KubeManifest[] {
  const args = parseArgs([...INSTALL_FLAGS, ...INSTALL_RENDER_FLAGS], flags);
  const { input, errors } = installInput(new FlagReader(args.values), 'outputs', { readFile: (path) => readFileSync(path) });
  assert.deepEqual([...args.errors, ...errors].map((e) => e.message), []);
  return JSON.parse(JSON.stringify(renderInstall({ ...input, ...overrides }))) as KubeManifest[];
}

const keyOf = (o: KubeManifest): string => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** Deep-equal object by object, keyed by kind, namespace and name (Helm orders them its own way). */
function assertSameObjects(actual: readonly KubeManifest[], expected: readonly KubeManifest[]): void {
  const byKey = (objects: readonly KubeManifest[]): Map<string, KubeManifest> => new Map(objects.map((o) => [keyOf(o), o]));
  const rendered = byKey(actual);
  assert.equal(rendered.size, actual.length, 'the chart renders an object twice');
  assert.deepEqual([...rendered.keys()].sort(), [...byKey(expected).keys()].sort(), 'the chart and hcp install render list different objects');
  for (const object of expected) assert.deepEqual(rendered.get(keyOf(object)), object, `${keyOf(object)} differs from hcp install render's`);
}

const withoutNamespace = (objects: readonly KubeManifest[]): KubeManifest[] => objects.filter((o) => o.kind !== 'Namespace');
const withoutCrds = (objects: readonly KubeManifest[]): KubeManifest[] => objects.filter((o) => o.kind !== 'CustomResourceDefinition');
const refOf = (o: KubeManifest): ObjectRef => ({ apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, ...(o.metadata.namespace === undefined ? {} : { namespace: o.metadata.namespace }) });

/** A value set of the chart and the `hcp install render` flags that mean the same. */
interface Case {
  readonly when: string;
  readonly namespace: string;
  readonly values: readonly string[];
  readonly flags: readonly string[];
  /** What the chart sets and hcp has no flag for. */
  readonly overrides?: Partial<InstallInput>;
}

const CASES: readonly Case[] = [
  { when: 'its defaults', namespace: 'hypershift', values: [], flags: [] },
  {
    when: 'an image, a pull policy and replicas in another namespace',
    namespace: 'hcp-system',
    values: ['--set', 'image=registry.example.com/hcp/operator:v2,imagePullPolicy=Always,replicas=3'],
    flags: ['--namespace=hcp-system', '--hypershift-image=registry.example.com/hcp/operator:v2', '--image-pull-policy=Always'],
    overrides: { replicas: 3 },
  },
  { when: 'development mode', namespace: 'hypershift', values: ['--set', 'development=true'], flags: ['--development'] },
  { when: 'a registry CA', namespace: 'hypershift', values: ['--set-file', `additionalTrustBundle=${caFile}`], flags: [`--additional-trust-bundle=${caFile}`] },
  { when: 'the TechPreviewNoUpgrade feature set', namespace: 'hypershift', values: ['--set', 'techPreviewNoUpgrade=true'], flags: ['--tech-preview-no-upgrade'] },
  { when: 'a metrics set and monitoring dashboards', namespace: 'hypershift', values: ['--set', 'metricsSet=SRE', '--set', 'monitoringDashboards=true'], flags: ['--metrics-set=sre', '--monitoring-dashboards'] },
  { when: 'the web console', namespace: 'hcp-system', values: ['--set', 'console.enabled=true,imagePullPolicy=Never'], flags: ['--namespace=hcp-system', '--console', '--image-pull-policy=Never'] },
  {
    when: 'extra operator environment',
    namespace: 'hypershift',
    values: ['--set', 'additionalOperatorEnv.ZED=1,additionalOperatorEnv.ALPHA=two,additionalOperatorEnv.MIDDLE=true'],
    flags: ['--additional-operator-env-vars=ZED=1,ALPHA=two,MIDDLE=true'],
  },
];

describe('the operator Helm chart (deploy/chart)', () => {
  before(async () => {
    helmBinary = (await ensureTool(HELM, () => undefined))['helm'] ?? helmBinary;
  });

  it('When the chart is linted strictly, it should report no error or warning', async () => {
    for (const values of [[], ['--set', 'development=true', '--set-file', `additionalTrustBundle=${caFile}`]]) {
      const out = await helm(['lint', '--strict', CHART, ...values]);
      assert.equal(out.code, 0, out.stdout + out.stderr);
    }
  });

  it('When the chart is read, it should carry the version of this build as its version and appVersion', () => {
    const chart = readFileSync(join(CHART, 'Chart.yaml'), 'utf8');
    assert.match(chart, new RegExp(`^version: ${BUILD_INFO.version}$`, 'm'));
    assert.match(chart, new RegExp(`^appVersion: "${BUILD_INFO.version}"$`, 'm'));
  });

  for (const c of CASES) {
    it(`When the chart is templated with ${c.when}, it should render what hcp install render renders, less the Namespace`, async () => {
      assertSameObjects(await template(c.namespace, c.values), withoutNamespace(hcpInstallRender(c.flags, c.overrides)));
    });
  }

  it('When namespace.create is set, it should render exactly what hcp install render renders, the labelled Namespace included', async () => {
    assertSameObjects(await template('hypershift', ['--set', 'namespace.create=true']), hcpInstallRender([]));
  });

  const refused = [
    ['an extra variable the Deployment sets itself', 'additionalOperatorEnv.NODE_OPTIONS=--inspect', /additionalOperatorEnv\.NODE_OPTIONS: set by the Deployment itself/],
    ['an unknown pull policy', 'imagePullPolicy=Sometimes', /imagePullPolicy/],
    ['a registry CA without a certificate', 'additionalTrustBundle=not-a-pem', /additionalTrustBundle/],
    ['a value the chart does not have', 'replica=3', /replica/],
  ] as const;
  for (const [what, value, message] of refused) {
    it(`When given ${what}, it should refuse to render and name the value`, async () => {
      const out = await helm(['template', 'hcp-operator', CHART, '--namespace=hypershift', '--set', value]);
      assert.notEqual(out.code, 0, out.stdout);
      assert.match(out.stderr, message);
    });
  }

  const installs = [
    ['without namespace.create', 'store the release and create every object it templates', ['--set', 'development=true']],
    ['with namespace.create', 'also own the namespace, labelled as hcp install labels it', ['--set', 'development=true,namespace.create=true']],
  ] as const;
  for (const [how, should, values] of installs) {
    it(`When installed with helm install --create-namespace ${how}, it should ${should}`, async (t) => {
      const { management } = testClusters();
      const namespace = `hcp-chart-${randomBytes(3).toString('hex')}`;
      const objects = withoutCrds(await template(namespace, values));
      // Removed afterwards: the namespace and the cluster RBAC. The priority classes stay: other tests in this cluster use them.
      const cleanUp = [...objects.filter((o) => o.kind.startsWith('ClusterRole')).map(refOf), { apiVersion: 'v1', kind: 'Namespace', name: namespace }];
      t.after(() => Promise.all(cleanUp.map((ref) => management.client.delete(ref))));
      // `hcp install` (install.itest.ts) may have applied the priority classes to this shared cluster already: Helm takes
      // them over as it would on a cluster installed with hcp before.
      const takeOver = ['--take-ownership', '--force-conflicts'];
      const kubeconfig = `--kubeconfig=${management.adminKubeconfig}`;
      const out = await helm(['install', 'hcp-operator', CHART, `--namespace=${namespace}`, '--create-namespace', ...takeOver, ...values, '--wait', '--timeout=90s', kubeconfig]);
      assert.equal(out.code, 0, out.stderr);
      const releases = await helm(['list', `--namespace=${namespace}`, '--output=json', kubeconfig]);
      assert.deepEqual((JSON.parse(releases.stdout) as Array<{ name: string; status: string }>).map((r) => [r.name, r.status]), [['hcp-operator', 'deployed']]);
      const missing: string[] = [];
      for (const object of objects) if ((await management.client.tryGet(refOf(object))) === undefined) missing.push(keyOf(object));
      assert.deepEqual(missing, []);
      const owned = objects.some((o) => o.kind === 'Namespace');
      const labels = (await management.client.get({ apiVersion: 'v1', kind: 'Namespace', name: namespace })).metadata?.labels ?? {};
      assert.equal(labels['hypershift.openshift.io/operator-component'], owned ? 'operator' : undefined);
    });
  }
});
