#!/usr/bin/env bash
# npm test: the unit, SDK and end-to-end tiers, in that order, each timed. The test bed's tools
# (built from pinned Go modules the first time, then cached) are built beside the first two
# tiers: their builds wait on module downloads and single-threaded links as much as they compile,
# and the unit tier's start-up and the SDK tier's pip and go steps leave cores idle too. The build's
# log goes to a file and its summary is printed before the end-to-end tier, which then finds every
# tool built.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

started=$(date +%s)
mkdir -p .testbed
build_log=.testbed/tool-build.log
bash test/testbed/testbed.sh build >"${build_log}" 2>&1 &
build_pid=$!
# The build stops with the tiers: a failed unit tier leaves no Go build running.
trap 'kill "${build_pid}" 2>/dev/null || true' EXIT

timings=()
# tier NAME COMMAND...: run one tier and note its time.
tier() {
  local name="$1" start rc=0
  shift
  start=$(date +%s)
  "$@" || rc=$?
  timings+=("${name}: $(($(date +%s) - start))s")
  return "${rc}"
}

tier unit npm run test:unit
tier sdks npm run test:sdks
tier "tool build (after the tiers above)" wait "${build_pid}" || {
  tail -n 40 "${build_log}" >&2
  echo "npm test: the test bed's tool build failed (whole log: ${build_log})" >&2
  exit 1
}
grep -E 'built in|BUILD FAILED|build: |browser: ' "${build_log}" || true
tier e2e npm run test:e2e
echo "npm test: total $(($(date +%s) - started))s"
printf '  %s\n' "${timings[@]}"
