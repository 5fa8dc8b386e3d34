import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { HostedControlPlane } from '../api/index.ts';
import { catalogReleaseProvider, type ReleaseInfo } from '../release/catalog.ts';
import { renderHostedControlPlane } from '../render/hostedcluster/hostedcontrolplane.ts';
import { aHostedCluster } from '../testing/builders.ts';
import { renderControlPlane } from './render.ts';

/** What `./dev bench local-up --record` measured: per component, the largest RSS of one pod, in MiB. */
const MEASURED = join(import.meta.dirname, '..', '..', 'bench', 'local-up', 'memory-measured.json');
/** Components the bench's local release does not run (no KubeVirt cloud provider or CSI image in it): not measured. */
const NOT_MEASURED = ['kubevirt-cloud-controller-manager', 'kubevirt-csi-controller'];
/** How far above what was measured a request may be before it reserves memory nobody uses. */
const HEADROOM = { factor: 1.6, mib: 32 };

type Container = { resources?: { requests?: { memory?: string } } };
type Workload = { kind: string; metadata: { name: string }; spec: { template: { spec: { containers: Container[] } } } };

const MIB: Record<string, number> = { Mi: 1, Gi: 1024 };
function mebibytes(quantity: string | undefined): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity ?? '');
  assert.ok(match !== null, `a memory request in Mi or Gi, not ${String(quantity)}`);
  return Number(match[1]) * (MIB[match[2] ?? ''] ?? 0);
}

const HASHES = { etcd: 'e', 'kube-apiserver': 'k', 'kube-controller-manager': 'c', 'kube-scheduler': 's', 'kubevirt-cloud-controller-manager': 'v', 'kubevirt-csi-controller': 'd', 'ignition-server': 'i' };

/** Each rendered workload's memory request per pod (its containers' sum), in MiB. */
function podRequests(policy: 'HighlyAvailable' | 'SingleReplica'): Map<string, number> {
  const release = catalogReleaseProvider.lookup('quay.io/openshift-release-dev/ocp-release:4.17.0-multi') as ReleaseInfo;
  const hc = aHostedCluster('example', 'clusters');
  hc.spec.controllerAvailabilityPolicy = policy;
  const hcp = renderHostedControlPlane({ hc, infraID: 'example-x' }) as unknown as HostedControlPlane;
  const objects = renderControlPlane({ hcp, release, configHashes: HASHES, encryptionKey: 'a2V5', ignitionServer: { image: 'operator', apiServerURL: 'https://api.example.com:6443' } }) as unknown as Workload[];
  const workloads = objects.filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet');
  return new Map(workloads.map((w) => [w.metadata.name, w.spec.template.spec.containers.reduce((sum, c) => sum + mebibytes(c.resources?.requests?.memory), 0)]));
}

describe('control-plane memory requests against the bench', () => {
  it('When the bench has measured each component, its rendered memory request should cover the largest pod seen and not reserve far more', () => {
    assert.ok(existsSync(MEASURED), `${MEASURED} missing: run ./dev bench local-up --record`);
    const measured = (JSON.parse(readFileSync(MEASURED, 'utf8')) as { largestPodMiB: Record<string, number> }).largestPodMiB;
    for (const policy of ['SingleReplica', 'HighlyAvailable'] as const) {
      const requests = podRequests(policy);
      assert.deepEqual([...requests.keys()].filter((c) => measured[c] === undefined).sort(), NOT_MEASURED, `${policy}: every other component is measured`);
      for (const [component, mib] of Object.entries(measured)) {
        const request = requests.get(component);
        assert.ok(request !== undefined, `${component} was measured but is not rendered`);
        assert.ok(request >= mib, `${policy} ${component}: request ${String(request)} MiB < measured ${String(mib)} MiB`);
        assert.ok(request <= Math.max(mib * HEADROOM.factor, mib + HEADROOM.mib), `${policy} ${component}: request ${String(request)} MiB reserves far more than the ${String(mib)} MiB measured`);
      }
    }
  });
});
