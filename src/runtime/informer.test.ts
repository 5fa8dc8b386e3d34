import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, ListSelector, WatchEvent, WatchFrom } from '../kube/client.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { changes, Informer, TooManyObjectsError, type InformerEvent, type ListWatcher } from './informer.ts';
import { silentLogger } from './logger.ts';

type Doc = { data?: Record<string, string>; other?: string };
const event = (type: InformerEvent<Doc>['type'], object: Doc, old?: Doc): InformerEvent<Doc> => ({ type, object, ...(old === undefined ? {} : { old }) });
const data = (d: Doc): unknown => d.data;

describe('changes', () => {
  it('When an update leaves the picked part alone, it should not count; when it changes it, it should', () => {
    assert.equal(changes(event('MODIFIED', { data: { a: '1' }, other: 'x' }, { data: { a: '1' }, other: 'y' }), data), false);
    assert.equal(changes(event('MODIFIED', { data: { a: '2' } }, { data: { a: '1' } }), data), true);
  });

  it('When an object is added or deleted, it should count even though nothing was picked differently (a deleted ConfigMap once went unheard)', () => {
    assert.equal(changes(event('ADDED', { data: { a: '1' } }), data), true);
    assert.equal(changes(event('DELETED', { data: { a: '1' } }, { data: { a: '1' } }), data), true);
  });
});

const vm = (name: string, namespace = 'guests'): KubeObject => ({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name, namespace, resourceVersion: name } });

/** A server that lists `listed` and then sends `events` on the first watch, as a server a tenant names might. */
function fakeServer(listed: KubeObject[], events: Array<WatchEvent<KubeObject>> = []): ListWatcher {
  let watches = 0;
  return {
    listWithVersion: <T extends KubeObject>() => Promise.resolve({ items: listed as T[], resourceVersion: '1' }),
    watch: <T extends KubeObject>(_selector: ListSelector, from: WatchFrom, onEvent: (event: WatchEvent<T>) => void) => {
      if (watches++ === 0) for (const e of events) onEvent(e as WatchEvent<T>);
      return new Promise<void>((resolve) => from.signal.addEventListener('abort', () => resolve()));
    },
  };
}

const selector: ListSelector = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', namespace: 'guests' };
/** Polls until `check` holds (the informer works on its own time). */
async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(check(), what);
}

describe('Informer bounds', () => {
  it('When a list holds more objects than maxObjects, it should cache none of them and report the failure', async () => {
    const informer = new Informer(fakeServer([vm('a'), vm('b'), vm('c')]), selector, { clock: new FakeClock(), logger: silentLogger, limits: { maxObjects: 2, maxBytes: Infinity } });
    informer.start();
    await until('the failure is reported', () => informer.lastError instanceof TooManyObjectsError);
    assert.equal(informer.hasSynced, false);
    assert.deepEqual(informer.list(), []);
    informer.stop();
  });

  it('When a watch would grow the cache past maxObjects, it should stop the watch with the failure instead', async () => {
    const added = (name: string): WatchEvent<KubeObject> => ({ type: 'ADDED', object: vm(name) });
    const informer = new Informer(fakeServer([vm('a')], [added('b'), added('c'), added('d')]), selector, { clock: new FakeClock(), logger: silentLogger, limits: { maxObjects: 2, maxBytes: Infinity } });
    informer.start();
    await until('the failure is reported', () => informer.lastError instanceof TooManyObjectsError);
    assert.deepEqual(informer.list().map((o) => o.metadata?.name).sort(), ['a', 'b']);
    informer.stop();
  });

  it('When objects grow past maxBytes, it should refuse the one that would cross it', async () => {
    const big = (name: string): KubeObject => ({ ...vm(name), data: { blob: 'x'.repeat(1000) } } as KubeObject);
    const informer = new Informer(fakeServer([big('a')], [{ type: 'ADDED', object: big('b') }, { type: 'ADDED', object: big('c') }]), selector, { clock: new FakeClock(), logger: silentLogger, limits: { maxObjects: 100, maxBytes: 2500 } });
    informer.start();
    await until('the failure is reported', () => informer.lastError instanceof TooManyObjectsError);
    assert.deepEqual(informer.list().map((o) => o.metadata?.name).sort(), ['a', 'b']);
    informer.stop();
  });

  it('When a relist is beyond the limits, the cache should stay as it was, with no event', async () => {
    let lists = 0;
    const server: ListWatcher = {
      listWithVersion: <T extends KubeObject>() => Promise.resolve({ items: (lists++ === 0 ? [vm('a')] : [vm('x'), vm('y'), vm('z')]) as T[], resourceVersion: String(lists) }),
      // The version expired: relist.
      watch: <T extends KubeObject>(_s: ListSelector, _f: WatchFrom, onEvent: (event: WatchEvent<T>) => void) => Promise.resolve(onEvent({ type: 'ERROR', object: { code: 410 } as unknown as T })),
    };
    const informer = new Informer(server, selector, { clock: new FakeClock(), logger: silentLogger, limits: { maxObjects: 2, maxBytes: Infinity } });
    const events: string[] = [];
    informer.onEvent((e) => events.push(`${e.type} ${e.object.metadata?.name ?? ''}`));
    informer.start();
    await until('the second list refused', () => informer.lastError instanceof TooManyObjectsError);
    assert.deepEqual([informer.list().map((o) => o.metadata?.name), events], [['a'], ['ADDED a']]);
    informer.stop();
  });

  it('When a server sends objects of another namespace than the one watched, it should ignore them', async () => {
    const informer = new Informer(fakeServer([vm('a'), vm('victim', 'clusters-other')], [{ type: 'ADDED', object: vm('b', 'kube-system') }]), selector, { clock: new FakeClock(), logger: silentLogger });
    informer.start();
    await informer.waitForSync();
    await until('the watch delivered its event', () => informer.list().length > 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(informer.list().map((o) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`), ['guests/a']);
    informer.stop();
  });
});
