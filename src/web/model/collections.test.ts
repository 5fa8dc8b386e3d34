import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyMessage, itemsOf, problemsOf, type Collections } from './collections.ts';

const obj = (name: string, rv = '1'): { metadata: { name: string; namespace: string; resourceVersion: string } } => ({ metadata: { name, namespace: 'ns', resourceVersion: rv } });

describe('the page\'s watched collections', () => {
  it('When the stream syncs, changes and deletes, the collection should follow, and other collections stay as they were', () => {
    let c: Collections = new Map();
    c = applyMessage(c, { type: 'sync', collection: 'NodePool', items: [obj('p')] });
    c = applyMessage(c, { type: 'sync', collection: 'HostedCluster', items: [obj('a'), obj('b')] });
    const pools = c.get('NodePool');
    c = applyMessage(c, { type: 'change', collection: 'HostedCluster', change: 'MODIFIED', object: obj('a', '2') });
    c = applyMessage(c, { type: 'change', collection: 'HostedCluster', change: 'DELETED', object: obj('b') });
    c = applyMessage(c, { type: 'change', collection: 'HostedCluster', change: 'ADDED', object: obj('c') });
    assert.deepEqual(itemsOf<ReturnType<typeof obj>>(c, 'HostedCluster').map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`), ['a@2', 'c@1']);
    assert.equal(c.get('NodePool'), pools);
    assert.equal(c.get('HostedCluster')?.state, 'ok');
  });

  it('When collections are forbidden or reconnecting, the problems should list each message once', () => {
    let c: Collections = new Map();
    for (const collection of ['HostedCluster', 'NodePool']) c = applyMessage(c, { type: 'state', collection, state: 'reconnecting', message: 'lost the API server; reconnecting' });
    c = applyMessage(c, { type: 'state', collection: 'Pod@x', state: 'forbidden', message: 'forbidden: you may not list Pod in namespace x' });
    assert.deepEqual(problemsOf(c).map((p) => p.message), ['lost the API server; reconnecting', 'forbidden: you may not list Pod in namespace x']);
    c = applyMessage(applyMessage(c, { type: 'state', collection: 'HostedCluster', state: 'ok', message: '' }), { type: 'state', collection: 'NodePool', state: 'ok', message: '' });
    assert.deepEqual(problemsOf(c).map((p) => p.state), ['forbidden']);
  });
});
