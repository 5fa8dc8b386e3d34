/**
 * The label on every object the operator keeps inside a hosted cluster: the guest controller lists by it to find
 * what it owns (and what to remove when the cluster's settings no longer render it).
 */
export const GUEST_MANAGED_LABELS = { 'hypershift.openshift.io/managed': 'true' } as const;

/** Metadata of an object the operator keeps in a hosted cluster: name, namespace (namespaced kinds), the label. */
export const guestMeta = (name: string, namespace?: string): Record<string, unknown> => ({ name, ...(namespace === undefined ? {} : { namespace }), labels: GUEST_MANAGED_LABELS });

/** What differs between the DaemonSets the operator keeps in a hosted cluster. */
export interface GuestDaemonSetInput {
  readonly name: string;
  readonly namespace: string;
  /** The pods' labels, which also select them. */
  readonly labels: Readonly<Record<string, string>>;
  readonly rollingUpdate: Readonly<Record<string, unknown>>;
  readonly podAnnotations?: Readonly<Record<string, string>>;
  readonly podSpec: Readonly<Record<string, unknown>>;
}

/** A DaemonSet of the hosted cluster (rolling updates, pods selected by their labels). */
export const guestDaemonSet = (d: GuestDaemonSetInput): Record<string, unknown> => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: guestMeta(d.name, d.namespace),
  spec: {
    selector: { matchLabels: d.labels },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: d.rollingUpdate },
    template: { metadata: { labels: d.labels, ...(d.podAnnotations === undefined ? {} : { annotations: d.podAnnotations }) }, spec: d.podSpec },
  },
});
