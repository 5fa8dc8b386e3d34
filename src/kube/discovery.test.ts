import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Discovery } from './discovery.ts';
import { KubeApiError, UnservedKindError } from './errors.ts';
import type { RestClient } from './rest.ts';

const answering = (answer: () => unknown): RestClient => ({ call: () => Promise.resolve().then(answer) }) as unknown as RestClient;

describe('Discovery', () => {
  it('When the group-version answers 404 or lacks the kind, it should say the kind is not served', async () => {
    const missingGroup = new Discovery(answering(() => {
      throw new KubeApiError(404, 'NotFound', 'the server could not find the requested resource');
    }));
    await assert.rejects(missingGroup.resourceFor('security.openshift.io/v1', 'SecurityContextConstraints'), UnservedKindError);
    const otherKinds = new Discovery(answering(() => ({ resources: [{ name: 'routes', kind: 'Route', namespaced: true }] })));
    await assert.rejects(otherKinds.resourceFor('route.openshift.io/v1', 'RouteGroup'), UnservedKindError);
    assert.deepEqual(await otherKinds.resourceFor('route.openshift.io/v1', 'Route'), { resource: 'routes', namespaced: true });
  });

  it('When discovery cannot be read (refused, 5xx), it should throw that failure instead of concluding the kind is absent', async () => {
    const unavailable = new Discovery(answering(() => {
      throw new KubeApiError(503, 'ServiceUnavailable', 'the server is currently unable to handle the request');
    }));
    await assert.rejects(unavailable.resourceFor('security.openshift.io/v1', 'SecurityContextConstraints'), (e: unknown) => e instanceof KubeApiError && e.status === 503);
    const refused = new Discovery(answering(() => {
      throw new Error('connect ECONNREFUSED 10.0.0.1:6443');
    }));
    await assert.rejects(refused.resourceFor('v1', 'Pod'), /ECONNREFUSED/);
  });

  it('When a server answers discovery with something that lists no resources, or entries without names, it should say so or skip them, never fail on a missing field', async () => {
    const aList = new Discovery(answering(() => ({ kind: 'List', items: [] })));
    await assert.rejects(aList.resourceFor('config.openshift.io/v1', 'Network'), /GET \/apis\/config.openshift.io\/v1: the answer lists no resources: not a Kubernetes API server's discovery/);
    await assert.rejects(new Discovery(answering(() => null)).resourceFor('v1', 'Pod'), /lists no resources/);
    const odd = new Discovery(answering(() => ({ resources: [null, { kind: 'Pod' }, { name: 'pods', kind: 'Pod', namespaced: true }] })));
    assert.deepEqual(await odd.resourceFor('v1', 'Pod'), { resource: 'pods', namespaced: true });
  });
});
