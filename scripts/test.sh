#!/usr/bin/env bash
# The test command: installs dependencies, builds everything (the integration tests run the
# real widgethost binary and the example .so files), then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
# Formats follow LC_ALL/LC_TIME/LC_NUMERIC/LANG; the tests that need a locale set it themselves.
export LC_ALL=C.UTF-8
bash scripts/install-deps.sh
bash scripts/forget-old-build-products.sh   # an older checkout's swift-syntax modules would shadow the toolchain's
swift build               # every product, the plugin .so files included
swift build --build-tests # the test bundle
bash scripts/check-sdk-swift5.sh   # the SDK builds in Swift 5 mode too
swift test --skip-build "$@"
