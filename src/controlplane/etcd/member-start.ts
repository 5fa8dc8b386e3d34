/**
 * How an etcd member of a hosted control plane starts: the shell script its container runs before `exec etcd`.
 *
 * A member whose data folder holds a write-ahead log starts from it, whatever the flags say. A member with no data
 * (its first start, or a replaced PersistentVolumeClaim) asks the cluster through the client Service who its members
 * are. When nobody answers, what it does depends on the cluster's state ({@link EtcdClusterState}): while the cluster
 * is being created, it starts as a member of a new one; once the cluster has run, it waits, and fails after about a minute
 * (the pod restarts and tries again) rather than start an empty cluster. When the cluster answers, the member's old entry is removed (by its name, or by its peer URL
 * for an entry that never started) and the member is added afresh, to join as `existing` and receive the leader's
 * data: a member that lost its data must not vote as the member it was, and a member that never started is not
 * guaranteed to hold what the others restored or wrote.
 *
 * The script is POSIX shell (BusyBox's in our etcd image); it takes its inputs from the environment
 * ({@link MemberStartEnv}) so the same text serves every member and can be run outside a pod.
 */

/** The variables the script reads (the pod sets them; `ETCD_*` names are avoided, etcd reads those as flags). */
export const MemberStartEnv = {
  /** This member's name (the pod's name). */
  name: 'POD_NAME',
  /** This member's peer URL as the cluster lists it. */
  peerURL: 'MEMBER_PEER_URL',
  /** Where the running members answer: the client Service. */
  clusterURL: 'CLUSTER_CLIENT_URL',
  /** The member's data folder. */
  dataDir: 'MEMBER_DATA_DIR',
  /**
   * etcdctl's TLS flags for the client Service, split on spaces. Flags, not etcdctl's own `ETCDCTL_*` variables: those
   * would reach every `etcdctl` run in the container, and etcdctl refuses to start when a flag repeats a variable.
   */
  clientTLS: 'CLUSTER_CLIENT_TLS',
  /**
   * A file holding `new` while the cluster is being created and `existing` once it has run (see
   * {@link EtcdClusterState}); a missing file counts as `new`.
   */
  clusterStateFile: 'CLUSTER_STATE_FILE',
  /** How often a member with no data asks a cluster that has run before it fails (2 s apart; 15 when unset). */
  joinTries: 'JOIN_TRIES',
} as const;

/**
 * Whether the cluster may still be bootstrapped: `new` until the control plane has run once, `existing` from then on.
 * Kept outside the members' volumes, so a member that lost its data still knows. While `new`, a member with no data
 * that no cluster answers starts a new cluster (every member is starting). Once `existing`, it waits for the running
 * members and joins them, and never starts an empty cluster: two empty members of three would otherwise form one
 * (quorum) and out-vote the member that holds the data, as they did on the first try of the manual's restore.
 */
export type EtcdClusterState = 'new' | 'existing';

/** The script, run as `sh -c SCRIPT etcd <etcd flags…>`; it ends by running etcd with those flags. */
export const MEMBER_START_SCRIPT = `set -eu
# The script is the container's first process, which ignores a signal it has no handler for: told to stop while it
# waits for its cluster, it would be killed only at the end of the pod's grace period.
trap 'exit 143' TERM INT
cluster() { etcdctl --endpoints="$CLUSTER_CLIENT_URL" $CLUSTER_CLIENT_TLS "$@"; }
# etcd refuses a membership change until the leader has heard from every peer for a few seconds: a minute of tries.
retry() { tries=0; until "$@"; do tries=$((tries + 1)); [ "$tries" -lt 30 ] || return 1; sleep 2; done; }
# Asks the running members who they are, $1 times at most; the answer (or the last error) is left in $members.
ask() {
  tries=1
  until members=$(cluster --dial-timeout="$dial" --command-timeout="$wait" member list 2>&1); do
    [ "$tries" -lt "$1" ] || return 1
    echo "$POD_NAME has no data and waits for its cluster to answer (try $tries of $1)"
    tries=$((tries + 1))
    sleep 2
  done
}
cluster_state=$(cat "$CLUSTER_STATE_FILE" 2>/dev/null || echo new)
state=new
joining=
for folder in "$MEMBER_DATA_DIR" "$MEMBER_DATA_DIR/member"; do
  # Data this user cannot read must not be taken for no data (and removed below).
  if [ -e "$folder" ] && { [ ! -r "$folder" ] || [ ! -w "$folder" ] || [ ! -x "$folder" ]; }; then
    echo "$POD_NAME cannot use $folder as user $(id -u): give the folder to that user (chown -R $(id -u) $MEMBER_DATA_DIR) and restart the pod" >&2
    exit 1
  fi
done
if [ ! -d "$MEMBER_DATA_DIR/member/wal" ]; then
  # A folder without a log is what an attempt that never joined left behind (etcd opens its database first).
  rm -rf "$MEMBER_DATA_DIR"
  # A cluster being created has nobody to answer yet, and etcdctl retries a refused dial until its command times out
  # (5 s of every member's start): ask briefly, a running member on the pod network answers in milliseconds. One
  # that has run is asked patiently.
  patience=1
  dial=500ms
  wait=1s
  [ "$cluster_state" = new ] || { patience=\${JOIN_TRIES:-15}; dial=2s; wait=5s; }
  if ask "$patience"; then
    state=existing
    for id in $(echo "$members" | awk -F', ' -v name="$POD_NAME" -v url="$MEMBER_PEER_URL" '$3 == name || $4 == url { print $1 }'); do
      echo "$POD_NAME has no data: removing its old membership $id"
      retry cluster --command-timeout=10s member remove "$id"
    done
    echo "$POD_NAME has no data: adding it to the running cluster"
    added=$(retry cluster --command-timeout=10s member add "$POD_NAME" --peer-urls="$MEMBER_PEER_URL")
    # Joining, etcd wants the membership as it is (a restored cluster may have fewer members than the pod's flags list).
    joining="--initial-cluster=$(echo "$added" | sed -n 's/^ETCD_INITIAL_CLUSTER="\\(.*\\)"$/\\1/p')"
  elif [ "$cluster_state" = new ]; then
    echo "$POD_NAME has no data and no cluster answers ($(echo "$members" | tail -n 1)): starting as a member of a new cluster"
  else
    echo "$POD_NAME has no data, and its cluster, which has run, does not answer ($(echo "$members" | tail -n 1)): it will not start a new, empty one. Start the members that hold data, or restore from a backup (docs/disaster-recovery.md)." >&2
    exit 1
  fi
fi
# Flags after the pod's own win (etcd takes a repeated flag's last value).
exec etcd "$@" --initial-cluster-state="$state" $joining
`;
