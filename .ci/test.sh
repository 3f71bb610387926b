#!/usr/bin/env bash
# The project's test command (`npm test`): unit + integration, typecheck, build, e2e.
# On Linux without a running Secret Service it re-runs itself inside a private D-Bus session with an
# unlocked gnome-keyring and a throwaway HOME, so keytar talks to a real keychain.
set -euo pipefail
cd "$(dirname "$0")/.."
export ELECTRON_SKIP_BINARY_DOWNLOAD=1

# shellcheck source=keyring.sh
. .ci/keyring.sh
in_keyring_session .ci/test.sh

echo "== lint (prettier, eslint)" && npm run --silent lint
echo "== unit + integration (vitest)" && npm run --silent test:unit
echo "== typecheck (vue-tsc, tsc: web, dom-node, node)" && npm run --silent typecheck
echo "== build (electron-vite)" && npm run --silent build
echo "== e2e (playwright)"
if ! npm run --silent test:e2e; then
  # A failure on a CI machine is read from this log: print what each failed test's page showed
  # (Playwright's ARIA snapshot of the page at the failure), not only the assertion.
  for f in test-results/*/error-context.md; do
    [ -f "$f" ] && echo "== $f" && head -c 12000 "$f" && echo
  done
  exit 1
fi
