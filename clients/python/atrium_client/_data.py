"""Export and import on the wire: the NDJSON lines of GET /v1/memories/export, decoded one by
one with the checks the TypeScript client makes (a header first, an end line last), and the
body of POST /v1/memories/import, encoded from what a caller has at hand."""

from __future__ import annotations

import json
import typing
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from ._http import Prepared
from .errors import AtriumResponseError, IncompleteExportError
from .models import ExportedMemory, ExportEnd, ExportHeader, ExportLine, GrantEntry, MemoryRecord, decode

ImportFormat = Literal["atrium", "mem0"]
ConflictMode = Literal["skip", "overwrite", "new_id"]

#: What ``import_memories`` takes: the file's text or bytes (NDJSON, or mem0's JSON array), or
#: the lines themselves: what ``export()`` yielded, or plain mappings (mem0: its entries).
ImportData = str | bytes | Iterable[ExportLine | Mapping[str, Any]]

NDJSON = "application/x-ndjson"


class ExportDecoder:
    """Decodes an export's lines in order; ``finish()`` raises when the end line never came."""

    def __init__(self, prepared: Prepared) -> None:
        self._prepared = prepared
        self._first = True
        self._ended = False

    def _bad(self, message: str, body: Any) -> AtriumResponseError:
        return AtriumResponseError(200, message, method=self._prepared.method, path=self._prepared.path, body=body)

    def decode(self, line: bytes) -> ExportLine:
        try:
            value: Any = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise self._bad("an export line is not JSON", line.decode("utf-8", "replace")) from None
        if not isinstance(value, dict):
            raise self._bad("an export line is not a JSON object", value)
        data = typing.cast(dict[str, Any], value)
        if self._ended:
            raise self._bad("a line after the export's end line", data)
        if self._first:
            self._first = False
            if data.get("format") != "atrium.export":
                raise self._bad("the response is not an Atrium export", data)
            return ExportHeader(
                format=data["format"],
                version=int(data.get("version", 0)),
                exported_at=str(data.get("exported_at", "")),
                scope=dict(typing.cast(dict[str, Any], data.get("scope") or {})),
                embedding=dict(typing.cast(dict[str, Any], data.get("embedding") or {})),
                raw=data,
            )
        if data.get("end") is True:
            self._ended = True
            return ExportEnd(count=int(data.get("count", 0)), raw=data)
        grants = data.get("grants")
        embedding = data.get("embedding")
        return ExportedMemory(
            memory=decode(MemoryRecord, {k: v for k, v in data.items() if k not in ("grants", "embedding")}),
            grants=[decode(GrantEntry, g) for g in typing.cast(list[Any], grants)] if isinstance(grants, list) else None,
            embedding=[float(x) for x in typing.cast(list[Any], embedding)] if isinstance(embedding, list) else None,
            raw=data,
        )

    def finish(self) -> None:
        if not self._ended:
            raise IncompleteExportError(
                200,
                "the export ended before its end line (incomplete)",
                method=self._prepared.method,
                path=self._prepared.path,
            )

    def broken(self, cause: BaseException) -> IncompleteExportError:
        """The connection broke mid-stream: the export is incomplete (``cause`` chained)."""
        error = IncompleteExportError(
            200, f"the export stopped before its end line (incomplete): {cause}", method=self._prepared.method, path=self._prepared.path
        )
        error.__cause__ = cause
        return error


def import_body(data: ImportData, format: ImportFormat | None) -> tuple[bytes, str]:
    """The request body and its Content-Type."""
    mem0 = format == "mem0"
    content_type = "application/json" if mem0 else NDJSON
    if isinstance(data, str):
        return data.encode("utf-8"), content_type
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data), content_type
    if isinstance(data, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError("import_memories takes the file's text, or an iterable of lines (one mapping is not a file)")
    items = [item.raw if isinstance(item, (ExportHeader, ExportedMemory, ExportEnd)) else dict(item) for item in data]
    if mem0:
        return json.dumps(items, ensure_ascii=False).encode("utf-8"), content_type
    text = "".join(json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n" for item in items)
    return text.encode("utf-8"), content_type
