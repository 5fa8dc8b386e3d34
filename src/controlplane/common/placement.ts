import type { HostedControlPlane } from '../../api/index.ts';
import { Annotation, Label, PriorityClass } from '../../api/v1beta1/well-known.ts';

/** The priority a component's pods run at (upstream's three classes, overridable by HostedControlPlane annotations). */
export type PriorityTier = 'etcd' | 'api-critical' | 'control-plane';

/** Label on every workload the control plane runs (upstream's key and value). */
export const MANAGED_BY = { key: 'hypershift.openshift.io/managed-by', value: 'control-plane-operator' } as const;

/** Annotation carrying a hash of the Secrets and ConfigMaps a pod mounts: a changed input rolls the pods. */
export const CONFIG_HASH_ANNOTATION = 'component.hypershift.openshift.io/config-hash';

const PRIORITY: Record<PriorityTier, { readonly name: string; readonly override: string }> = {
  etcd: { name: PriorityClass.Etcd, override: Annotation.EtcdPriorityClass },
  'api-critical': { name: PriorityClass.APICritical, override: Annotation.APICriticalPriorityClass },
  'control-plane': { name: PriorityClass.ControlPlane, override: Annotation.ControlPlanePriorityClass },
};

/** Whether the control plane runs highly available (the HostedCluster's `controllerAvailabilityPolicy`). */
export const isHighlyAvailable = (hcp: HostedControlPlane): boolean => hcp.spec.controllerAvailabilityPolicy !== 'SingleReplica';

/**
 * Upstream's replica rule: 1 for SingleReplica; for HighlyAvailable 3 for etcd and API-critical pods, 2 for the rest.
 */
export function replicasFor(hcp: HostedControlPlane, tier: PriorityTier): number {
  if (!isHighlyAvailable(hcp)) return 1;
  return tier === 'control-plane' ? 2 : 3;
}

/** The pod labels of a component: its name, the control plane it belongs to, and the cluster's own labels. */
export function podLabels(hcp: HostedControlPlane, component: string): Record<string, string> {
  return { ...hcp.spec.labels, app: component, [Label.ControlPlaneComponent]: component, [Label.HostedControlPlane]: hcp.metadata.namespace ?? '' };
}

/** The selector labels of a component's workload (stable across updates: a selector cannot change). */
export const selectorLabels = (component: string): Record<string, string> => ({ app: component });

function tolerations(hcp: HostedControlPlane): unknown[] {
  return [
    { key: Label.ControlPlane, operator: 'Equal', value: 'true', effect: 'NoSchedule' },
    { key: Label.HostedCluster, operator: 'Equal', value: hcp.metadata.namespace ?? '', effect: 'NoSchedule' },
    ...(hcp.spec.tolerations ?? []),
  ];
}

function affinity(hcp: HostedControlPlane, component: string, replicas: number): Record<string, unknown> {
  const ns = hcp.metadata.namespace ?? '';
  const nodeAffinity = {
    preferredDuringSchedulingIgnoredDuringExecution: [
      { weight: 50, preference: { matchExpressions: [{ key: Label.ControlPlane, operator: 'In', values: ['true'] }] } },
      { weight: 100, preference: { matchExpressions: [{ key: Label.HostedCluster, operator: 'In', values: [ns] }] } },
    ],
  };
  const podAffinity = {
    preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: { [Label.HostedControlPlane]: ns } }, topologyKey: 'kubernetes.io/hostname' } }],
  };
  if (replicas <= 1) return { nodeAffinity, podAffinity };
  const own = { labelSelector: { matchLabels: { ...selectorLabels(component), [Label.HostedControlPlane]: ns } } };
  const podAntiAffinity = {
    requiredDuringSchedulingIgnoredDuringExecution: [{ ...own, topologyKey: 'kubernetes.io/hostname' }],
    preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { ...own, topologyKey: 'topology.kubernetes.io/zone' } }],
  };
  return { nodeAffinity, podAffinity, podAntiAffinity };
}

/**
 * Pod annotations: the config hash, the restart date (changing it rolls every pod) and, unless `withRelease` is false,
 * the release image.
 */
export function podAnnotations(hcp: HostedControlPlane, configHash: string, withRelease = true): Record<string, string> {
  const restartDate = hcp.metadata.annotations?.[Annotation.RestartDate];
  return {
    [CONFIG_HASH_ANNOTATION]: configHash,
    ...(withRelease ? { [Annotation.ReleaseImage]: hcp.spec.releaseImage } : {}),
    ...(restartDate === undefined ? {} : { [Annotation.RestartDate]: restartDate }),
  };
}

/** Scheduling of a component's pods: upstream's tolerations and affinities, the cluster's node selector, priority. */
export function podPlacement(hcp: HostedControlPlane, component: string, tier: PriorityTier, replicas = replicasFor(hcp, tier)): Record<string, unknown> {
  const priority = PRIORITY[tier];
  return {
    priorityClassName: hcp.metadata.annotations?.[priority.override] ?? priority.name,
    tolerations: tolerations(hcp),
    affinity: affinity(hcp, component, replicas),
    ...(hcp.spec.nodeSelector === undefined ? {} : { nodeSelector: hcp.spec.nodeSelector }),
  };
}

/** Upstream's disruption budget: SingleReplica keeps its one pod (minAvailable 1); HA lets one go at a time. */
export function podDisruptionBudget(hcp: HostedControlPlane, component: string): Record<string, unknown> {
  const budget = isHighlyAvailable(hcp) ? { maxUnavailable: 1 } : { minAvailable: 1 };
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: component, namespace: hcp.metadata.namespace, labels: { [MANAGED_BY.key]: MANAGED_BY.value } },
    spec: { ...budget, selector: { matchLabels: selectorLabels(component) }, unhealthyPodEvictionPolicy: 'AlwaysAllow' },
  };
}
