/**
 * Restore at creation (`spec.etcd.managed.storage.restoreSnapshotURL`): two init containers before each etcd member.
 *
 * 1. `etcd-init` (the operator's image, `hcp-operator etcd-snapshot-fetch`): fetches the snapshot beside the member's
 *    data and checks it (whole, etcd's SHA-256, Secrets readable with this cluster's key), or does nothing when the
 *    member has data or the cluster has run. Upstream names its restore container `etcd-init` too.
 * 2. `etcd-restore` (the etcd image): `etcdutl snapshot restore` of what the first left, as this member of the
 *    cluster the StatefulSet lists. Every member restores the same snapshot with the same membership and token, which
 *    is etcd's way of restoring a cluster of several members: they come up as one cluster, with the snapshot's data.
 *    The revision is bumped by a billion and the history marked compacted, so watchers of the old cluster (kubelets,
 *    informers of a node that rejoins) are told to list again rather than wait for revisions that went back in time.
 *
 * Both stay in the pod template for good (the URL is immutable): once the cluster has run they do nothing, and the
 * StatefulSet does not roll when it starts.
 */
import { MemberStartEnv } from './member-start.ts';

/** Where the snapshot waits between the two init containers, on the member's volume (mounted at /var/lib). */
const RESTORE_DIR = '/var/lib/restore';
const SNAPSHOT = `${RESTORE_DIR}/snapshot.db`;
const ENCRYPTION_CONFIG_DIR = '/etc/kubernetes/encryption-config';
const CREDENTIALS_DIR = '/etc/etcd-restore/credentials';

/** The Secret the HostedCluster controller copies the restore credentials into (from the annotation's Secret). */
export const RESTORE_CREDENTIALS_SECRET = 'etcd-restore-credentials';

/** The variable holding the whole membership the restore writes (the StatefulSet's `--initial-cluster`). */
const INITIAL_CLUSTER_ENV = 'RESTORE_INITIAL_CLUSTER';

/** The variable naming the folder the snapshot waits in (on the member's volume), so the script runs outside a pod too. */
const RESTORE_DIR_ENV = 'RESTORE_DIR';

/** The restore step: nothing unless a checked snapshot waits and the member has no data. */
export const RESTORE_SCRIPT = `set -eu
snapshot="$${RESTORE_DIR_ENV}/snapshot.db"
if [ ! -f "$snapshot" ]; then echo "nothing to restore"; exit 0; fi
# A snapshot left by an attempt cut short, after the cluster has run: the member joins the running ones instead.
if [ "$(cat "\${${MemberStartEnv.clusterStateFile}:-}" 2>/dev/null || echo new)" != new ]; then echo "the cluster has run: not restoring"; rm -rf "$${RESTORE_DIR_ENV}"; exit 0; fi
if [ -d "$${MemberStartEnv.dataDir}/member/wal" ]; then echo "$${MemberStartEnv.dataDir} has data: not restoring"; rm -rf "$${RESTORE_DIR_ENV}"; exit 0; fi
rm -rf "$${RESTORE_DIR_ENV}/data"
etcdutl snapshot restore "$snapshot" --data-dir="$${RESTORE_DIR_ENV}/data" --name="$${MemberStartEnv.name}" \\
  --initial-cluster="$${INITIAL_CLUSTER_ENV}" --initial-cluster-token=etcd-cluster --initial-advertise-peer-urls="$${MemberStartEnv.peerURL}" \\
  --bump-revision=1000000000 --mark-compacted
rm -rf "$${MemberStartEnv.dataDir}"
mv "$${RESTORE_DIR_ENV}/data" "$${MemberStartEnv.dataDir}"
rm -rf "$${RESTORE_DIR_ENV}"
echo "$${MemberStartEnv.name} restored from the snapshot"
`;

/** The restore step's own variables (besides the member's): where the snapshot waits, and the membership it writes. */
export const RestoreEnv = { dir: RESTORE_DIR_ENV, initialCluster: INITIAL_CLUSTER_ENV } as const;

/** The URL without its query (a pre-signed URL's signature and access key ID), for messages. */
export const redactedURL = (url: string): string => url.replace(/[?#].*$/, '');

/** The names of the restore's init containers, in order. */
export const RESTORE_CONTAINERS = ['etcd-init', 'etcd-restore'] as const;

/** What the restore containers are made from. */
export interface RestoreInput {
  readonly url: string;
  readonly operatorImage: string;
  readonly etcdImage: string;
  /** The member's environment (POD_NAME, MEMBER_PEER_URL, MEMBER_DATA_DIR, CLUSTER_STATE_FILE…). */
  readonly memberEnv: readonly unknown[];
  readonly initialCluster: string;
  /** The etcd container's mounts of its volume and the cluster-state ConfigMap. */
  readonly dataMount: unknown;
  readonly clusterStateMount: unknown;
  readonly clusterStateFile: string;
  readonly securityContext: unknown;
}

const REQUESTS = { requests: { cpu: '10m', memory: '64Mi' } };

/** The two init containers. */
export function restoreInitContainers(input: RestoreInput): Array<Record<string, unknown>> {
  const fetch = {
    name: RESTORE_CONTAINERS[0],
    image: input.operatorImage,
    command: ['hcp-operator', 'etcd-snapshot-fetch'],
    args: [
      `--url=${input.url}`,
      `--data-dir=${dataDirOf(input.memberEnv)}`,
      `--out=${SNAPSHOT}`,
      `--cluster-state-file=${input.clusterStateFile}`,
      `--encryption-config=${ENCRYPTION_CONFIG_DIR}/config.yaml`,
      `--credentials-file=${CREDENTIALS_DIR}/credentials`,
      `--ca-file=${CREDENTIALS_DIR}/ca-bundle.pem`,
    ],
    resources: REQUESTS,
    securityContext: input.securityContext,
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [input.dataMount, input.clusterStateMount, { name: 'encryption-config', mountPath: ENCRYPTION_CONFIG_DIR, readOnly: true }, { name: 'restore-credentials', mountPath: CREDENTIALS_DIR, readOnly: true }],
  };
  const restore = {
    name: RESTORE_CONTAINERS[1],
    image: input.etcdImage,
    command: ['/bin/sh', '-c', RESTORE_SCRIPT],
    env: [...input.memberEnv, { name: INITIAL_CLUSTER_ENV, value: input.initialCluster }, { name: RESTORE_DIR_ENV, value: RESTORE_DIR }],
    resources: REQUESTS,
    securityContext: input.securityContext,
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [input.dataMount, input.clusterStateMount],
  };
  return [fetch, restore];
}

/** The volumes only the restore mounts: the API server's encryption configuration and the optional credentials. */
export function restoreVolumes(encryptionConfigSecret: string): unknown[] {
  return [
    { name: 'encryption-config', secret: { secretName: encryptionConfigSecret, defaultMode: 0o640 } },
    { name: 'restore-credentials', secret: { secretName: RESTORE_CREDENTIALS_SECRET, defaultMode: 0o640, optional: true } },
  ];
}

const dataDirOf = (env: readonly unknown[]): string => String((env as Array<{ name: string; value?: string }>).find((e) => e.name === MemberStartEnv.dataDir)?.value ?? '');
