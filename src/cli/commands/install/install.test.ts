import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { runHcp } from '../../../testing/cli.ts';

/** The objects of a multi-document YAML stream (hcp ends every document with ---, leaving an empty last one). */
const objectsOf = (yaml: string): Array<{ kind: string; spec?: { replicas: number } }> =>
  parseAllDocuments(yaml)
    .map((d) => d.toJS() as { kind: string; spec?: { replicas: number } } | null)
    .filter((o) => o !== null);

describe('hcp install render', () => {
  it('When rendering, it should print the same manifests as hcp install --render', async () => {
    const sub = await runHcp(['install', 'render', '--hypershift-image=example.com/op:1']);
    const flag = await runHcp(['install', '--render', '--hypershift-image=example.com/op:1']);
    assert.equal(sub.code, 0, sub.stderr);
    assert.equal(flag.stdout, sub.stdout);
    const kinds = objectsOf(sub.stdout).map((o) => o.kind);
    assert.equal(kinds.length, 16);
    assert.equal(kinds.at(-1), 'Deployment');
  });

  it('When asked for the CRDs as JSON, it should print one List of the three CRDs', async () => {
    const out = await runHcp(['install', 'render', '--outputs=crds', '--format=json']);
    assert.equal(out.code, 0, out.stderr);
    const list = JSON.parse(out.stdout) as { kind: string; items: Array<{ kind: string }> };
    assert.equal(list.kind, 'List');
    assert.deepEqual(list.items.map((i) => i.kind), ['CustomResourceDefinition', 'CustomResourceDefinition', 'CustomResourceDefinition']);
  });

  it('When --install-scope is given with --render, it should select the manifests as --outputs does', async () => {
    const out = await runHcp(['install', '--render', '--install-scope=crds']);
    assert.equal(objectsOf(out.stdout).length, 3);
  });

  it('When --output-file is given, it should write there and print nothing', async () => {
    const out = await runHcp(['install', 'render', '--output-file=/out.yaml']);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, '');
    assert.match(out.written.get('/out.yaml') ?? '', /kind: Deployment/);
  });

  it('When a render-only flag is given without --render, it should refuse it as a usage error', async () => {
    const out = await runHcp(['install', '--format=json', '--kubeconfig=/nowhere']);
    assert.equal(out.code, 2);
    assert.match(out.stderr, /--format only applies with --render/);
  });

  it('When the development flag is set, it should render the operator with 0 replicas', async () => {
    const out = await runHcp(['install', 'render', '--development', '--outputs=resources']);
    const deployment = objectsOf(out.stdout).find((o) => o.kind === 'Deployment');
    assert.equal(deployment?.spec?.replicas, 0);
  });

  it('When the kubeconfig cannot be read, it should say so in one line and exit 1', async () => {
    const out = await runHcp(['install', '--kubeconfig=/no/such/kubeconfig']);
    assert.equal(out.code, 1);
    assert.match(out.stderr, /^cannot load the management cluster kubeconfig \/no\/such\/kubeconfig: ENOENT/);
    assert.doesNotMatch(out.stderr, /\n\s+at /);
  });

  const CA = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUexample\n-----END CERTIFICATE-----\n';
  type Pod = { metadata?: { annotations?: Record<string, string> }; spec: { volumes?: unknown[]; containers: Array<{ args: string[]; volumeMounts?: unknown[] }> } };
  type Installed = { kind: string; metadata: { name: string; namespace?: string }; data?: Record<string, string>; spec?: { template: Pod } };

  /** The user CA bundle ConfigMap and the operator's pod template rendered with `ca` as the trust bundle. */
  async function renderWithBundle(ca: string): Promise<{ bundle: Installed | undefined; pod: Pod }> {
    const out = await runHcp(['install', 'render', '--outputs=resources', '--additional-trust-bundle=/ca.pem'], { files: { '/ca.pem': ca } });
    assert.equal(out.code, 0, out.stderr);
    const objects = objectsOf(out.stdout) as unknown as Installed[];
    const pod = objects.find((o) => o.kind === 'Deployment')?.spec?.template;
    assert.ok(pod !== undefined);
    return { bundle: objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'user-ca-bundle'), pod };
  }

  it('When --additional-trust-bundle names a CA file, it should install it as user-ca-bundle and have the operator trust it for registries', async () => {
    const { bundle, pod } = await renderWithBundle(CA);
    assert.deepEqual({ namespace: bundle?.metadata.namespace, data: bundle?.data }, { namespace: 'hypershift', data: { 'ca-bundle.crt': CA } });
    const [container] = pod.spec.containers;
    assert.ok(container?.args.includes('--registry-ca-file=/etc/hcp/user-ca-bundle/ca-bundle.crt'));
    assert.deepEqual(pod.spec.volumes, [{ name: 'user-ca-bundle', configMap: { name: 'user-ca-bundle' } }]);
    assert.deepEqual(container?.volumeMounts, [{ name: 'user-ca-bundle', mountPath: '/etc/hcp/user-ca-bundle', readOnly: true }]);
    const hash = (p: Pod): string | undefined => p.metadata?.annotations?.['component.hypershift.openshift.io/config-hash'];
    const other = await renderWithBundle(CA.replace('example', 'another'));
    assert.ok(hash(pod) !== undefined && hash(other.pod) !== hash(pod), 'a changed bundle rolls the operator');
  });

  it('When the trust bundle file is missing or holds no certificate, it should say which and exit 1 without printing manifests', async () => {
    const missing = await runHcp(['install', '--render', '--additional-trust-bundle=/nowhere.pem']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^failed to read additional trust bundle file: .*nowhere\.pem/);
    const garbage = await runHcp(['install', 'render', '--additional-trust-bundle=/key.pem'], { files: { '/key.pem': '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n' } });
    assert.equal(garbage.code, 1);
    assert.equal(garbage.stdout, '');
    assert.match(garbage.stderr, /^invalid --additional-trust-bundle "\/key\.pem": the file holds no PEM certificate/);
  });
});
