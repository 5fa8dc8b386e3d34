# shellcheck shell=bash
# Sourced by ./dev and .ci/run: makes a Node.js >= 22.19 the first `node` on PATH and installs the dependencies.
# On a machine whose Node is older, Node (the version in .node-version) is installed from the npm registry, whose
# `node` package ships the binary, into the git-ignored .tools/node; nothing else is downloaded.

HCP_ROOT=${HCP_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
HCP_NODE_MIN=22.19.0

hcp_version_at_least() { # $1 >= $2, both x.y.z
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

hcp_node_ok() { # $1 = node binary
  local v
  v=$("$1" --version 2>/dev/null) || return 1
  hcp_version_at_least "${v#v}" "$HCP_NODE_MIN"
}

hcp_ensure_node() {
  local local_bin="$HCP_ROOT/.tools/node/node_modules/node/bin"
  if [ -x "$local_bin/node" ] && hcp_node_ok "$local_bin/node"; then
    export PATH="$local_bin:$PATH"
    return 0
  fi
  if command -v node >/dev/null 2>&1 && hcp_node_ok "$(command -v node)"; then
    return 0
  fi
  if ! command -v npm >/dev/null 2>&1; then
    echo "error: Node.js >= $HCP_NODE_MIN is required, and npm is needed to install it; install Node.js first" >&2
    return 1
  fi
  local want
  want=$(cat "$HCP_ROOT/.node-version")
  echo "setup: node $(node --version 2>/dev/null || echo none) is older than $HCP_NODE_MIN; installing node@$want into .tools/node" >&2
  mkdir -p "$HCP_ROOT/.tools/node"
  npm install --prefix "$HCP_ROOT/.tools/node" --no-save --no-audit --no-fund --loglevel=error "node@$want" >&2 || return 1
  if ! hcp_node_ok "$local_bin/node"; then
    echo "error: installing node@$want did not produce a working $local_bin/node" >&2
    return 1
  fi
  export PATH="$local_bin:$PATH"
}

hcp_ensure_deps() {
  local stamp="$HCP_ROOT/node_modules/.package-lock.json"
  if [ -f "$stamp" ] && [ "$stamp" -nt "$HCP_ROOT/package-lock.json" ]; then
    return 0
  fi
  (cd "$HCP_ROOT" && npm ci --no-audit --no-fund --loglevel=error) >&2
}

hcp_ensure_cli_bundle() {
  local dist="$HCP_ROOT/dist"
  # Rebuilt when a source is newer than the bundles, or when the Node on PATH is not the one that took the start-up
  # snapshot (dist/cli/node links to it, for what the CLI runs Node for).
  if [ -x "$dist/cli/hcp" ] && [ -f "$dist/operator/hcp-operator.mjs" ] && [ -f "$dist/operator/hcp-operator-lean.mjs" ] &&
    [ "$(readlink -f "$dist/cli/node")" = "$(readlink -f "$(command -v node)")" ] &&
    [ -z "$(find "$HCP_ROOT/src" "$HCP_ROOT/package-lock.json" "$HCP_ROOT/scripts/build-cli.ts" "$HCP_ROOT/scripts/bundle-audit.ts" -newer "$dist/cli/hcp" -print -quit 2>/dev/null)" ]; then
    return 0
  fi
  (cd "$HCP_ROOT" && node scripts/build-cli.ts) >&2
}

# The browser tier drives Debian's headless Chromium (src/testing/browser.ts). As root with apt it is installed here;
# elsewhere the tier says how to install it and skips (CI, which runs as root, never skips it).
hcp_ensure_browser() {
  if [ -n "${HCP_CHROMIUM:-}" ] || [ -x /usr/bin/chromium-headless-shell ] || [ -x /usr/bin/chromium ]; then
    return 0
  fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "note: no Chromium for the browser tier; install Debian's chromium-headless-shell (or set HCP_CHROMIUM)" >&2
    return 0
  fi
  echo "installing chromium-headless-shell for the browser tier" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell; } >/dev/null 2>&1 ||
    echo "warning: could not install chromium-headless-shell; the browser tier will skip (and fail in CI)" >&2
}

# The lint tier checks the shell scripts with Debian's shellcheck: installed here as root with apt, as Chromium is.
hcp_ensure_shellcheck() {
  command -v shellcheck >/dev/null 2>&1 && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "note: no shellcheck for the lint tier; install Debian's shellcheck" >&2
    return 0
  fi
  echo "installing shellcheck for the lint tier" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq shellcheck; } >/dev/null 2>&1 ||
    echo "warning: could not install shellcheck; the lint tier will fail" >&2
}

hcp_setup() {
  hcp_ensure_node && hcp_ensure_deps && hcp_ensure_cli_bundle && hcp_ensure_browser && hcp_ensure_shellcheck
}
