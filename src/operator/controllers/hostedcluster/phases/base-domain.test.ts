import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedCluster } from '../../../../api/index.ts';
import { KubeApiError } from '../../../../kube/errors.ts';
import type { ConditionUpdate } from '../../../../lib/conditions.ts';
import { aHostedCluster } from '../../../../testing/builders.ts';
import type { Scope } from '../scope.ts';
import { baseDomainPhase } from './base-domain.ts';

const CREATED = Date.parse('2026-11-26T10:00:00Z');

/**
 * A management cluster that serves Routes and keeps the temporary one: its host is whatever `host()` says at each
 * read (a router may write it late); deletions are recorded.
 */
function world(host: () => string | undefined, created: string | null = new Date(CREATED).toISOString()): { scope: (now: number) => Scope; conditions: ConditionUpdate[]; deleted: string[]; patched: unknown[] } {
  const conditions: ConditionUpdate[] = [];
  const deleted: string[] = [];
  const patched: unknown[] = [];
  const hc: HostedCluster = aHostedCluster('demo', 'clusters');
  hc.metadata.generation = 1;
  const route = (): object => ({ apiVersion: 'route.openshift.io/v1', kind: 'Route', metadata: { name: 'kubevirt-infra-temp-route', namespace: 'clusters', ...(created === null ? {} : { creationTimestamp: created }) }, spec: { host: host() } });
  let exists = false;
  const client = {
    create: () => {
      if (exists) return Promise.reject(new KubeApiError(409, 'AlreadyExists', 'routes.route.openshift.io "kubevirt-infra-temp-route" already exists'));
      exists = true;
      return Promise.resolve(route());
    },
    get: () => Promise.resolve(route()),
    delete: (ref: { name: string }) => {
      exists = false;
      deleted.push(ref.name);
      return Promise.resolve();
    },
    mergePatch: (_ref: unknown, patch: { spec: { dns: { baseDomain: string } } }) => {
      patched.push(patch);
      return Promise.resolve({ ...hc, spec: { ...hc.spec, dns: patch.spec.dns } });
    },
  };
  const logger = { info: () => undefined };
  const scope = (now: number): Scope => ({ hc, now: new Date(now), conditions, logger, deps: { client } }) as unknown as Scope;
  return { scope, conditions, deleted, patched };
}

describe('the base-domain discovery', () => {
  it('When the temporary Route has no host yet, it should keep the Route and look again in a second; once a router writes it, take the domain', async () => {
    const router: { host?: string } = {};
    const { scope, deleted, patched } = world(() => router.host);
    assert.deepEqual(await baseDomainPhase.run(scope(CREATED + 500)), { stop: true, requeueAfterMs: 1_000 });
    assert.deepEqual(deleted, [], 'the Route is kept for the router');
    router.host = 'kubevirt-infra-temp-route-clusters.apps.infra.example.com';
    assert.equal(await baseDomainPhase.run(scope(CREATED + 1_500)), undefined);
    assert.deepEqual(patched, [{ spec: { dns: { baseDomain: 'apps.infra.example.com' } } }]);
    assert.deepEqual(deleted, ['kubevirt-infra-temp-route']);
  });

  it('When no router gives the Route a host within 30 s, it should delete it and say so with upstream\'s message', async () => {
    const { scope, conditions, deleted } = world(() => undefined);
    assert.equal((await baseDomainPhase.run(scope(CREATED + 29_000)))?.requeueAfterMs, 1_000);
    assert.deepEqual(await baseDomainPhase.run(scope(CREATED + 30_000)), { stop: true });
    assert.deepEqual(deleted, ['kubevirt-infra-temp-route']);
    assert.equal(conditions.at(-1)?.status, 'False');
    assert.equal(conditions.at(-1)?.message, 'unable to autodetect kubevirt platform base domain, temporary route is not giving a host value');
  });

  it('When the infrastructure server gives the Route no creation time, it should not wait for a host for ever: it should delete the Route and say so', async () => {
    const { scope, conditions, deleted } = world(() => undefined, null);
    assert.deepEqual(await baseDomainPhase.run(scope(CREATED)), { stop: true });
    assert.deepEqual(deleted, ['kubevirt-infra-temp-route']);
    assert.equal(conditions.at(-1)?.message, 'unable to autodetect kubevirt platform base domain, temporary route is not giving a host value');
  });
});
