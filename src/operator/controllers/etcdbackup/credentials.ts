/**
 * Whose bucket credentials a backup uses. An HCPEtcdBackup made by hand lives in the control plane's namespace, which
 * only a platform admin writes: its credentials are a Secret of the operator's namespace, as upstream has it. A
 * scheduled backup is asked for by the HostedCluster's spec, which its tenant writes: were its credentials looked up
 * there too, a tenant could name another tenant's bucket credentials and key prefix, and with `maxSnapshots: 1` have
 * retention delete the other's snapshots. So a scheduled backup's credentials are a Secret of the HostedCluster's own
 * namespace (what its tenant may read anyway), or a Secret of the operator's namespace that a platform admin shares
 * with that namespace ({@link OurAnnotation.EtcdBackupSharedWith}), which then writes only under the HostedCluster's
 * own prefix.
 * Pure.
 */
import type { KubeObject } from '../../../kube/client.ts';
import { OurAnnotation } from '../../../api/v1beta1/well-known.ts';

/** A credentials Secret as read. */
export type CredentialsSecret = KubeObject & { data?: Record<string, string> };

/**
 * Where a backup's credentials come from — the operator's namespace (a backup made by hand), the HostedCluster's
 * (`tenant`, copied for the Job) or a Secret shared with it — or why there are none it may use.
 */
export type BackupCredentials =
  | { readonly kind: 'operator' | 'tenant' | 'shared'; readonly secret: CredentialsSecret }
  | { readonly kind: 'unusable'; readonly state: 'absent' | 'no-key' | 'refused'; readonly message: string };

const noKey = (where: string): string => `credentials Secret ${where} has no key "credentials" (an AWS credentials file)`;

/** The credentials of a backup made by hand: the Secret the storage names, in the operator's namespace. */
export function manualCredentials(secret: CredentialsSecret | undefined, where: string): BackupCredentials {
  if (secret === undefined) return { kind: 'unusable', state: 'absent', message: `credentials Secret ${where} not found: create it in the operator's namespace with the key "credentials"` };
  return secret.data?.['credentials'] === undefined ? { kind: 'unusable', state: 'no-key', message: noKey(where) } : { kind: 'operator', secret };
}

/** What the choice reads. */
export interface ScheduledCredentialsInput {
  /** The Secret the storage names, in the HostedCluster's namespace. */
  readonly tenant: CredentialsSecret | undefined;
  /** The Secret of that name in the operator's namespace. */
  readonly operator: CredentialsSecret | undefined;
  readonly name: string;
  /** Whose schedule it is. */
  readonly hostedCluster: { readonly namespace: string; readonly name: string };
  /** The key prefix the HostedCluster's spec asked for (before the schedule's folder is added). */
  readonly keyPrefix: string;
}

const sharedWith = (secret: CredentialsSecret, namespace: string): boolean =>
  (secret.metadata?.annotations?.[OurAnnotation.EtcdBackupSharedWith] ?? '').split(',').map((n) => n.trim()).includes(namespace);

/**
 * The key prefix shared credentials may write under: the HostedCluster's `<namespace>/<name>`. Not the control-plane
 * namespace's name, which `<namespace>-<name>` gives to clusters of other namespaces over time (`team/east-prod`, then
 * `team-east/prod`); a namespace is one tenant's.
 */
export const sharedPrefixOf = (hc: { readonly namespace: string; readonly name: string }): string => `${hc.namespace}/${hc.name}`;

/** Whether a key prefix is the HostedCluster's own (its shared prefix, or below it). */
export const ownPrefix = (keyPrefix: string, hc: { readonly namespace: string; readonly name: string }): boolean => {
  const prefix = keyPrefix.replace(/\/+$/, '');
  const own = sharedPrefixOf(hc);
  return prefix === own || prefix.startsWith(`${own}/`);
};

/** The credentials a scheduled backup may use (see the module's comment). */
export function scheduledCredentials(input: ScheduledCredentialsInput): BackupCredentials {
  const tenantWhere = `${input.hostedCluster.namespace}/${input.name}`;
  const usable = (secret: CredentialsSecret, where: string): string | undefined => (secret.data?.['credentials'] === undefined ? noKey(where) : undefined);
  if (input.tenant !== undefined) {
    const problem = usable(input.tenant, tenantWhere);
    return problem === undefined ? { kind: 'tenant', secret: input.tenant } : { kind: 'unusable', state: 'no-key', message: problem };
  }
  if (input.operator !== undefined && sharedWith(input.operator, input.hostedCluster.namespace)) {
    if (!ownPrefix(input.keyPrefix, input.hostedCluster)) {
      return { kind: 'unusable', state: 'refused', message: `credentials shared by the platform admin write only under the HostedCluster's own prefix: set keyPrefix to ${sharedPrefixOf(input.hostedCluster)} (or a path below it), not ${input.keyPrefix}` };
    }
    const problem = usable(input.operator, `${input.name} (shared)`);
    return problem === undefined ? { kind: 'shared', secret: input.operator } : { kind: 'unusable', state: 'no-key', message: problem };
  }
  return {
    kind: 'unusable',
    state: 'absent',
    message: `credentials Secret ${tenantWhere} not found: a scheduled backup reads its credentials from the HostedCluster's namespace (key "credentials"), or from a Secret a platform admin shares with it (annotation ${OurAnnotation.EtcdBackupSharedWith})`,
  };
}
