"""A loopback HTTP server that answers from a script, for what a real Atrium does not do on
demand: 429/503 with Retry-After, stalls, HTML error pages, unknown fields. Records every
request it gets (method, path, query, headers, body)."""

from __future__ import annotations

import http.server
import json
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    raw: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict[str, str])
    delay: float = 0.0


@dataclass
class Seen:
    method: str
    path: str
    query: list[tuple[str, str]]
    headers: dict[str, str]
    body: Any


class ScriptedServer:
    """``replies`` are served in order; the last one repeats."""

    def __init__(self, *replies: Reply) -> None:
        self.replies = list(replies)
        self.seen: list[Seen] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                parsed = urllib.parse.urlsplit(self.path)
                server.seen.append(
                    Seen(
                        self.command,
                        parsed.path,
                        urllib.parse.parse_qsl(parsed.query, keep_blank_values=True),
                        {k.lower(): v for k, v in self.headers.items()},
                        json.loads(raw) if raw else None,
                    )
                )
                reply = server.replies[min(len(server.seen) - 1, len(server.replies) - 1)]
                if reply.delay:
                    time.sleep(reply.delay)
                payload = reply.raw if reply.raw is not None else json.dumps(reply.body).encode()
                try:
                    self.send_response(reply.status)
                    for name, value in {"Content-Type": "application/json", **reply.headers}.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def scripted(test: Any, *replies: Reply) -> ScriptedServer:
    server = ScriptedServer(*replies)
    cleanup: Callable[[], None] = server.close
    test.addCleanup(cleanup)
    return server


INGESTED: dict[str, Any] = {
    "episode_id": "e",
    "facts_extracted": 1,
    "memories_stored": 1,
    "memories_updated": 0,
    "memories_deleted": 0,
    "memories_skipped": 0,
    "stored_memory_ids": ["m"],
    "updated_memory_ids": [],
}

SEARCHED: dict[str, Any] = {"count": 0, "retrieval_mode": "flat", "scope": {"kind": "user", "user_id": "u"}, "memories": [], "injection_text": "", "citations": []}

RECORD: dict[str, Any] = {
    "id": "m",
    "user_id": "u",
    "content": "c",
    "memory_type": "semantic",
    "importance": 0.5,
    "source_site": "s",
    "source_url": None,
    "episode_id": None,
    "namespace": None,
    "status": "active",
    "metadata": {},
    "trust_score": 0.5,
    "workspace_id": None,
    "agent_id": None,
    "visibility": None,
    "created_at": "2026-01-01T00:00:00.000Z",
    "updated_at": "2026-01-01T00:00:00.000Z",
    "last_accessed_at": None,
    "access_count": 0,
    "version": 1,
    "expires_at": None,
    "valid_until": None,
}
