import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, ListSelector, WatchEvent, WatchFrom } from '../../../kube/client.ts';
import type { ListWatcher } from '../../../runtime/informer.ts';
import { CollectionHub, parseCollection, type StreamMessage } from './collections.ts';

const hc = (name: string): KubeObject => ({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', metadata: { name, namespace: 'clusters', resourceVersion: '1', managedFields: [] } });

/** A cluster whose lists answer from `items` (or fail while `down`), and whose watches wait until stopped. */
function fakeCluster(items: KubeObject[]): ListWatcher & { down: boolean; watches: number; stopped: number } {
  const cluster = {
    down: false,
    watches: 0,
    stopped: 0,
    listWithVersion<T extends KubeObject>(_s: ListSelector): Promise<{ items: T[]; resourceVersion: string }> {
      if (cluster.down) return Promise.reject(new Error('connect ECONNREFUSED'));
      return Promise.resolve({ items: items as T[], resourceVersion: '1' });
    },
    watch<T extends KubeObject>(_s: ListSelector, from: WatchFrom, _on: (e: WatchEvent<T>) => void): Promise<void> {
      cluster.watches++;
      return new Promise((resolve) => from.signal.addEventListener('abort', () => resolve(void cluster.stopped++), { once: true }));
    },
  };
  return cluster;
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(check(), 'timed out');
};

describe('the console\'s shared watches', () => {
  it('When a page subscribes before the first list, it should get the list as one sync, without managedFields, then the state', async () => {
    const hub = new CollectionHub(fakeCluster([hc('a'), hc('b')]));
    const got: StreamMessage[] = [];
    const stop = hub.subscribe(parseCollection('HostedCluster'), (m) => got.push(m));
    await until(() => got.length >= 2);
    assert.deepEqual(got.map((m) => m.type), ['sync', 'state']);
    const sync = got[0] as Extract<StreamMessage, { type: 'sync' }>;
    assert.deepEqual(sync.items.map((o) => (o as KubeObject).metadata?.name), ['a', 'b']);
    assert.equal((sync.items[0] as KubeObject).metadata?.managedFields, undefined);
    stop();
    hub.close();
  });

  it('When two pages watch one collection, they should share one watch, stopped with the last page', async () => {
    const cluster = fakeCluster([hc('a')]);
    const hub = new CollectionHub(cluster);
    const first: StreamMessage[] = [];
    const second: StreamMessage[] = [];
    const stopFirst = hub.subscribe(parseCollection('HostedCluster'), (m) => first.push(m));
    await until(() => cluster.watches === 1 && first.length === 2);
    const stopSecond = hub.subscribe(parseCollection('HostedCluster'), (m) => second.push(m));
    assert.deepEqual(second.map((m) => m.type), ['sync', 'state'], 'a later page gets the list at once');
    stopFirst();
    assert.equal(cluster.stopped, 0);
    stopSecond();
    await until(() => cluster.stopped === 1);
    assert.equal(cluster.watches, 1);
  });

  it('When the cluster is unreachable and then back, the page should hear "reconnecting", then the whole list again', async () => {
    const cluster = fakeCluster([hc('a')]);
    cluster.down = true;
    const hub = new CollectionHub(cluster, { retryDelayMs: 10 });
    const got: StreamMessage[] = [];
    const stop = hub.subscribe(parseCollection('HostedCluster'), (m) => got.push(m));
    await until(() => got.some((m) => m.type === 'state' && m.state === 'reconnecting'));
    cluster.down = false;
    await until(() => got.some((m) => m.type === 'state' && m.state === 'ok'));
    assert.deepEqual(got.map((m) => (m.type === 'state' ? m.state : m.type)), ['reconnecting', 'sync', 'ok']);
    stop();
    hub.close();
  });
});
