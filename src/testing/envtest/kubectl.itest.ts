import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { toYamlDocuments } from '../../lib/yaml.ts';
import { aHostedCluster, aNodePool } from '../builders.ts';
import { testClusters } from './clusters.ts';

const { management } = testClusters();

describe('kubectl against our CRDs', () => {
  let ns = '';
  before(async () => {
    ns = await management.namespace('kubectl');
    const hc = aHostedCluster('example', ns);
    const np = aNodePool('example', 'example', ns);
    const applied = await management.runKubectl(['apply', '--server-side', '-f', '-'], { input: toYamlDocuments([hc, np]) });
    assert.equal(applied.code, 0, applied.stderr);
  });

  it('When running kubectl get hc,np, it should print the upstream printer columns', async () => {
    const out = await management.runKubectl(['get', 'hc,np', '-n', ns]);
    assert.equal(out.code, 0, out.stderr);
    const headers = out.stdout.split('\n').filter((l) => l.startsWith('NAME'));
    assert.equal(headers.length, 2, out.stdout);
    assert.match(headers[0] ?? '', /^NAME\s+VERSION\s+KUBECONFIG\s+PROGRESS\s+AVAILABLE\s+PROGRESSING\s+MESSAGE\s*$/);
    assert.match(headers[1] ?? '', /^NAME\s+CLUSTER\s+DESIRED NODES\s+CURRENT NODES\s+AUTOSCALING\s+AUTOREPAIR\s+VERSION\s+UPDATINGVERSION\s+UPDATINGCONFIG\s+MESSAGE\s*$/);
    assert.match(out.stdout, /nodepool\.hypershift\.openshift\.io\/example\s+example\s+2\s/);
  });

  it('When using the short names, it should find the objects', async () => {
    for (const name of ['hc', 'hcs', 'np', 'nps']) {
      const out = await management.runKubectl(['get', name, '-n', ns, '-o', 'name']);
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /\/example\n/);
    }
  });

  it('When running kubectl scale nodepool/<name> --replicas=5, it should change spec.replicas through the scale subresource', async () => {
    const out = await management.runKubectl(['scale', 'nodepool/example', '--replicas=5', '-n', ns]);
    assert.equal(out.code, 0, out.stderr);
    const np = await management.client.get<{ apiVersion: string; kind: string; spec: { replicas: number } }>({
      apiVersion: 'hypershift.openshift.io/v1beta1',
      kind: 'NodePool',
      name: 'example',
      namespace: ns,
    });
    assert.equal(np.spec.replicas, 5);
  });
});
