#!/usr/bin/env bash
# Removes build products an older checkout left in .build that a newer one must not see.
# Before issue 22, #Preview's macro was built against the swift-syntax package; its modules stay
# in .build/<triple>/<config>/Modules-tool and, searched before the toolchain's own swift-syntax
# that the macro now builds against, break an incremental build ("missing required module
# '_SwiftSyntaxCShims'"). A fresh clone has none; a clone that built before the change loses
# those modules once (the macro and the few tool modules are rebuilt in seconds).
# Idempotent and quiet; called by the run and test commands before they build.
set -euo pipefail
cd "$(dirname "$0")/.."
for dir in .build/*/debug .build/*/release; do
    [ -d "$dir/SwiftSyntax.build" ] || continue
    rm -rf "$dir/Modules-tool" "$dir"/SwiftSyntax*.build "$dir"/SwiftSyntax*-tool.build
    echo "removed the swift-syntax package's old build products from $dir (the macro now uses the toolchain's)" >&2
done
