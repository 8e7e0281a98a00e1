"""What every peer in this folder promises the Swift tests (Tests/TestSupport): it prints
"listening on PORT" once ready, and exits at once on SIGTERM."""

import asyncio
import os
import signal
import sys


def announce(port):
    print(f"listening on {port}", flush=True)


def run(main):
    # Tests stop peers with SIGTERM: exit at once rather than wait for open connections.
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
