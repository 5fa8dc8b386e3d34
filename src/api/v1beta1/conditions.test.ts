import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  HostedClusterConditionReason,
  HostedClusterConditionType,
  NodePoolConditionReason,
  NodePoolConditionType,
  type CatalogueEntry,
} from './conditions.ts';

const values = (c: Record<string, CatalogueEntry>): string[] => Object.values(c).map((e) => e.value);

describe('condition catalogue', () => {
  it('When listing HostedCluster types, it should hold the KubeVirt-specific ones with their exact strings', () => {
    for (const t of ['ValidKubeVirtInfraNetworkPolicyRBAC', 'KubeVirtNodesLiveMigratable', 'ValidKubeVirtInfraNetworkMTU', 'Available', 'Progressing', 'ReconciliationActive', 'ValidConfiguration']) {
      assert.ok(values(HostedClusterConditionType).includes(t), t);
    }
  });

  it('When listing reasons, it should hold upstream strings users match on', () => {
    for (const r of ['AsExpected', 'ReconciliationPaused', 'InfraClusterNetworkPolicyCreateFailed', 'KubeVirtSuboptimalMTUDetected', 'WaitingForGracePeriod']) {
      assert.ok(values(HostedClusterConditionReason).includes(r), r);
    }
    assert.ok(values(NodePoolConditionReason).includes('ignitionNotReached'));
    assert.ok(values(NodePoolConditionType).includes('performance.operator.openshift.io/Degraded'));
  });

  for (const [name, catalogue] of Object.entries({ HostedClusterConditionType, HostedClusterConditionReason, NodePoolConditionType, NodePoolConditionReason })) {
    it(`When reading ${name}, every entry should have a one-line doc and no duplicate value`, () => {
      const entries = Object.values(catalogue as Record<string, CatalogueEntry>);
      for (const e of entries) {
        assert.ok(e.doc.length > 10 && !e.doc.includes('\n'), e.value);
        assert.equal(typeof e.selfHealing, 'boolean');
      }
      assert.equal(new Set(entries.map((e) => e.value)).size, entries.length);
    });
  }
});
