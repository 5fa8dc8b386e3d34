import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { runHcp } from '../../../../testing/cli.ts';

const IMAGE = 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi';
const create = (args: string): ReturnType<typeof runHcp> => runHcp(['create', 'nodepool', 'kubevirt', ...args.split(' ')]);

describe('hcp create nodepool kubevirt', () => {
  it('When --render and --release-image are given, it should render offline without a management cluster', async () => {
    const out = await create(`--name extra --cluster-name example --release-image ${IMAGE} --render --replicas 3 --cores 4`);
    assert.equal(out.code, 0, out.stderr);
    const np = parse(out.stdout) as { metadata: { name: string }; spec: Record<string, any> };
    assert.equal(np.metadata.name, 'extra');
    assert.equal(np.spec['clusterName'], 'example');
    assert.equal(np.spec['replicas'], 3);
    assert.equal(np.spec['release'].image, IMAGE);
    assert.deepEqual(np.spec['management'], { autoRepair: false, upgradeType: 'Replace' });
    assert.equal(np.spec['platform'].kubevirt.compute.cores, 4);
    assert.match(out.stderr, /NodePool extra was rendered/);
  });

  it('When --containerdisk is given, it should render it as the pool\'s boot image', async () => {
    const out = await create(`--name extra --cluster-name example --release-image ${IMAGE} --render --containerdisk quay.io/containerdisks/rhcos:4.17`);
    assert.equal(out.code, 0, out.stderr);
    const np = parse(out.stdout) as { spec: Record<string, any> };
    assert.deepEqual(np.spec['platform'].kubevirt.rootVolume.diskImage, { containerDiskImage: 'quay.io/containerdisks/rhcos:4.17' });
  });

  it('When --render is given without --release-image and no cluster is reachable, it should say the image is needed offline', async () => {
    const out = await create('--name extra --render --kubeconfig=/nonexistent');
    assert.equal(out.code, 1);
    assert.match(out.stderr, /--release-image is required to render without a management cluster/);
  });

  it('When the platform flags are wrong, it should report each with exit code 1', async () => {
    const out = await create(`--render --release-image ${IMAGE} --cores 0 --arch ppc64le`);
    assert.equal(out.code, 1);
    assert.deepEqual(out.stderr.trim().split('\n'), [
      '--name is required',
      'invalid --arch "ppc64le": the KubeVirt platform runs only amd64, s390x nodes',
      'invalid --cores "0": the number of cores inside the machine must be a value greater than or equal to 1',
    ]);
  });
});
