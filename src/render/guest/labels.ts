/**
 * The label on every object the operator keeps inside a hosted cluster: the guest controller lists by it to find
 * what it owns (and what to remove when the cluster's settings no longer render it).
 */
export const GUEST_MANAGED_LABELS = { 'hypershift.openshift.io/managed': 'true' } as const;

/** Metadata of an object the operator keeps in a hosted cluster: name, namespace (namespaced kinds), the label. */
export const guestMeta = (name: string, namespace?: string): Record<string, unknown> => ({ name, ...(namespace === undefined ? {} : { namespace }), labels: GUEST_MANAGED_LABELS });
