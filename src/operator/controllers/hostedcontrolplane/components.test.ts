import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostedControlPlane } from '../../../api/index.ts';
import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import { UnservedKindError } from '../../../kube/errors.ts';
import { catalogReleaseProvider } from '../../../release/catalog.ts';
import { renderHostedControlPlane } from '../../../render/hostedcluster/hostedcontrolplane.ts';
import { aHostedCluster } from '../../../testing/builders.ts';
import { silentLogger } from '../../../runtime/logger.ts';
import { TerminalError } from '../../../runtime/errors.ts';
import { applyComponents } from './components.ts';
import type { HostedControlPlaneDeps, Scope } from './scope.ts';

/** A client that accepts every apply except Routes, as a management cluster without route.openshift.io does. */
function clusterWithoutRoutes(applied: KubeObject[]): KubeClient {
  return {
    apply: (object: KubeObject) => {
      if (object.kind === 'Route') return Promise.reject(new UnservedKindError(object.apiVersion, object.kind));
      applied.push(object);
      return Promise.resolve(object);
    },
  } as unknown as KubeClient;
}

function scopeWith(client: KubeClient): Scope {
  const hcp = renderHostedControlPlane({ hc: aHostedCluster('example', 'clusters'), infraID: 'example-x' }) as unknown as HostedControlPlane;
  const deps = { client, secret: () => undefined, statefulSet: () => undefined, deployment: () => undefined, service: () => undefined, lastApplied: new Map(), assignsPodUsers: () => Promise.resolve(false) } as unknown as HostedControlPlaneDeps;
  return { deps, logger: silentLogger, hcp, now: new Date(), conditions: [], pki: new Map(), release: catalogReleaseProvider.lookup(hcp.spec.releaseImage) };
}

describe('applyComponents', () => {
  it('When a service is published by Route on a cluster without Routes, it should fail terminally with InsufficientClusterCapabilities and a fix', async () => {
    const applied: KubeObject[] = [];
    await assert.rejects(applyComponents(scopeWith(clusterWithoutRoutes(applied)), { encryptionKey: 'a2V5' }), (error: unknown) => {
      assert.ok(error instanceof TerminalError);
      assert.equal(error.reason, 'InsufficientClusterCapabilities');
      assert.match(error.message, /service konnectivity-server is published with the Route strategy, but this management cluster does not serve route\.openshift\.io\/v1 Routes: publish it with LoadBalancer or NodePort/);
      return true;
    });
    assert.ok(applied.some((o) => o.kind === 'StatefulSet'), 'what came before the Route was applied');
  });
});
