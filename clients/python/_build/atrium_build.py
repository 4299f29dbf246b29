"""A PEP 517 build backend in the standard library only, so that `pip install ./clients/python`
needs no package index (setuptools and wheel are not on every machine, and these machines reach
none). It builds a pure-Python wheel of `atrium_client` and an sdist of this folder.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "atrium_client"


def _project() -> dict[str, str]:
    """name, version, description and requires-python from pyproject.toml's [project] table."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    table = text.split("[project]", 1)[1].split("\n[", 1)[0]
    found = dict(re.findall(r'^([\w-]+) = "([^"]*)"$', table, re.MULTILINE))
    return {key: found[key] for key in ("name", "version", "description", "requires-python")}


def _metadata() -> str:
    project = _project()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {project['name']}\n"
        f"Version: {project['version']}\n"
        f"Summary: {project['description']}\n"
        f"Requires-Python: {project['requires-python']}\n"
        "Classifier: Typing :: Typed\n"
        "Description-Content-Type: text/markdown\n\n"
        f"{readme}"
    )


def _dist_name() -> str:
    project = _project()
    return f"{project['name'].replace('-', '_')}-{project['version']}"


def _package_files() -> list[Path]:
    return sorted(p for p in (ROOT / PACKAGE).rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def get_requires_for_build_wheel(config_settings: object = None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings: object = None) -> list[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: object = None, metadata_directory: object = None) -> str:
    name = f"{_dist_name()}-py3-none-any.whl"
    dist_info = f"{_dist_name()}.dist-info"
    entries: list[tuple[str, bytes]] = [(p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in _package_files()]
    entries.append((f"{dist_info}/METADATA", _metadata().encode("utf-8")))
    entries.append((f"{dist_info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: atrium_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"))
    entries.append((f"{dist_info}/top_level.txt", f"{PACKAGE}\n".encode()))
    record = "".join(f"{path},{_digest(data)},{len(data)}\n" for path, data in entries) + f"{dist_info}/RECORD,,\n"
    entries.append((f"{dist_info}/RECORD", record.encode("utf-8")))
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in entries:
            wheel.writestr(zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0)), data)
    return name


def build_sdist(sdist_directory: str, config_settings: object = None) -> str:
    base = _dist_name()
    name = f"{base}.tar.gz"
    files = [ROOT / "pyproject.toml", ROOT / "README.md", Path(__file__), *_package_files()]
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as sdist:
        for path in files:
            sdist.add(path, arcname=f"{base}/{path.relative_to(ROOT).as_posix()}")
        info = _metadata().encode("utf-8")
        member = tarfile.TarInfo(f"{base}/PKG-INFO")
        member.size = len(info)
        sdist.addfile(member, io.BytesIO(info))
    return name
