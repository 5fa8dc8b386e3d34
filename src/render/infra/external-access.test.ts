import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toYamlDocuments } from '../../lib/yaml.ts';
import { assertGolden } from '../../testing/golden.ts';
import { documentedInfraRole } from '../../testing/infra.ts';
import { EXTERNAL_INFRA_ROLE, externalInfraAccessObjects, NETWORK_READER_ROLE } from './external-access.ts';

describe('the access an external infrastructure cluster grants', () => {
  it('When rendered, it should grant exactly the Role the external-infrastructure page documents', () => {
    const role = externalInfraAccessObjects({ namespace: 'clusters-example' }).find((o) => o.kind === 'Role');
    const documented = documentedInfraRole();
    assert.equal(role?.metadata.name, documented.metadata?.name);
    assert.equal(role?.metadata.name, EXTERNAL_INFRA_ROLE);
    assert.deepEqual(role?.['rules'], (documented as unknown as { rules?: unknown }).rules);
  });

  it('When rendered, it should bind the Role to a service account with a long-lived token and grant nothing cluster-wide', () => {
    const objects = externalInfraAccessObjects({ namespace: 'hcp-infra' });
    assert.deepEqual(objects.filter((o) => o.kind.startsWith('Cluster')), []);
    assertGolden(join(import.meta.dirname, 'testdata', 'external-access.yaml'), toYamlDocuments(objects));
  });

  it('When the network reader is asked for, it should add the page\'s ClusterRole (get networks.config.openshift.io) bound to the account, and nothing more', () => {
    const objects = externalInfraAccessObjects({ namespace: 'hcp-infra', networkReader: true });
    const clusterWide = objects.filter((o) => o.kind.startsWith('Cluster'));
    assert.deepEqual(clusterWide.map((o) => [o.kind, o.metadata.name]), [['ClusterRole', NETWORK_READER_ROLE], ['ClusterRoleBinding', 'kv-external-infra-network-reader-binding']]);
    assert.deepEqual(clusterWide[0]?.['rules'], [{ apiGroups: ['config.openshift.io'], resources: ['networks'], verbs: ['get'] }]);
    assert.deepEqual(clusterWide[1]?.['subjects'], [{ kind: 'ServiceAccount', name: 'hcp-infra-sa', namespace: 'hcp-infra' }]);
  });
});
