#!/usr/bin/env bash
# `npm run test:remote`: the client suite against an external Agent Management Service.
#   AMS_BASE_URL (required, without /api/v1), AMS_EMAIL, AMS_PASSWORD, optional AMS_PROMPT_ID.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${AMS_BASE_URL:?set AMS_BASE_URL to the server, e.g. https://ams.example.com}"
: "${AMS_EMAIL:?set AMS_EMAIL}"
: "${AMS_PASSWORD:?set AMS_PASSWORD}"
export ELECTRON_SKIP_BINARY_DOWNLOAD=1 AGENT_DESK_REMOTE=1
# shellcheck source=keyring.sh
. .ci/keyring.sh
in_keyring_session .ci/test-remote.sh
npx vitest run --config test/vitest.config.ts src/main/api/remote.test.ts
npm run --silent build
npx playwright test --config e2e/playwright.config.ts --grep @remote
