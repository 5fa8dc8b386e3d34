import assert from 'node:assert/strict';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { eventually } from './eventually.ts';

type Conditioned = KubeObject & { status?: { conditions?: Array<{ type: string; status: string; message?: string }> } };

const validRelease = async (client: KubeClient, kind: 'HostedCluster' | 'NodePool', name: string): Promise<{ status: string; message?: string } | undefined> =>
  (await client.get<Conditioned>({ apiVersion: 'hypershift.openshift.io/v1beta1', kind, name, namespace: 'clusters' })).status?.conditions?.find((c) => c.type === 'ValidReleaseImage');

/**
 * Asserts that the operator read the release of `clusters/<name>` (and of its NodePool of the same name) from a
 * registry: the conditions carry no note of the built-in catalog, which stands in only when no registry answers.
 */
export async function assertReleaseFromRegistry(client: KubeClient, name: string, image: string): Promise<void> {
  const hc = await validRelease(client, 'HostedCluster', name);
  assert.deepEqual([hc?.status, hc?.message], ['True', 'Release image is valid'], 'the HostedCluster release was read from a registry');
  const pool = await eventually(`NodePool ${name} ValidReleaseImage`, () => validRelease(client, 'NodePool', name));
  assert.equal(pool.message, `Using release image: ${image}`, 'the NodePool release was read from a registry');
}
