import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { holdsRendered } from './drift.ts';

describe('holdsRendered', () => {
  const rendered = { metadata: { name: 'coredns', labels: { a: '1' } }, spec: { replicas: 2, containers: [{ name: 'c', args: ['-conf', 'x'] }] } };

  it('When the server added fields and defaults, it should still hold what was rendered', () => {
    const live = { metadata: { name: 'coredns', labels: { a: '1', b: '2' }, uid: 'u' }, spec: { replicas: 2, containers: [{ name: 'c', args: ['-conf', 'x'], imagePullPolicy: 'IfNotPresent' }] }, status: {} };
    assert.equal(holdsRendered(live, rendered), true);
  });

  it('When a rendered value changed, a field is gone or a list grew, it should be drift', () => {
    assert.equal(holdsRendered({ ...rendered, spec: { ...rendered.spec, replicas: 0 } }, rendered), false);
    assert.equal(holdsRendered({ metadata: { name: 'coredns' }, spec: rendered.spec }, rendered), false);
    assert.equal(holdsRendered({ ...rendered, spec: { ...rendered.spec, containers: [{ name: 'c', args: ['-conf', 'x', '-v'] }] } }, rendered), false);
    assert.equal(holdsRendered(undefined, rendered), false);
  });
});
