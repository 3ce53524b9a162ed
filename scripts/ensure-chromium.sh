#!/usr/bin/env bash
# The HTML report's browser test (conformance/test/report/html-browser.test.ts) drives Debian's Chromium
# through playwright-core. Installs it with apt when it is missing, so `npm test` works on a fresh machine.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
echo "ensure-chromium: $CHROMIUM not found; installing Debian's chromium with apt-get" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium
