#!/usr/bin/env bash
# Makes the Autobahn suite's pinned Python environment in VENV, with the suite's test data,
# unless it is there already (the suite's setup.sh is idempotent but installs each time).
#
#   scripts/conformance-setup.sh SUITE VENV
set -euo pipefail
suite=$1 venv=$2
if [ ! -d "$venv/autobahntestsuite-testdata" ]; then
  AUTOBAHN_VENV="$venv" bash "$suite/setup.sh"
fi
