#!/usr/bin/env bash
# The inner loop (`npm run test:quick`, under a minute): the unit and in-process HTTP tests, without the browser,
# soak, hostile, conformance-run and spawned-program files (TEAMCHAT_TEST_QUICK in vitest.config.ts), of
#   - the paths given (`npm run test:quick -- mock-server/test/channels`), else
#   - the test files that import what changed since the last commit (vitest --changed), else, on a clean tree,
#   - the unit tests (mock-server/test/unit).
# `npm test` runs everything; run it before pushing.
set -euo pipefail
cd "$(dirname "$0")/.."
export TEAMCHAT_TEST_QUICK=1
if [ $# -gt 0 ]; then exec npx vitest run "$@"; fi
if [ -n "$(git status --porcelain --untracked-files=normal)" ]; then exec npx vitest run --changed HEAD --passWithNoTests; fi
exec npx vitest run mock-server/test/unit
