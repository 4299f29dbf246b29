"""The README's example runs as written (against a test service instead of localhost:3050)."""

from __future__ import annotations

import contextlib
import io
import re
import unittest
from pathlib import Path

from .support import open_service

README = Path(__file__).resolve().parent.parent / "README.md"


class ReadmeTest(unittest.TestCase):
    def test_the_first_example_runs_and_finds_what_it_stored(self) -> None:
        match = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
        assert match is not None
        code = match.group(1)
        self.assertLessEqual(len(code.strip().splitlines()), 10)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code.replace("http://localhost:3050", open_service().url), str(README), "exec"), {})
        self.assertRegex(printed.getvalue(), r"^[0-9.]+ The Q3 budget is 40k\n$")


if __name__ == "__main__":
    unittest.main()
