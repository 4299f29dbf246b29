"""The Python client covers every route the TypeScript client (src/client) covers: the TS
client's public methods and their routes are listed by calling each one through a recording
fetch (tests/ts_client_routes.cjs, on the built dist/sdk/client), and compared with the route
table behind ``Atrium`` and ``AtriumAdmin``."""

from __future__ import annotations

import json
import os
import subprocess
import unittest
from pathlib import Path

from atrium_client._routes import ADMIN_ROUTES, ROUTES

from .support import REPO

CLIENT_DIR = REPO / "dist" / "sdk" / "client"

#: TS methods the Python client does not have yet, each with its reason (empty: none).
NOT_YET_IN_PYTHON: dict[str, str] = {}


def typescript_routes() -> dict[str, tuple[str, str]]:
    if not (CLIENT_DIR / "index.js").exists():
        raise RuntimeError(f"{CLIENT_DIR} is missing: run `npm run build` at the repository root first")
    script = Path(__file__).with_name("ts_client_routes.cjs")
    output = subprocess.run(
        [os.environ.get("NODE", "node"), str(script), str(CLIENT_DIR)], check=True, capture_output=True, text=True, timeout=60
    ).stdout
    return {name: (route["method"], route["path"]) for name, route in json.loads(output).items()}


class ParityTest(unittest.TestCase):
    def test_python_covers_every_route_of_the_typescript_client(self) -> None:
        typescript = typescript_routes()
        python = {(r.method, r.path): name for name, r in [*ROUTES.items(), *ADMIN_ROUTES.items()]}
        # Sanity: the listing found the TS client's methods (25 when this test was written).
        self.assertGreaterEqual(len(typescript), 25)
        missing = {
            ts_name: route for ts_name, route in typescript.items() if route not in python and ts_name not in NOT_YET_IN_PYTHON
        }
        # The exemptions name real TS methods (a stale entry fails).
        self.assertEqual(set(NOT_YET_IN_PYTHON) - set(typescript), set())
        self.assertEqual(missing, {}, "TypeScript client methods whose route the Python client lacks")
        # The pairing, for the record (shown with -v): TS name -> Python name.
        pairs = {ts_name: python[route] for ts_name, route in typescript.items() if ts_name not in NOT_YET_IN_PYTHON}
        # Two TS methods may share one route (setVisibility is the narrow form of update); two
        # different routes must never meet in one Python method.
        routes = {route for ts_name, route in typescript.items() if ts_name not in NOT_YET_IN_PYTHON}
        self.assertEqual(len({python[route] for route in routes}), len(routes), f"two routes map to one Python method: {pairs}")


if __name__ == "__main__":
    unittest.main()
