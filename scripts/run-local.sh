#!/usr/bin/env bash
# `make run`: qna-server on its embedded SQLite default, and a client connected to it.
# The server is stopped (by its PID) when the client exits.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/debug
PORT="${QNA_PORT:-8080}"
LOG=.build/qna-server.log

"$BIN/qna-server" --port "$PORT" --db qna.sqlite > .build/qna-server.out 2> "$LOG" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  grep -q "listening on" .build/qna-server.out 2>/dev/null && break
  if ! kill -0 "$SERVER" 2>/dev/null; then cat "$LOG" >&2; exit 1; fi
  sleep 0.1
done
URL="$(sed -n 's/^listening on //p' .build/qna-server.out)"
echo "qna-server: $URL (log: $LOG); presenter page: http://127.0.0.1:$PORT/"
echo "Type a question per line; answer it on the presenter page; Ctrl-D or Ctrl-C quits."
"$BIN/qna" --headless --url "$URL"
