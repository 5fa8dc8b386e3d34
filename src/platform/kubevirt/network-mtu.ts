import type { HostedControlPlane } from '../../api/index.ts';
import { ALL_IS_WELL_MESSAGE, HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../api/v1beta1/conditions.ts';
import type { ConditionUpdate } from '../../lib/conditions.ts';
import { declaredOverlayMTU } from '../../api/v1beta1/network-type.ts';

/** The infrastructure MTU the manual recommends for KubeVirt clusters (§3.3.1.1: "MTU 9000 or greater"). */
export const RECOMMENDED_INFRA_MTU = 9000;
/** What OVN-Kubernetes' encapsulation takes from the infrastructure's MTU: a guest overlay MTU below 9000 - 200 means a smaller infrastructure MTU. */
const OVN_OVERHEAD = 200;


/**
 * `ValidKubeVirtInfraNetworkMTU`, upstream's rule: for a KubeVirt cluster on OVN-Kubernetes whose overlay MTU is known,
 * an overlay below 8800 bytes means the infrastructure network is under 9000 and the double encapsulation fragments.
 * Upstream reads the overlay MTU from the guest's network operator; this operator runs none, so it takes the MTU the
 * cluster declares. Undefined (no condition, as upstream) when there is nothing to judge by.
 */
export function infraNetworkMTUCondition(hcp: HostedControlPlane): ConditionUpdate | undefined {
  const mtu = hcp.spec.platform.type === 'KubeVirt' ? declaredOverlayMTU(hcp) : undefined;
  if (mtu === undefined) return undefined;
  const type = Type.ValidKubeVirtInfraNetworkMTU.value;
  if (mtu >= RECOMMENDED_INFRA_MTU - OVN_OVERHEAD) return { type, status: 'True', reason: Reason.AsExpected.value, message: ALL_IS_WELL_MESSAGE };
  const message = `A suboptimal MTU size has been detected (the cluster's OVN-Kubernetes MTU is ${String(mtu)}). For performance, set an MTU of ${String(RECOMMENDED_INFRA_MTU)} bytes or greater on the infrastructure cluster that hosts the KubeVirt VirtualMachines, and an OVN-Kubernetes MTU of up to ${String(RECOMMENDED_INFRA_MTU - OVN_OVERHEAD)} here. With smaller MTUs the cluster still works, but the double encapsulation of OVN-Kubernetes fragments packets and network performance degrades.`;
  return { type, status: 'False', reason: Reason.KubeVirtSuboptimalMTUDetected.value, message };
}
