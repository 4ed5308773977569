#!/usr/bin/env bash
# A clone below a folder whose package.json says "type": "module" must still run the WebAssembly
# tests: node would read Emscripten's CommonJS glue as an ES module and every suite would fail with
# "not compiled for this environment". One such package.json is put right above the build folder
# (the nearest place outside it), and a test binary must still list its tests.
#   bash tests/wasm/glue_loads_under_module_package.sh build/web-test
set -euo pipefail
build=$(cd "${1:?the web-test build folder}" && pwd)
outer="$(dirname "$build")/package.json"
[ ! -e "$outer" ] || { echo "glue check: $outer exists already; not touching it" >&2; exit 1; }
trap 'rm -f "$outer"' EXIT
echo '{"type": "module"}' > "$outer"
if ! output=$(node --no-experimental-fetch "$build/tests/engine_tests.js" --gtest_list_tests 2>&1); then
  echo "glue check: engine_tests.js does not load below a \"type\": \"module\" package.json:" >&2
  echo "$output" | head -5 >&2
  exit 1
fi
echo "glue check: the test binaries load below a \"type\": \"module\" package.json"
