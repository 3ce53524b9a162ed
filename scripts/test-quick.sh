#!/usr/bin/env bash
# The inner loop (`npm run test:quick`, under a minute): unit and in-process HTTP tests of the area you touch. Files
# that drive a browser, run soak cycles or whole conformance runs, or start programs as child processes are left
# out (TEAMCHAT_TEST_QUICK in vitest.config.ts); `npm test` runs everything, run it before pushing.
#   npm run test:quick -- PATH...   the test files or directories given;
#   npm run test:quick              the unit tests (mock-server/test/unit), plus for each file changed since the
#                                   last commit: itself when it is a test, else the test directory named like
#                                   one of its folders (mock-server/src/domain/channels/x.ts: mock-server/test/channels;
#                                   conformance/src/...: conformance/test; cli/...: cli/test).
# Not `vitest --changed`: nearly every test imports the server, so a change to any source file selects most of them.
set -euo pipefail
cd "$(dirname "$0")/.."
export TEAMCHAT_TEST_QUICK=1
if [ $# -gt 0 ]; then exec npx vitest run "$@"; fi
declare -A picked=([mock-server/test/unit]=1)
while IFS= read -r path; do
  [ -n "$path" ] || continue
  case "$path" in
    *.test.ts) [ -f "$path" ] && picked[$path]=1; continue ;;
  esac
  top=${path%%/*}
  if [ "$top" != mock-server ] && [ -d "$top/test" ]; then picked[$top/test]=1; continue; fi
  IFS=/ read -ra parts <<< "$path"
  for part in "${parts[@]}"; do
    if [ "$part" != test ] && [ -d "mock-server/test/$part" ]; then picked[mock-server/test/$part]=1; fi
  done
done < <(git status --porcelain --untracked-files=all | cut -c4- | sed 's/.* -> //')
echo "test:quick: ${!picked[*]}"
exec npx vitest run "${!picked[@]}"
