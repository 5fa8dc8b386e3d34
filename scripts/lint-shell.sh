#!/usr/bin/env bash
# The lint tier's shell check, with Debian's shellcheck (./dev setup installs it as root): the node agent, which runs
# on every machine of every hosted cluster, must pass every check, style notes included; the repository's other
# scripts must have no warning or error.
set -euo pipefail
cd "$(dirname "$0")/.." || exit 2
if ! command -v shellcheck >/dev/null 2>&1; then
  echo "lint: shellcheck is not installed: apt-get install shellcheck (./dev setup does it as root)" >&2
  exit 1
fi
mapfile -t scripts < <(git ls-files '*.sh' 2>/dev/null || find . -name '*.sh' -not -path './node_modules/*' -not -path './.tools/*')
shellcheck --shell=bash src/render/ignition/hcp-node-agent.sh
shellcheck -x --severity=warning dev .ci/run "${scripts[@]}"
