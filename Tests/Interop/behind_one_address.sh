#!/bin/sh
# qna clients behind one counted address, on the server's defaults (issue 46): run inside a
# network namespace of its own (`unshare -n`, root), where 10.77.0.1 on the namespace's
# loopback device is an address the server counts (it is not 127/8), as a venue's NAT is.
# Starts qna-server there, then CLIENTS `qna --headless` at once, each in its own state
# directory, each asking one question; prints one line per client: its attendee file (id
# and credential, written when the server issued an identity) and its exit status.
# Usage: unshare -n sh behind_one_address.sh BIN_DIR CLIENTS
set -eu
bin=$1 clients=$2
ip link set lo up
ip addr add 10.77.0.1/32 dev lo
dir=$(mktemp -d)
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$dir"' EXIT
# Made before the server starts: its redirection opens the file in the background job, which
# the first read below could come before (a clean run failed so, sed finding no file).
: > "$dir/server.out"
# A non-loopback --host needs the admin token; nothing else moves from the defaults.
"$bin/qna-server" --host 10.77.0.1 --port 0 --db "$dir/qna.sqlite" \
  --admin-token "behind-one-address-$$" > "$dir/server.out" 2> "$dir/server.log" &
server=$!
for _ in $(seq 100); do
  port=$(sed -n 's|.*listening on ws://10.77.0.1:\([0-9]*\)/socket.*|\1|p' "$dir/server.out")
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { cat "$dir/server.log" >&2; exit 1; }
pids=""
for i in $(seq "$clients"); do
  XDG_STATE_HOME="$dir/state$i" "$bin/qna" --headless --no-stdin \
    --url "ws://10.77.0.1:$port/socket" --ask "Question $i from behind the venue" \
    --exit-after-send --timeout 30s > "$dir/qna$i.out" 2>&1 &
  pids="$pids $!"
done
i=0
for pid in $pids; do
  i=$((i + 1))
  status=0
  wait "$pid" || status=$?
  identity=$(cat "$dir/state$i"/qna/attendee-* 2>/dev/null | tr '\n' ' ')
  echo "client $i exit $status identity $identity"
done
