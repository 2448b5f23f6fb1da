#!/usr/bin/env bash
# The run command: installs dependencies, builds widgethost and the example bundles, installs
# them into Plugins/, then runs the host on ./config.json (outputs in ./out/). Extra arguments
# go to `widgethost run`, e.g. `scripts/run.sh --stdout jsonl`.
set -euo pipefail
cd "$(dirname "$0")/.."
widgethost="$(bash scripts/install-plugins.sh release)"
exec "$widgethost" run --config config.json "$@"
