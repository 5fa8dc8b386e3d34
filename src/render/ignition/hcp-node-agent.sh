#!/bin/bash
# hcp-node-agent: applies in-place NodePool updates to this machine's kubelet (docs/node-image.md, "In-place updates").
# Rendered by src/render/ignition/node-agent.ts. Usage: hcp-node-agent [--once]
# No set -x, no curl -v: the agent handles the kubelet's key and registry passwords, and its output goes to the journal.
set -u

ROOT=${HCP_NODE_ROOT:-}
# The kubelet names its Node after the host name, lowercased.
NODE=${HCP_NODE_NAME:-${HOSTNAME,,}}
CTR=${HCP_CTR:-ctr}
SOCKET=${HCP_CONTAINERD_SOCKET:-@@NodePaths.containerdSocket@@}
REGISTRY_HOSTS=${HCP_REGISTRY_HOSTS:-@@NodePaths.registryHosts@@}
RESTART=${HCP_KUBELET_RESTART:-systemctl restart kubelet}
HEALTHZ=${HCP_KUBELET_HEALTHZ:-http://127.0.0.1:10248/healthz}
HEALTHZ_SECONDS=${HCP_KUBELET_HEALTHZ_SECONDS:-120}
INTERVAL=${HCP_AGENT_INTERVAL:-10}

KUBELET=$ROOT@@NodePaths.kubelet@@
CA=$ROOT@@NodePaths.clusterCA@@
BOOTSTRAP_KUBECONFIG=$ROOT@@NodePaths.bootstrapKubeconfig@@
# The kubelet's own identity (system:node:<name>): the Node authorizer and NodeRestriction let it change its own Node
# only, so the agent holds no credential of its own.
CREDENTIAL=$ROOT@@KUBELET_CLIENT_PEM@@
PULL_SECRET=$ROOT@@NodePaths.pullSecret@@
# A containerd namespace of the agent's own: the kubelet's images (k8s.io) are neither seen nor collected.
NAMESPACE=hcp-node-agent

DESIRED=@@InPlaceAnnotations.desiredConfig@@
CURRENT=@@InPlaceAnnotations.currentConfig@@
STATE=@@InPlaceAnnotations.state@@
REASON=@@InPlaceAnnotations.reason@@
IMAGE=@@InPlaceAnnotations.kubeletImage@@

# Set by the steps (functions run in the shell itself, never in $(...), so that these reach the caller): why the
# update failed (one line, for the reason annotation), the image's manifest, the new kubelet's version, the pull
# secret's user:password for the image's registry, the API server's URL.
FAILURE=''
MANIFEST=''
VERSION=''
USER_PASS=''
SERVER=''

log() { printf '%s\n' "$*"; }

# Records why the update failed and fails.
fail() {
  FAILURE=$1
  log "$1"
  return 1
}

# The last non-empty line of a file: what a failed command said last.
last_line() {
  local line last=''
  while IFS= read -r line || [[ -n $line ]]; do
    if [[ -n $line ]]; then last=$line; fi
  done <"$1"
  printf '%s' "$last"
}

# Bounded, so that a registry that stops answering cannot stall the agent: the next pass tries again.
ctr_() { "$CTR" --address "$SOCKET" --namespace "$NAMESPACE" --timeout 10m "$@"; }

# The API server's URL: the server of the bootstrap kubeconfig the served config wrote.
read_server() {
  local key value
  while read -r key value; do
    if [[ $key == server: ]]; then
      SERVER=${value//'"'/}
      return 0
    fi
  done <"$BOOTSTRAP_KUBECONFIG"
  log "$BOOTSTRAP_KUBECONFIG names no server"
  return 1
}

# Calls the hosted API server as the kubelet: api METHOD PATH [MERGE-PATCH]. Prints the answer; curl says why not.
api() {
  local args=(
    --silent --show-error --fail --connect-timeout 5 --max-time 30
    --cacert "$CA" --cert "$CREDENTIAL" --key "$CREDENTIAL" --request "$1"
  )
  if (($# > 2)); then args+=(--header 'Content-Type: application/merge-patch+json' --data-binary "$3"); fi
  curl "${args[@]}" "$SERVER$2"
}

# Merge-patches the Node's annotations: each argument is key=value, or key= to remove the annotation.
annotate() {
  local patch
  patch=$(jq -cn '{metadata: {annotations: ($ARGS.positional
    | map(capture("^(?<key>[^=]*)=(?<value>.*)$") | .value |= (if . == "" then null else . end))
    | from_entries)}}' --args "$@") || return 1
  api PATCH "/api/v1/nodes/$NODE" "$patch" >/dev/null
}

# The image reference as containerd wants it: registry, repository and a tag or digest, all spelled out.
qualified_reference() {
  local ref=$1 first=${1%%/*}
  if [[ $ref != */* ]]; then
    ref=docker.io/library/$ref
  elif [[ $first != *.* && $first != *:* && $first != localhost ]]; then
    ref=docker.io/$ref
  fi
  if [[ $ref != *@* && ${ref##*/} != *:* ]]; then ref=$ref:latest; fi
  printf '%s' "$ref"
}

# The pull secret's entry for a registry (keys may be hosts or URLs; Docker Hub has several names): "auth <base64>",
# "plain <user:password>", or nothing.
# shellcheck disable=SC2016 # jq's variables, not the shell's
CREDENTIALS_FILTER='
  def host: sub("^https?://"; "") | split("/")[0];
  (if $registry == "docker.io" then ["docker.io", "index.docker.io", "registry-1.docker.io"] else [$registry] end) as $names
  | [(.auths // {}) | to_entries[] | select((.key | host) as $h | $names | any(. == $h)) | .value][0]
  | if . == null then empty
    elif (.auth // "") != "" then "auth " + .auth
    elif (.username | type) == "string" and (.password | type) == "string" then "plain " + .username + ":" + .password
    else empty end'

# Sets USER_PASS to the pull secret's credentials for a registry; empty when it has none.
pull_secret_credentials() {
  local entry
  USER_PASS=''
  if [[ ! -f $PULL_SECRET ]]; then return 0; fi
  entry=$(jq -r --arg registry "$1" "$CREDENTIALS_FILTER" "$PULL_SECRET" 2>/dev/null) || { fail "the pull secret $PULL_SECRET is not a Docker config JSON"; return; }
  case $entry in
    'auth '*) USER_PASS=$(base64 -d <<<"${entry#auth }" 2>/dev/null) ;;
    'plain '*) USER_PASS=${entry#plain } ;;
  esac
  if [[ -n $entry && $USER_PASS != *:* ]]; then fail "the pull secret's entry for $1 is not a user name and password"; return; fi
}

pull_image() {
  local ref=$1 work=$2 registry=${1%%/*}
  local args=(images pull --local --hosts-dir "$REGISTRY_HOSTS")
  pull_secret_credentials "$registry" || return
  if [[ -n $USER_PASS ]]; then args+=(--user "$USER_PASS"); fi
  log "Pulling $ref${USER_PASS:+ with credentials for $registry from the pull secret}"
  # ctr's progress goes nowhere; its last error line becomes the reason.
  if ! ctr_ "${args[@]}" "$ref" >/dev/null 2>"$work/ctr.log"; then
    fail "pulling $ref failed: $(last_line "$work/ctr.log")"
    return
  fi
}

# Sets MANIFEST to the image's manifest for this machine's platform (an index's linux/<arch> entry), from the
# pulled content.
image_manifest() {
  local ref=$1 work=$2 name digest blob arch
  while read -r name _ digest _; do
    if [[ $name == "$ref" ]]; then break; fi
    digest=''
  done < <(ctr_ images ls 2>/dev/null)
  if [[ -z ${digest:-} ]]; then fail "containerd lists no image $ref after pulling it"; return; fi
  blob=$(ctr_ content get "$digest" 2>"$work/ctr.log") || { fail "reading $digest of $ref failed: $(last_line "$work/ctr.log")"; return; }
  case $(uname -m) in
    x86_64) arch=amd64 ;;
    aarch64) arch=arm64 ;;
    *) arch=$(uname -m) ;;
  esac
  if [[ $(jq -r 'has("manifests")' <<<"$blob") == true ]]; then
    digest=$(jq -r --arg arch "$arch" '[.manifests[] | select(.platform.os == "linux" and .platform.architecture == $arch)][0].digest // ""' <<<"$blob")
    if [[ -z $digest ]]; then fail "image $ref has no linux/$arch manifest"; return; fi
    blob=$(ctr_ content get "$digest" 2>"$work/ctr.log") || { fail "reading $digest of $ref failed: $(last_line "$work/ctr.log")"; return; }
  fi
  MANIFEST=$blob
}

# The first line tar wrote that is not about the kubelet missing from a layer (most layers do not hold it).
tar_error() {
  local line
  while IFS= read -r line; do
    case $line in
      '' | *'Not found in archive'* | *'Exiting with failure status due to previous errors'*) ;;
      *) printf '%s' "$line"; return ;;
    esac
  done <"$1"
}

# Extracts the layer's usr/bin/kubelet, if it holds one, over what earlier layers gave: the last one wins.
unpack_layer() {
  local digest=$1 media=$2 work=$3 gzip=() status problem
  case $media in
    *gzip) gzip=(--gzip) ;;
    *tar) ;;
    *) fail "layer $digest is $media: only tar and gzip layers can be read"; return ;;
  esac
  ctr_ content get "$digest" 2>"$work/ctr.log" |
    tar -x "${gzip[@]}" -f - -C "$work/root" --no-same-owner usr/bin/kubelet ./usr/bin/kubelet 2>"$work/tar.log"
  status=${PIPESTATUS[0]}
  # ctr is judged first: when it fails, tar only sees the stream end early.
  if ((status != 0)) && [[ -s $work/ctr.log ]]; then fail "reading layer $digest failed: $(last_line "$work/ctr.log")"; return; fi
  problem=$(tar_error "$work/tar.log")
  if [[ -n $problem ]]; then fail "unpacking layer $digest failed: $problem"; return; fi
  if ((status != 0)); then fail "reading layer $digest failed: ctr exited with status $status"; return; fi
}

extract_kubelet() {
  local ref=$1 work=$2 layers digest media
  image_manifest "$ref" "$work" || return
  layers=$(jq -r '.layers[] | .digest + " " + .mediaType' <<<"$MANIFEST" 2>/dev/null) || { fail "image $ref has no image manifest for this machine"; return; }
  mkdir -p "$work/root"
  while read -r digest media; do
    if [[ -n $digest ]]; then unpack_layer "$digest" "$media" "$work" || return; fi
  done <<<"$layers"
  # A symbolic link would point into this machine's own files, not the image's.
  if [[ ! -f $work/root/usr/bin/kubelet || -L $work/root/usr/bin/kubelet ]]; then fail "image $ref holds no usr/bin/kubelet"; return; fi
  log "Extracted usr/bin/kubelet from $ref"
}

# The new kubelet must run on this machine before it replaces the one that does.
check_kubelet() {
  local new=$1 output first
  chmod 0755 "$new"
  output=$(timeout 30 "$new" --version 2>&1)
  local status=$?
  IFS= read -r first <<<"$output"
  if ((status != 0)) || [[ $first != 'Kubernetes v'* ]]; then
    fail "the kubelet of the image does not run here: --version exited with status $status: ${first:-no output}"
    return
  fi
  VERSION=${first#Kubernetes }
  log "The image's kubelet is $VERSION"
}

# Keeps the running kubelet as kubelet.previous and renames the new one over it: one rename, in one file system.
install_kubelet() {
  local new=$1
  if [[ -e $KUBELET ]] && ! ln -f "$KUBELET" "$KUBELET.previous"; then fail "keeping $KUBELET as $KUBELET.previous failed"; return; fi
  mv -f "$new" "$KUBELET" || { fail "moving the new kubelet to $KUBELET failed"; return; }
  log "Installed kubelet $VERSION at $KUBELET (the previous one is kubelet.previous)"
}

kubelet_healthy() {
  local deadline=$((SECONDS + HEALTHZ_SECONDS))
  until [[ $(curl --silent --fail --max-time 2 "$HEALTHZ" 2>/dev/null) == ok ]]; do
    if ((SECONDS >= deadline)); then return 1; fi
    sleep 1
  done
}

# Restarts the kubelet and waits until it is healthy; otherwise puts the previous kubelet back and restarts that.
restart_kubelet() {
  local why
  log "Restarting the kubelet: $RESTART"
  if ! sh -c "$RESTART"; then
    why="restarting the kubelet ($RESTART) failed"
  elif ! kubelet_healthy; then
    why="kubelet $VERSION did not answer ok on $HEALTHZ within $HEALTHZ_SECONDS s"
  else
    log "Kubelet $VERSION answers ok on $HEALTHZ"
    return 0
  fi
  log "$why: putting the previous kubelet back"
  if [[ -e $KUBELET.previous ]] && mv -f "$KUBELET.previous" "$KUBELET" && sh -c "$RESTART"; then
    fail "$why; the previous kubelet was put back"
  else
    fail "$why; putting the previous kubelet back failed too"
  fi
}

replace_kubelet() {
  local ref=$1 work=$2
  pull_image "$ref" "$work" &&
    extract_kubelet "$ref" "$work" &&
    check_kubelet "$work/root/usr/bin/kubelet" &&
    install_kubelet "$work/root/usr/bin/kubelet" &&
    restart_kubelet || return
  # The image served its purpose; a failed one is kept so that the next attempt need not download it again.
  ctr_ images rm "$ref" >/dev/null 2>&1 || true
}

# Applies a desired config: Working, then Done with it current, or Degraded with the reason.
update() {
  local desired=$1 image=$2 work='' applied=false
  log "Applying config $desired: kubelet from ${image:-(no image)}"
  annotate "$STATE=@@InPlaceState.Working@@" "$CURRENT=" "$REASON=" || { log "Marking Node $NODE @@InPlaceState.Working@@ failed"; return 1; }
  FAILURE=''
  if [[ -z $image ]]; then
    fail "the Node has no $IMAGE annotation naming the kubelet's image"
  # The new kubelet is unpacked beside the old one, so that putting it in place is a rename.
  elif ! work=$(mktemp -d "${KUBELET%/*}/.hcp-node-agent.XXXXXX"); then
    fail "creating a temporary folder beside $KUBELET failed"
  elif replace_kubelet "$(qualified_reference "$image")" "$work"; then
    applied=true
  fi
  if [[ -n $work ]]; then rm -rf "$work"; fi
  if [[ $applied == true ]]; then
    annotate "$CURRENT=$desired" "$STATE=@@InPlaceState.Done@@" "$REASON=" || { log "Reporting config $desired current failed"; return 1; }
    log "Config $desired is current"
    return 0
  fi
  annotate "$STATE=@@InPlaceState.Degraded@@" "$REASON=${FAILURE:0:1000}" || log "Marking Node $NODE @@InPlaceState.Degraded@@ failed"
  return 1
}

# One look at the Node; an idle one costs a curl and a jq.
pass() {
  local node fields desired current state image
  # Before the kubelet has its client certificate the machine has not joined: there is no Node to look at.
  if [[ ! -f $CREDENTIAL ]]; then return 0; fi
  read_server || return 1
  node=$(api GET "/api/v1/nodes/$NODE") || { log "Reading Node $NODE failed"; return 1; }
  fields=$(jq -r '.metadata.annotations // {} | $ARGS.positional[] as $key | .[$key] // "" | gsub("[[:cntrl:]]"; " ")' \
    --args "$DESIRED" "$CURRENT" "$STATE" "$IMAGE" <<<"$node") || { log "Node $NODE is not JSON"; return 1; }
  { IFS= read -r desired; IFS= read -r current; IFS= read -r state; IFS= read -r image; } <<<"$fields"
  if [[ -z $desired ]]; then return 0; fi
  if [[ $desired == "$current" ]]; then
    # A target reverted to the current config, or a report that did not reach the API server.
    if [[ $state != @@InPlaceState.Done@@ ]]; then
      log "Config $desired is current: state $state becomes @@InPlaceState.Done@@"
      annotate "$STATE=@@InPlaceState.Done@@" "$REASON=" || return 1
    fi
    return 0
  fi
  update "$desired" "$image"
}

main() {
  case ${1:-} in
    --once) pass; return ;;
    '') ;;
    *) log "usage: hcp-node-agent [--once]"; return 2 ;;
  esac
  log "Watching Node $NODE every $INTERVAL s"
  while true; do
    pass
    sleep "$INTERVAL"
  done
}

main "$@"
