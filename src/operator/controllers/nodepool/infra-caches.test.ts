import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeClient } from '../../../kube/client.ts';
import { KubeApiError } from '../../../kube/errors.ts';
import { ResponseTooLargeError } from '../../../kube/rest.ts';
import { realClock } from '../../../runtime/clock.ts';
import { silentLogger } from '../../../runtime/logger.ts';
import { InfraCaches } from './infra-caches.ts';

/** An infrastructure server that lists nothing once, then expires every watch and answers every list with 20 MiB. */
function turningHostile(): KubeClient {
  let lists = 0;
  return {
    listWithVersion: () => (lists++ < 5 ? Promise.resolve({ items: [], resourceVersion: '1' }) : Promise.reject(new ResponseTooLargeError('infra.example', 16 << 20))),
    watch: () => Promise.reject(new KubeApiError(410, 'Expired', 'too old resource version')),
  } as unknown as KubeClient;
}

describe('InfraCaches', () => {
  it('When a loaded cache\'s next list is too large, it should say so and tell the pools of that cluster, though no object changed', async () => {
    const told: Array<string | undefined> = [];
    const caches = new InfraCaches({ clock: realClock, logger: silentLogger, onEvent: () => undefined, onProblem: (owner) => told.push(owner) });
    const cache = caches.external('uid-of-bob', turningHostile(), 'vms');
    try {
      await cache.vms.waitForSync();
      for (let i = 0; i < 50 && cache.problem() === undefined; i++) await new Promise((r) => setTimeout(r, 20));
      assert.match(cache.problem() ?? '', /the infrastructure cluster's answer is beyond what the operator takes: the answer of infra.example is larger than 16 MiB/);
      assert.ok(told.includes('uid-of-bob'));
      assert.ok(told.every((owner) => owner === 'uid-of-bob'), 'only that cluster\'s pools are told');
    } finally {
      caches.stopAll();
    }
  });
});
