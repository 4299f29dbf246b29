"""`pip install ./clients/python` works with no package index: the in-tree build backend
(_build/atrium_build.py) makes a wheel holding every module and py.typed, with the version the
package reports."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile
from pathlib import Path

import atrium_client

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_build"))
import atrium_build  # noqa: E402


class PackagingTest(unittest.TestCase):
    def test_the_wheel_holds_the_package_and_imports_from_itself(self) -> None:
        with tempfile.TemporaryDirectory() as out:
            name: str = atrium_build.build_wheel(out)
            wheel = Path(out) / name
            self.assertEqual(name, f"atrium_client-{atrium_client.__version__}-py3-none-any.whl")
            with zipfile.ZipFile(wheel) as archive:
                names = set(archive.namelist())
                metadata = archive.read(f"atrium_client-{atrium_client.__version__}.dist-info/METADATA").decode()
            modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "atrium_client").glob("*.py")}
            self.assertLessEqual(modules | {"atrium_client/py.typed"}, names)
            self.assertIn(f"Version: {atrium_client.__version__}\n", metadata)
            self.assertFalse([n for n in names if "__pycache__" in n])
            # A pure-Python wheel is importable as it is: the package comes from the wheel, whole.
            probe = "import atrium_client, sys; print(atrium_client.__file__); atrium_client.Atrium('http://localhost:3050')"
            where = subprocess.run([sys.executable, "-c", probe], env={"PYTHONPATH": str(wheel)}, cwd=out, capture_output=True, text=True, check=True)
            self.assertIn(name, where.stdout)

    def test_the_sdist_holds_what_a_rebuild_needs(self) -> None:
        with tempfile.TemporaryDirectory() as out:
            name: str = atrium_build.build_sdist(out)
            with tarfile.open(Path(out) / name) as archive:
                names = {m.name.split("/", 1)[1] for m in archive.getmembers()}
            self.assertLessEqual({"pyproject.toml", "README.md", "PKG-INFO", "_build/atrium_build.py", "atrium_client/py.typed"}, names)


if __name__ == "__main__":
    unittest.main()
