import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { validateObject } from '../../api/v1beta1/validate.ts';
import { KubeApiError } from '../../kube/errors.ts';
import type { KubeClient, KubeDocument, KubeObject } from '../../kube/client.ts';
import { aHostedCluster, aNodePool } from '../builders.ts';
import { CONFORMANCE_SOURCES } from '../conformance.ts';
import { REPO_ROOT } from '../paths.ts';
import { createCases, prepare, updateCases, type ValidationCase } from '../validation-cases.ts';
import { testClusters } from './clusters.ts';

const { management, upstream } = testClusters();

const asKube = (o: object, namespace: string): KubeObject => {
  const copy = structuredClone(o) as KubeObject;
  copy.metadata = { ...copy.metadata, namespace };
  return copy;
};

async function rejection(op: () => Promise<unknown>): Promise<string> {
  try {
    await op();
  } catch (error) {
    assert.ok(error instanceof KubeApiError, String(error));
    assert.ok([400, 422].includes(error.status), `unexpected status ${error.status}: ${error.message}`);
    return error.message;
  }
  return assert.fail('the server accepted the object');
}

/** What the server's message must contain for an offline violation line: the field path and, for CEL rules, the message. */
function serverExpectations(line: string): string[] {
  const [path = '', rest = ''] = line.split(/: (.*)/s);
  const message = rest.replace(/, got .*$/s, '');
  const serverPath = path === '<root>' ? '<nil>' : path;
  if (message === 'unknown field') return [`unknown field "${path}"`];
  return message.startsWith('must ') || message === 'is required' ? [serverPath] : [serverPath, message];
}

async function createOrUpdate(client: KubeClient, c: ValidationCase, namespace: string): Promise<string> {
  const { obj, old } = prepare(c);
  if (old === undefined) return rejection(() => client.create(asKube(obj, namespace)));
  const stored = await client.create(asKube(old, namespace));
  const next = asKube(obj, namespace);
  next.metadata = { ...next.metadata, resourceVersion: stored.metadata?.resourceVersion };
  return rejection(() => client.replace(next));
}

describe('our CRDs on a real API server', () => {
  let namespace = '';
  before(async () => (namespace = await management.namespace('crd')));

  for (const [s, source] of CONFORMANCE_SOURCES.entries()) {
    it(`When every HostedCluster/NodePool of ${source.title} is created, it should be accepted`, { skip: source.skip }, async () => {
      for (const [i, { object }] of source.objects().entries()) {
        const created = await management.client.create(asKube({ ...object, metadata: { name: `c${s}-${i}` } }, namespace));
        assert.equal(created.metadata?.name, `c${s}-${i}`);
      }
    });
  }

  it('When the README examples are applied, it should accept the valid one and refuse the invalid one', async () => {
    const examples = join(REPO_ROOT, 'examples');
    await management.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'clusters' } }).catch(() => undefined);
    const ok = await management.runKubectl(['apply', '--server-side', '-f', join(examples, 'cluster.yaml')]);
    assert.equal(ok.code, 0, ok.stderr);
    const bad = await management.runKubectl(['apply', '--server-side', '-f', join(examples, 'invalid-nodepool.yaml')]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /Both replicas or autoScaling should not be set/);
    assert.match(bad.stderr, /spec\.platform\.kubevirt\.rootVolume\.persistent\.size/);
    await management.runKubectl(['delete', '-f', join(examples, 'cluster.yaml')]);
  });

  it('When the server applies API defaults, they should equal the offline validator defaults', async () => {
    const np = aNodePool('defaults');
    delete np.spec.platform.kubevirt?.compute;
    const created = await management.client.create(asKube(np, namespace));
    const offline = validateObject(asKube(np, namespace)).defaulted['spec'];
    assert.deepEqual((created as KubeDocument)['spec'], offline);
  });

  for (const c of [...createCases, ...updateCases].filter((x) => x.offlineOnly === undefined)) {
    it(`When ${c.update === undefined ? 'creating an object with' : 'updating an object by'} ${c.name}, it should refuse like the offline validator`, async () => {
      const ns = await management.namespace('case');
      const message = await createOrUpdate(management.client, c, ns);
      for (const line of c.expect) for (const part of serverExpectations(line)) assert.ok(message.includes(part), `server said:\n  ${message}\nexpected to contain:\n  ${part}`);
      if (c.update === undefined) assert.deepEqual(await management.client.list('hypershift.openshift.io/v1beta1', String((c.base() as KubeObject).kind), { namespace: ns }), []);
    });
  }
});

describe('compatibility with upstream HyperShift CRDs', () => {
  let namespace = '';
  before(async () => (namespace = await upstream.namespace('compat')));

  it('When the objects our API layer builds are created on upstream CRDs, they should be accepted', async () => {
    await upstream.client.create(asKube(aHostedCluster('ours'), namespace));
    await upstream.client.create(asKube(aNodePool('ours'), namespace));
  });

  for (const [s, source] of CONFORMANCE_SOURCES.entries()) {
    it(`When the HostedClusters/NodePools of ${source.title} are created on upstream CRDs, they should be accepted as on ours`, { skip: source.skip }, async () => {
      for (const [i, { object }] of source.objects().entries()) {
        const o = structuredClone(object) as Record<string, any>;
        // Upstream's CLI renders an empty image but looks one up before applying; its CRD requires it.
        if (o['spec'].release.image === '') o['spec'].release.image = 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi';
        await upstream.client.create(asKube({ ...o, metadata: { name: `u${s}-${i}` } }, namespace));
      }
    });
  }

  const upstreamRules = createCases.filter((c) => c.offlineOnly === undefined && c.ourExtension === undefined);
  for (const c of upstreamRules) {
    it(`When creating an object with ${c.name} on upstream CRDs, it should be refused there too`, async () => {
      await createOrUpdate(upstream.client, c, await upstream.namespace('ucase'));
    });
  }

  for (const c of createCases.filter((x) => x.ourExtension !== undefined)) {
    it(`When creating an object with ${c.name} on upstream CRDs, it should be accepted there (our stricter rule: ${c.ourExtension})`, async () => {
      const { obj } = prepare(c);
      await upstream.client.create(asKube(obj, await upstream.namespace('uext')));
    });
  }
});
