"""Atrium for the tests: the built service (``node dist/src/main.js``) as a child process on a
free loopback port, with the embedded database in a temporary directory.

One service per configuration for the whole test run (started on first use, stopped at exit),
so the suite pays PGlite's start-up once or twice, not per test.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]
MAIN = REPO / "dist" / "src" / "main.js"
ADMIN_TOKEN = "py-client-tests-admin-token-0123456789abcdef"
START_TIMEOUT = 90.0


class Service:
    def __init__(self, env: Mapping[str, str]) -> None:
        if not MAIN.exists():
            raise RuntimeError(f"{MAIN} is missing: run `npm run build` at the repository root first")
        self.data_dir = tempfile.mkdtemp(prefix="atrium-py-")
        self.logs: list[dict[str, Any]] = []
        full_env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": os.environ.get("HOME", ""),
            "HOST": "127.0.0.1",
            "PORT": "0",
            "DATA_DIR": self.data_dir,
            "EMBEDDING_PROVIDER": "hash",
            "LOG_LEVEL": "info",
            **env,
        }
        self.process = subprocess.Popen(
            [os.environ.get("NODE", "node"), str(MAIN)],
            cwd=REPO,
            env=full_env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self._listening = threading.Event()
        self.port = 0
        threading.Thread(target=self._read_logs, daemon=True).start()
        deadline = time.monotonic() + START_TIMEOUT
        while not self._listening.wait(0.1):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("Atrium did not start:\n" + "\n".join(json.dumps(line) for line in self.logs[-20:]))
        self.url = f"http://127.0.0.1:{self.port}"

    def _read_logs(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            try:
                entry = json.loads(line)
            except ValueError:
                entry = {"raw": line.rstrip("\n")}
            if not isinstance(entry, dict):
                entry = {"raw": line.rstrip("\n")}
            self.logs.append(entry)  # pyright: ignore[reportUnknownArgumentType]
            if entry.get("msg") == "Atrium listening":  # pyright: ignore[reportUnknownMemberType]
                self.port = int(entry["port"])  # pyright: ignore[reportUnknownArgumentType]
                self._listening.set()

    def internal_errors(self) -> list[dict[str, Any]]:
        """Log lines that mean a bug inside the service: any 500 (the tests never provoke one)."""
        return [entry for entry in self.logs if entry.get("status") == 500 or (entry.get("level") == "error")]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.data_dir, ignore_errors=True)


_services: dict[str, Service] = {}


def open_service() -> Service:
    """AUTH_MODE=off: the scope is whatever the request says. Admin routes on (token set)."""
    return _service("open", {"ATRIUM_ADMIN_TOKEN": ADMIN_TOKEN})


def keyed_service() -> Service:
    """AUTH_MODE=api_key: every /v1 route needs a key and takes its scope from it."""
    return _service("keyed", {"AUTH_MODE": "api_key", "ATRIUM_ADMIN_TOKEN": ADMIN_TOKEN})


def _service(name: str, env: Mapping[str, str]) -> Service:
    if name not in _services:
        _services[name] = Service(env)
    return _services[name]


@atexit.register
def _stop_all() -> None:
    for service in _services.values():
        service.stop()


def new_id() -> str:
    return str(uuid.uuid4())


def new_user() -> str:
    """A user of its own per test, so tests never see each other's memories."""
    return f"py-{uuid.uuid4().hex[:12]}"
