/**
 * Where each part of a dump goes, as `oc adm inspect` lays it out (so people and tools used to must-gather output find
 * their way): objects under `namespaces/` or `cluster-scoped-resources/`, pod logs beside the pods, the hosted cluster
 * under `hostedcluster-<name>/` and external infrastructure under `external-infra-clusters/nodepool-<uid>/`.
 */

/** The name of the archive, written inside the artifact directory (upstream's). */
export const ARCHIVE_NAME = 'hypershift-dump.tar.gz';

/** The first-problem report at the top of the artifact directory. */
export const SUMMARY_FILE = 'summary.txt';

/** A kind as the dump files it: its API group (`core` for the legacy group) and plural resource name. */
export interface FiledKind {
  readonly apiVersion: string;
  readonly resource: string;
}

/** The API group of an apiVersion as oc names its folder: `apps/v1` → `apps`, `v1` → `core`. */
export function groupFolder(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? 'core' : apiVersion.slice(0, slash);
}

/**
 * One path segment from a name the API server gave: such names cannot hold `/` or be `.`/`..`, but the dump must not
 * write outside its folder even if a server (or a proxy in front of it) sent one that did.
 */
export function safeSegment(name: string): string {
  const cleaned = name.replace(/[/\\\0]/g, '_');
  return cleaned === '' || /^\.+$/.test(cleaned) ? `_${cleaned}` : cleaned;
}

/** `namespaces/<ns>/<group>/<resource>/<name>.yaml`. */
export function namespacedObjectPath(kind: FiledKind, namespace: string, name: string): string {
  return `namespaces/${safeSegment(namespace)}/${groupFolder(kind.apiVersion)}/${kind.resource}/${safeSegment(name)}.yaml`;
}

/** `cluster-scoped-resources/<group>/<resource>/<name>.yaml`. */
export function clusterScopedObjectPath(kind: FiledKind, name: string): string {
  return `cluster-scoped-resources/${groupFolder(kind.apiVersion)}/${kind.resource}/${safeSegment(name)}.yaml`;
}

/** The path of an object: namespaced when it has a namespace. */
export function objectPath(kind: FiledKind, namespace: string | undefined, name: string): string {
  return namespace === undefined || namespace === '' ? clusterScopedObjectPath(kind, name) : namespacedObjectPath(kind, namespace, name);
}

/** Which log of a container: the running one, or the one before its last restart. */
export type LogKind = 'current' | 'previous';

/** `namespaces/<ns>/core/pods/logs/<pod>-<container>.log`, or `…-previous.log` for the log before the last restart. */
export function podLogPath(namespace: string, pod: string, container: string, which: LogKind): string {
  const suffix = which === 'previous' ? '-previous' : '';
  return `namespaces/${safeSegment(namespace)}/core/pods/logs/${safeSegment(pod)}-${safeSegment(container)}${suffix}.log`;
}

/** `namespaces/<ns>/core/secrets.yaml`: the namespace's Secrets by name, type and data keys (never values). */
export function secretListPath(namespace: string): string {
  return `namespaces/${safeSegment(namespace)}/core/secrets.yaml`;
}

/** The folder of the hosted (guest) cluster's part: `hostedcluster-<name>`. */
export function guestFolder(clusterName: string): string {
  return `hostedcluster-${safeSegment(clusterName)}`;
}

/** The folder of a NodePool's external infrastructure cluster: `external-infra-clusters/nodepool-<uid>`. */
export function externalInfraFolder(nodePoolUID: string): string {
  return `external-infra-clusters/nodepool-${safeSegment(nodePoolUID)}`;
}

/** The top-level entries of the artifact directory the archive holds: all but the archive itself, sorted. */
export function archiveEntries(topLevel: readonly string[]): string[] {
  return topLevel.filter((entry) => entry !== ARCHIVE_NAME).sort();
}
