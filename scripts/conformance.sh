#!/usr/bin/env bash
# Grades `wsc --echo` with the Autobahn testsuite's fuzzing server (the Python 3 port in
# SUITE, never copied here): groups 1–7, 9, 10, 12 and 13 with permessage-deflate offered,
# and 1–7, 9 and 10 with it off. Fails unless every case is OK or INFORMATIONAL.
#
#   scripts/conformance.sh SUITE WSC VENV OUT
set -euo pipefail
suite=$1 wsc=$2 venv=$3 out=$4
mkdir -p "$out"
# The suite's pinned environment, made once (setup.sh is idempotent but installs each time).
if [ ! -d "$venv/autobahntestsuite-testdata" ]; then
  AUTOBAHN_VENV="$venv" bash "$suite/setup.sh"
fi
status=0
grade() {
  local label=$1 flags=$2 cases=$3
  local started=$SECONDS
  AUTOBAHN_VENV="$venv" python3 "$suite/run_client_suite.py" --agent "wsc-$label" \
    --cmd "$wsc --echo $flags {url}" --cases "$cases" --out "$out/$label" >"$out/$label.log" 2>&1 || true
  # Per group: OK/INFORMATIONAL/other counts from the per-case lines.
  python3 - "$out/$label.log" "$label" <<'PY'
import collections, re, sys
counts = collections.defaultdict(collections.Counter)
for line in open(sys.argv[1]):
    m = re.match(r"\[\s*\d+/\d+\]\s+(\d+)\.\S+\s+(\S+)", line)
    if m:
        counts[int(m.group(1))][m.group(2)] += 1
print(f"conformance ({sys.argv[2]}): " + ", ".join(
    f"{g}: " + " ".join(f"{n} {k}" for k, n in sorted(c.items())) for g, c in sorted(counts.items())))
PY
  local last
  last=$(tail -1 "$out/$label.log")
  echo "conformance ($label): $last ($((SECONDS - started)) s)"
  if ! [[ $last =~ ^autobahn:\ [0-9]+\ OK,\ 0\ NON-STRICT,\ [0-9]+\ INFORMATIONAL,\ 0\ UNIMPLEMENTED,\ 0\ FAILED ]]; then
    echo "conformance ($label): FAILED — see $out/$label.log and $out/$label/reports" >&2
    return 1
  fi
}
# Groups 12 and 13 (compression: 95% of the time, most of it in the suite's single-threaded
# Python server) are graded by servers of their own, beside the rest.
graders=()
grade deflate-12 "" '12.*' & graders+=($!)
grade deflate-13 "" '13.*' & graders+=($!)
grade deflate "" '1.*,2.*,3.*,4.*,5.*,6.*,7.*,9.*,10.*' || status=1
grade no-deflate "--no-deflate" '1.*,2.*,3.*,4.*,5.*,6.*,7.*,9.*,10.*' || status=1
for grader in "${graders[@]}"; do wait "$grader" || status=1; done
exit $status
