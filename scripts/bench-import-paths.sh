#!/usr/bin/env bash
# What a bundle's import path costs its worker (issue 27, docs/performance.md "Import paths"):
# Xcode's widget template (Tests/SwiftFixtures/XcodeStyleWidget, its #Preview left out) linked
# into two bundles from the same debug build — once with its imports as written (`import
# WidgetKit`, `SwiftUI`, `AppIntents`: the SDK and full Foundation), once with them replaced by
# `import OpenWidgetKit` (FoundationEssentials only) — then cold worker starts of each,
# interleaved (Benchmarks/bench_import_paths.py). Prints a Markdown table. RUNS (default 40).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product widgethost-worker >/dev/null
swift build --product XcodeStyleWidget >/dev/null   # builds the SDK and the Apple-named modules
bin="$(swift build --show-bin-path)"
objects="$bin"  # the modules and object files are beside the products
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fixture=Tests/SwiftFixtures/XcodeStyleWidget
for variant in Lean Apple; do
  mkdir "$work/$variant"
  sed '/^#Preview/,$d' "$fixture/XcodeStyleWidget.swift" > "$work/$variant/Widget.swift"
  cp "$fixture/AppIntent.swift" "$work/$variant/AppIntent.swift"
  printf 'import WidgetKit\nimport SwiftUI\n\n@main\nstruct TwinBundle: WidgetBundle {\n    var body: some Widget { XcodeStyleWidget() }\n}\n' \
    > "$work/$variant/Bundle.swift"
done
for f in "$work"/Lean/*.swift; do
  sed -i 's/^import WidgetKit$/import OpenWidgetKit/; /^import SwiftUI$/d; /^import AppIntents$/d' "$f"
done
common=(-swift-version 5 -Onone -g -I "$objects/Modules"
        -Xcc "-fmodule-map-file=$objects/CWidgetMainEntry.build/module.modulemap"
        -Xcc "-fmodule-map-file=$objects/CWidgetPluginABI.build/module.modulemap"
        -Xlinker -Bsymbolic -ldl "$objects"/OpenWidgetKit.build/*.o "$objects/CWidgetMainEntry.build/main_entry.c.o")
swiftc -emit-library -module-name TwinLean "${common[@]}" "$work"/Lean/*.swift -o "$work/libTwinLean.so"
swiftc -emit-library -module-name TwinApple "${common[@]}" "$work"/Apple/*.swift \
  "$objects"/{WidgetPreviews,AppleFrameworks,WidgetKit,SwiftUI,AppIntents}.build/*.o -o "$work/libTwinApple.so"
python3 Benchmarks/bench_import_paths.py --worker "$bin/widgethost-worker" --runs "${RUNS:-40}" \
  --bundle "Xcode's template, \`import OpenWidgetKit\`=$work/libTwinLean.so:XcodeStyleWidget:systemSmall" \
  --bundle "Xcode's template as written (\`import WidgetKit\`, \`SwiftUI\`, \`AppIntents\`)=$work/libTwinApple.so:XcodeStyleWidget:systemSmall"
