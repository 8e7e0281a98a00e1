#!/usr/bin/env bash
# `make run`: qna-server on its embedded SQLite default in the background, and the qna
# terminal UI connected to it in the foreground. Quitting qna stops that server (by its PID).
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
echo "Presenter page: http://127.0.0.1:$PORT/  (answer questions there)"
echo "Presenter console: $BIN/qna present --url $URL  (in another terminal)"
echo "qna-server: $URL, database qna.sqlite, log $LOG"
if [ -t 0 ] && [ -t 1 ]; then
  echo "Starting qna in 2 s (F1 or ? for keys, Ctrl-C quits)…"
  sleep 2
  "$BIN/qna" --url "$URL"
else
  echo "Not a terminal: running qna --headless (one question per stdin line)."
  "$BIN/qna" --headless --url "$URL"
fi
