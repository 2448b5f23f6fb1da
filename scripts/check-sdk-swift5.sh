#!/usr/bin/env bash
# The SDK is built in Swift 6 mode; authors may vendor it into Swift 5 code (widget extensions
# are Swift 5). This type-checks OpenWidgetKit's sources in Swift 5 mode, warnings as errors.
set -euo pipefail
cd "$(dirname "$0")/.."
maps=$(mktemp -d); trap 'rm -rf "$maps"' EXIT
for c in CWidgetPluginABI CWidgetMainEntry; do
    [ -d "Sources/$c/include" ] || continue
    header=$(ls "Sources/$c/include"/*.h | head -1)
    printf 'module %s {\n    umbrella header "%s"\n    export *\n}\n' "$c" "$PWD/$header" > "$maps/$c.modulemap"
    flags+=(-Xcc "-fmodule-map-file=$maps/$c.modulemap")
done
swiftc -typecheck -swift-version 5 -warnings-as-errors -parse-as-library -module-name OpenWidgetKit \
    "${flags[@]}" $(find Sources/OpenWidgetKit -name '*.swift')
echo "OpenWidgetKit type-checks in Swift 5 mode"
