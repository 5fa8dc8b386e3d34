import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { testClusters } from '../../testing/envtest/clusters.ts';
import { documentedInfraAccount } from '../../testing/infra.ts';

const { infra } = testClusters();
const TESTDATA = join(import.meta.dirname, 'testdata');

interface Rendered { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } }

/** Every object of the renderer's golden files: what the operator will create on infrastructure clusters. */
const goldenObjects = (): Rendered[] =>
  readdirSync(TESTDATA).filter((f) => f.endsWith('.yaml')).flatMap((f) =>
    parseAllDocuments(readFileSync(join(TESTDATA, f), 'utf8')).map((d) => d.toJS() as Rendered | null).filter((o): o is Rendered => o !== null));

describe('rendered VirtualMachines and DataVolumes on a real API server with the KubeVirt and CDI CRDs', () => {
  let account: Awaited<ReturnType<typeof documentedInfraAccount>>;
  before(async () => { account = await documentedInfraAccount(infra, 'kv-render'); });

  it('When every golden object is created as the documented external-infrastructure user, it should be accepted with strict field validation', async () => {
    const objects = goldenObjects();
    assert.ok(objects.filter((o) => o.kind === 'VirtualMachine').length >= 3, 'expected a golden VM per variant');
    for (const [index, object] of objects.entries()) {
      // Variants share machine names; the schema is what is under test, so each gets its own.
      const name = `${object.metadata.name}-${index}`;
      const created = await account.client.create({ ...object, metadata: { ...object.metadata, name, namespace: account.namespace } });
      assert.equal(created.metadata?.name, name);
    }
  });
});
