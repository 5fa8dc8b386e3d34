// The shipped hcp (bin/hcp → dist/cli/*.mjs) as a program: every command, every file-reading flag, the errors,
// compared with the same command run from the TypeScript source that the other tiers test. A difference between
// bundle and source (a lazily loaded module the bundler treats differently, a missing chunk) fails here.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { assertBundlesFresh, runHcpBinary, runHcpSource } from '../testing/artifacts.ts';
import { normaliseRandomRender } from '../testing/cli.ts';
import { scratchDir } from '../testing/paths.ts';

const dir = scratchDir('hcp-atest-');
const file = (name: string, content: string): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

const PULL_SECRET = file('pull-secret.json', '{"auths":{"quay.io":{"auth":"dXNlcjpwYXNz"}}}');
const SSH_KEY = file('id.pub', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEXAMPLEKEYEXAMPLEKEYEXAMPLEKEYEXAMPLEKEY user@host\n');
const TRUST_BUNDLE = file('ca.pem', '-----BEGIN CERTIFICATE-----\nMIIBexample\n-----END CERTIFICATE-----\n');
const ICS = file('ics.yaml', '- source: quay.io/openshift-release-dev/ocp-release\n  mirrors:\n  - mirror.example.com/ocp-release\n');
const KUBECONFIG = {
  apiVersion: 'v1',
  kind: 'Config',
  clusters: [{ name: 'infra', cluster: { server: 'https://infra.example.com:6443' } }],
  contexts: [{ name: 'infra', context: { cluster: 'infra', user: 'infra-user', namespace: 'guests' } }],
  'current-context': 'infra',
  users: [{ name: 'infra-user', user: { token: 'not-a-real-token' } }],
};
const INFRA_BLOCK = file('infra-block.yaml', [
  'apiVersion: v1', 'kind: Config', 'clusters:', '- name: infra', '  cluster:', '    server: https://infra.example.com:6443',
  'contexts:', '- name: infra', '  context:', '    cluster: infra', '    user: infra-user', 'current-context: infra',
  'users:', '- name: infra-user', '  user:', '    token: not-a-real-token', '',
].join('\n'));
const INFRA_FLOW = file('infra-flow.yaml', `{apiVersion: v1, kind: Config, clusters: [{name: infra, cluster: {server: "https://infra.example.com:6443"}}], contexts: [{name: infra, context: {cluster: infra, user: infra-user}}], current-context: infra, users: [{name: infra-user, user: {token: not-a-real-token}}]}\n`);
const INFRA_JSON = file('infra.json', JSON.stringify(KUBECONFIG, null, 2));

const RELEASE = '--release-image=quay.io/openshift-release-dev/ocp-release:4.17.0-x86_64';
const CREATE = ['create', 'cluster', 'kubevirt', '--render', `--pull-secret=${PULL_SECRET}`, RELEASE];

const docs = (yaml: string): Array<Record<string, any>> => parseAllDocuments(yaml).map((d) => d.toJS() as Record<string, any>).filter((d) => d !== null);

/** Runs the same hcp command from the bundle and from source; asserts both print and exit the same; returns the bundle's run. */
async function sameAsSource(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [bundle, source] = await Promise.all([runHcpBinary(args), runHcpSource(args)]);
  assert.equal(bundle.code, source.code, `exit codes differ for hcp ${args.join(' ')}: bundle ${bundle.code} (${bundle.stderr}), source ${source.code} (${source.stderr})`);
  assert.equal(normaliseRandomRender(bundle.stdout), normaliseRandomRender(source.stdout), `stdout differs for hcp ${args.join(' ')}`);
  assert.equal(bundle.stderr, source.stderr, `stderr differs for hcp ${args.join(' ')}`);
  return bundle;
}

/** The command paths of the CLI, from the surface snapshot the unit tier keeps in step with the command tree. */
const COMMAND_PATHS = [...readFileSync(join(import.meta.dirname, '__snapshots__', 'surface.txt'), 'utf8').matchAll(/^=== hcp(.*)$/gm)].map((m) => (m[1] ?? '').trim().split(' ').filter((w) => w !== ''));

describe('the shipped hcp', () => {
  before(() => assertBundlesFresh());

  it('When asked for help on any command, it should print what the source prints', async () => {
    assert.ok(COMMAND_PATHS.length >= 10, 'the surface snapshot lists the commands');
    for (const path of COMMAND_PATHS) {
      const out = await sameAsSource([...path, '--help']);
      assert.equal(out.code, 0, `hcp ${path.join(' ')} --help: ${out.stderr}`);
    }
  });

  it('When the infra kubeconfig is block YAML, flow YAML or JSON, it should render its credentials Secret (the shipped bundle refused them all)', async () => {
    for (const kubeconfig of [INFRA_BLOCK, INFRA_FLOW, INFRA_JSON]) {
      const out = await sameAsSource([...CREATE, '--render-sensitive', '--name=h10', '--infra-namespace=clusters-h10', `--infra-kubeconfig-file=${kubeconfig}`]);
      assert.equal(out.code, 0, out.stderr);
      const secret = docs(out.stdout).find((d) => d['metadata'].name === 'h10-infra-credentials');
      assert.equal(Buffer.from(String(secret?.['data'].kubeconfig), 'base64').toString(), readFileSync(kubeconfig, 'utf8'));
    }
  });

  it('When image content sources are given, or an empty file (the shipped bundle crashed), it should render them as upstream', async () => {
    const withSources = await sameAsSource([...CREATE, '--name=x', `--image-content-sources=${ICS}`]);
    assert.equal(withSources.code, 0, withSources.stderr);
    const hc = docs(withSources.stdout).find((d) => d['kind'] === 'HostedCluster');
    assert.deepEqual(hc?.['spec'].imageContentSources, [{ source: 'quay.io/openshift-release-dev/ocp-release', mirrors: ['mirror.example.com/ocp-release'] }]);
    const empty = await sameAsSource([...CREATE, '--name=x', '--image-content-sources=/dev/null']);
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(docs(empty.stdout).find((d) => d['kind'] === 'HostedCluster')?.['spec'].imageContentSources, undefined);
  });

  it('When every file flag is given at once, it should read each into its object', async () => {
    const out = await sameAsSource([...CREATE, '--render-sensitive', '--name=all', `--ssh-key=${SSH_KEY}`, `--additional-trust-bundle=${TRUST_BUNDLE}`, `--image-content-sources=${ICS}`, `--infra-kubeconfig-file=${INFRA_BLOCK}`, '--infra-namespace=guests', '--node-pool-replicas=2']);
    assert.equal(out.code, 0, out.stderr);
    const objects = docs(out.stdout);
    const data = (name: string, key: string): string => Buffer.from(String(objects.find((d) => d['metadata'].name === name)?.['data']?.[key]), 'base64').toString();
    assert.equal(data('all-pull-secret', '.dockerconfigjson'), readFileSync(PULL_SECRET, 'utf8'));
    assert.equal(data('all-ssh-key', 'id_rsa.pub'), readFileSync(SSH_KEY, 'utf8'));
    assert.equal(objects.find((d) => d['metadata'].name === 'user-ca-bundle')?.['data']['ca-bundle.crt'], readFileSync(TRUST_BUNDLE, 'utf8'));
    assert.equal(data('all-infra-credentials', 'kubeconfig'), readFileSync(INFRA_BLOCK, 'utf8'));
    assert.equal(objects.filter((d) => d['kind'] === 'NodePool').length, 1);
  });

  it('When --generate-ssh is given, it should load the key generator and render a working key pair', async () => {
    const out = await runHcpBinary([...CREATE, '--render-sensitive', '--name=gen', '--generate-ssh']);
    assert.equal(out.code, 0, out.stderr);
    const secret = docs(out.stdout).find((d) => d['metadata'].name === 'gen-ssh-key');
    assert.match(Buffer.from(String(secret?.['data']['id_rsa.pub']), 'base64').toString(), /^ssh-rsa AAAA[A-Za-z0-9+/=]+\n?$/);
    assert.match(Buffer.from(String(secret?.['data']['id_rsa']), 'base64').toString(), /^-----BEGIN RSA PRIVATE KEY-----\n/);
  });

  it('When --render-into and --output-file are given, it should write the files and print nothing', async () => {
    const into = join(dir, 'rendered.yaml');
    const out = await runHcpBinary([...CREATE, '--name=into', `--render-into=${into}`]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, '');
    assert.ok(docs(readFileSync(into, 'utf8')).some((d) => d['kind'] === 'HostedCluster'));
    const installFile = join(dir, 'install.json');
    const install = await runHcpBinary(['install', 'render', '--format=json', `--output-file=${installFile}`]);
    assert.equal(install.code, 0, install.stderr);
    assert.ok(readFileSync(installFile, 'utf8').includes('"CustomResourceDefinition"'));
  });

  it('When rendering a NodePool or the install manifests, it should print what the source prints', async () => {
    const nodepool = await sameAsSource(['create', 'nodepool', 'kubevirt', '--render', '--name=extra', '--cluster-name=example', '--node-count=3', RELEASE, '--additional-network=name:ns1/nad']);
    assert.equal(nodepool.code, 0, nodepool.stderr);
    assert.equal(docs(nodepool.stdout)[0]?.['spec'].replicas, 3);
    for (const format of ['yaml', 'json']) assert.equal((await sameAsSource(['install', 'render', `--format=${format}`])).code, 0);
  });

  it('When files are missing or malformed, it should say which, once each, and exit 1', async () => {
    const notYaml = file('broken.yaml', 'clusters: [\n');
    const out = await sameAsSource(['create', 'cluster', 'kubevirt', '--render', '--name=bad', '--pull-secret=/nonexistent/ps', `--infra-kubeconfig-file=${notYaml}`, '--infra-namespace=x', `--image-content-sources=${file('not-list.yaml', 'a: b\n')}`]);
    assert.equal(out.code, 1);
    const lines = out.stderr.trim().split('\n');
    assert.equal(lines.length, 3, out.stderr);
    assert.match(out.stderr, /failed to read pull secret file: no such file or directory/);
    assert.match(out.stderr, /invalid --infra-kubeconfig-file ".*broken\.yaml": not YAML: /);
    assert.match(out.stderr, /invalid --image-content-sources ".*not-list\.yaml": must be a YAML list/);
    assert.doesNotMatch(out.stderr, /internal error|\n\s+at /);
  });

  it('When a flag is unknown, it should be a usage error with exit code 2, even one Node itself would take', async () => {
    assert.equal((await sameAsSource(['create', 'cluster', 'kubevirt', '--render', '--nam=x'])).code, 2);
    for (const nodeFlag of ['--version', '--inspect', '--eval=0']) assert.equal((await sameAsSource([nodeFlag, 'version'])).code, 2);
  });

  it('When no management cluster is reachable, version should print the client version with the build commit', async () => {
    const out = await runHcpBinary(['version', '--kubeconfig=/nonexistent']);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^Client Version: hcp-kubevirt: \S+ \(([0-9a-f]{12}|unknown)\)\./);
    assert.match(out.stdout, /Server Version: unknown/);
  });
});
