import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SUPPORTED_VERSIONS_CONFIGMAP, supportedVersionsData } from '../../release/supported-versions.ts';
import { runHcp } from '../../testing/cli.ts';
import { testClusters } from '../../testing/envtest/clusters.ts';

const { management } = testClusters();

describe('hcp version', () => {
  it('When the operator has published its supported versions, it should print client and server versions', async () => {
    const { name, namespace, label } = SUPPORTED_VERSIONS_CONFIGMAP;
    await management.client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    await management.client.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels: { [label]: 'true' } }, data: supportedVersionsData('abc123') } as never);
    const out = await runHcp(['version', `--kubeconfig=${management.adminKubeconfig}`]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^Client Version: hcp-kubevirt: \S+ \(\S+\)\. Latest supported OCP: 4\.17\.0\n/);
    assert.match(out.stdout, /Server Version: abc123\nServer Supports OCP Versions: 4\.17, 4\.16, 4\.15, 4\.14\n$/);
  });

  it('When no management cluster is reachable, it should still print the client version and say why the server is unknown', async () => {
    const out = await runHcp(['version', '--kubeconfig=/nonexistent']);
    assert.equal(out.code, 0);
    assert.match(out.stdout, /Server Version: unknown \(cannot load the management cluster kubeconfig/);
  });
});
