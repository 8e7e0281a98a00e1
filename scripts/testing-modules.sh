#!/usr/bin/env bash
# Lets one release build with the Swift runtime linked in (--static-swift-stdlib, as the
# programs ship) build the test bundle too, which links the runtime dynamically: Swift
# Testing and XCTest exist only beside the dynamic runtime. Makes DIR, given to that build as
# -I and -L, with
#   - the toolchain's Testing and XCTest modules, which the static runtime's module folder
#     lacks (nothing else, so no other import finds another module than before);
#   - a name for each Foundation part that exists only as a static archive, pointing to the
#     shared library that holds it: the static Foundation modules ask the linker for them,
#     and the test bundle has them in Foundation's shared libraries already. A symbol they
#     do not hold fails the link; nothing static is linked beside the shared runtime.
# The programs link as before: they import neither module and find these names first in the
# static runtime's folder.
#
#   scripts/testing-modules.sh DIR
set -euo pipefail
dir=$1
swift=${SWIFT:-swift}
resources=$("$swift" -print-target-info | python3 -c \
  'import json, sys; print(json.load(sys.stdin)["paths"]["runtimeResourcePath"])')
shared="$resources/linux"
rm -rf "$dir"
mkdir -p "$dir"
for module in Testing _Testing_Foundation _TestingInterop XCTest; do
  [ -e "$shared/$module.swiftmodule" ] || { echo "$0: no $module in $shared" >&2; exit 1; }
  ln -s "$shared/$module.swiftmodule" "$dir/"
done
[ -e "$shared/Testing.swiftcrossimport" ] && ln -s "$shared/Testing.swiftcrossimport" "$dir/"
while read -r archive library; do
  [ -e "$shared/$library" ] || { echo "$0: no $library in $shared" >&2; exit 1; }
  ln -s "$shared/$library" "$dir/$archive.so"
done <<'LIBRARIES'
libCoreFoundation libFoundation.so
lib_FoundationCShims libFoundationEssentials.so
lib_FoundationCollections libFoundationEssentials.so
lib_CFURLSessionInterface libFoundationNetworking.so
lib_CFXMLInterface libFoundationXML.so
LIBRARIES
