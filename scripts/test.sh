#!/usr/bin/env bash
# Runs the test tiers one after another and prints how long each took (ARCHITECTURE.md, "Tests"). Every tier runs
# even after one fails, so a run shows everything that is broken; the exit code is non-zero when any failed.
#   scripts/test.sh [TIER...]    tiers: lint typecheck unit integration browser artifacts e2e (default: all of them)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
tiers=("$@")
[ ${#tiers[@]} -eq 0 ] && tiers=(lint typecheck unit integration browser artifacts e2e)
summary=()
failed=0
for tier in "${tiers[@]}"; do
  case "$tier" in
    lint|typecheck) script=$tier ;;
    unit|integration|browser|artifacts|e2e) script=test:$tier ;;
    *) echo "unknown test tier: $tier (lint, typecheck, unit, integration, browser, artifacts, e2e)" >&2; exit 2 ;;
  esac
  echo "=== tier $tier"
  started=$(date +%s)
  if npm run --silent "$script"; then result=passed; else result=FAILED; failed=1; fi
  line="tier $tier: $result in $(( $(date +%s) - started ))s"
  echo "$line"
  summary+=("$line")
done
printf '%s\n' "=== summary" "${summary[@]}"
exit $failed
