/**
 * The label on every object the operator keeps inside a hosted cluster: the guest controller lists by it to find
 * what it owns (and what to remove when the cluster's settings no longer render it).
 */
export const GUEST_MANAGED_LABELS = { 'hypershift.openshift.io/managed': 'true' } as const;
