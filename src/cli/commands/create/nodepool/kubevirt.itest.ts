import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import type { KubeDocument } from '../../../../kube/client.ts';
import { runHcp } from '../../../../testing/cli.ts';
import { testClusters } from '../../../../testing/envtest/clusters.ts';

const { management } = testClusters();
const IMAGE = 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi';
const hcp = (args: readonly string[]): ReturnType<typeof runHcp> => runHcp([...args, `--kubeconfig=${management.adminKubeconfig}`], { files: { '/ps': '{"auths":{}}' } });

describe('hcp create nodepool kubevirt (apply)', () => {
  it('When the HostedCluster exists, it should create the NodePool with the cluster release image and refuse a duplicate', async () => {
    const ns = await management.namespace('np');
    const cluster = await hcp(['create', 'cluster', 'kubevirt', `--namespace=${ns}`, '--name=example', '--pull-secret=/ps', `--release-image=${IMAGE}`, '--node-pool-replicas=-1']);
    assert.equal(cluster.code, 0, cluster.stderr);
    const out = await hcp(['create', 'nodepool', 'kubevirt', `--namespace=${ns}`, '--name=extra', '--cluster-name=example', '--replicas=3']);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, 'NodePool extra created\n');
    const np = await management.client.get<KubeDocument>({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'NodePool', name: 'extra', namespace: ns });
    assert.deepEqual((np['spec'] as { release: unknown }).release, { image: IMAGE });
    const again = await hcp(['create', 'nodepool', 'kubevirt', `--namespace=${ns}`, '--name=extra', '--cluster-name=example']);
    assert.equal(again.code, 1);
    assert.match(again.stderr, new RegExp(`NodePool ${ns}/extra already exists`));
    const rendered = await hcp(['create', 'nodepool', 'kubevirt', `--namespace=${ns}`, '--name=more', '--cluster-name=example', '--render']);
    assert.equal((parse(rendered.stdout) as { spec: { release: { image: string } } }).spec.release.image, IMAGE);
  });

  it('When the HostedCluster does not exist, it should say so and create nothing', async () => {
    const ns = await management.namespace('npmissing');
    const out = await hcp(['create', 'nodepool', 'kubevirt', `--namespace=${ns}`, '--name=extra', '--cluster-name=nope', `--release-image=${IMAGE}`]);
    assert.equal(out.code, 1);
    assert.match(out.stderr, new RegExp(`failed to get HostedCluster ${ns}/nope: not found`));
    assert.deepEqual(await management.client.list('hypershift.openshift.io/v1beta1', 'NodePool', { namespace: ns }), []);
  });
});
