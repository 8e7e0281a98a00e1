#!/usr/bin/env bash
# Grades qna-server's WebSocket layer with the Autobahn testsuite's fuzzing client (the Python
# 3 port in SUITE, never copied here), against the echo socket `--mock` adds
# (/control/echo: the attendees' limits, compression and checks). Fails unless every case is
# OK or INFORMATIONAL, but for the argued exceptions below.
#
# Argued: 6.4.3 and 6.4.4 are NON-STRICT. They send text whose UTF-8 turns invalid in the
# middle of one frame, in three TCP chunks, and grade strictly only a server that fails at
# the bad chunk, before the frame is whole. The server fails with 1007 at the end of that
# frame: NIO's frame decoder, under Hummingbird, hands over whole frames only. (Across
# frames, 6.4.1 and 6.4.2, it fails at the bad frame: OK.)
#
#   scripts/conformance-server.sh SUITE QNA_SERVER VENV OUT
set -euo pipefail
suite=$1 server=$2 venv=$3 out=$4
mkdir -p "$out"
if [ ! -d "$venv/autobahntestsuite-testdata" ]; then
  AUTOBAHN_VENV="$venv" bash "$suite/setup.sh"
fi
status=0
grade() {
  local label=$1 cases=$2 exclude=$3
  shift 3
  local started=$SECONDS
  # A server of its own per grading, on a free port, stopped by its PID.
  "$server" --mock --port 0 --db :memory: --log-level error "$@" >"$out/$label.server" 2>&1 &
  local pid=$!
  local port=""
  for _ in $(seq 100); do
    port=$(sed -n 's|^listening on ws://127.0.0.1:\([0-9]*\)/socket.*|\1|p' "$out/$label.server")
    [ -n "$port" ] && break
    sleep 0.1
  done
  if [ -z "$port" ]; then
    echo "conformance (server $label): qna-server did not start" >&2
    kill "$pid" 2>/dev/null || true
    status=1
    return
  fi
  AUTOBAHN_VENV="$venv" python3 "$suite/run_server_suite.py" --url "ws://127.0.0.1:$port/control/echo" \
    --agent "qna-server-$label" --cases "$cases" ${exclude:+--exclude "$exclude"} \
    --out "$out/$label" >"$out/$label.log" 2>&1 || true
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  local last
  last=$(tail -1 "$out/$label.log")
  echo "conformance (server $label): $last ($((SECONDS - started)) s)"
  # Every case not OK or INFORMATIONAL must be an argued exception.
  local unexpected
  unexpected=$(grep -E '^\[ *[0-9]+/[0-9]+\] ' "$out/$label.log" \
    | sed -E 's/^\[ *[0-9]+\/[0-9]+\] +//' \
    | awk '$2 != "OK" && $2 != "INFORMATIONAL" || $3 != "OK" && $3 != "INFORMATIONAL" { print $1 " " $2 }' \
    | grep -vxE '6\.4\.[34] NON-STRICT' || true)
  if [[ ! $last =~ ^autobahn:\ [0-9]+\ OK,\ [0-9]+\ NON-STRICT,\ [0-9]+\ INFORMATIONAL,\ 0\ UNIMPLEMENTED,\ 0\ FAILED ]] \
    || [ -n "$unexpected" ]; then
    echo "conformance (server $label): FAILED — see $out/$label.log and $out/$label/" >&2
    echo "$unexpected" | head -20 >&2
    status=1
  fi
}
# The server's defaults (16 KiB messages, permessage-deflate offered and accepted): every
# group whose messages fit. The cases with 64 KiB messages (1.1.6–1.1.8, 1.2.6–1.2.8, 10.1.1)
# are refused with 1009 by design (docs/server.md), so they are graded below, with the limit
# raised.
grade defaults '1.*,2.*,3.*,4.*,5.*,6.*,7.*,10.*' '1.1.6,1.1.7,1.1.8,1.2.6,1.2.7,1.2.8,10.1.1'
# The same layer with the message limit raised to 16 MiB, which the large messages (9.x) and
# the compression groups (12.x, 13.x) need. 12.2–12.5 and 13.2–13.7 repeat 12.1 and 13.1
# with larger messages and every window parameter, a thousand round trips a case: about 20
# minutes at the suite's pace here, so CI grades 12.1 and 13.1 and `make conformance-full`
# (SERVER_COMPRESSION=all) grades them all.
compression='12.1.*,13.1.*'
[ "${SERVER_COMPRESSION:-}" = all ] && compression='12.*,13.*'
grade large-messages "1.1.*,1.2.*,9.*,10.*,$compression" '' --max-message-size 16777216
exit $status
