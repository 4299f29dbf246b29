"""``AsyncAtrium``: the same methods as ``Atrium``, as coroutines.

The standard library has no asyncio HTTP client, so each attempt runs the same urllib code
as ``Atrium`` in a worker thread (``asyncio.to_thread``); the waits between retries are
``asyncio.sleep``, so cancelling a call stops its retries at once. A cancelled attempt that is
already on the wire finishes in its thread (bounded by ``timeout``) and its answer is dropped.
Concurrency is bounded by the default executor's threads. A test keeps the method names and
signatures equal to ``Atrium``'s.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any, TypeVar

from ._core import DEFAULT_TIMEOUT, ClientCore, check_update
from ._data import ConflictMode, ExportDecoder, ImportData, ImportFormat, import_body
from ._http import Prepared, Retry, attempt, open_stream, retry_delay
from ._routes import NOT_GIVEN, ROUTES, AgentScope, NotGiven, Scope
from .errors import AtriumException, AtriumNetworkError, AtriumTimeoutError
from .models import (
    AgentTrust,
    ExportLine,
    ImportResult,
    AgentTrustStored,
    ExpandResult,
    Grant,
    GrantList,
    Health,
    IngestResult,
    LessonList,
    LessonReported,
    LessonStats,
    MemoryHistory,
    MemoryList,
    MemoryRecord,
    SearchResult,
    ServiceHealth,
    Severity,
    Success,
    Visibility,
    WhoAmI,
)

Time = str | _dt.datetime
T = TypeVar("T")


class AsyncAtrium:
    """``Atrium`` for asyncio: the same constructor, methods and errors, awaited."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        user_id: str | None = None,
        workspace_id: str | None = None,
        agent_id: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        retries: Retry = Retry(),
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self._core = ClientCore(
            base_url,
            routes=ROUTES,
            scope=Scope(user_id, workspace_id, agent_id),
            credential=api_key,
            timeout=timeout,
            retries=retries,
            headers=headers,
        )

    @property
    def scope(self) -> Scope:
        return self._core.scope

    async def _retrying(self, prepared: Prepared, send: Callable[[], T]) -> T:
        """``send`` (blocking) in a worker thread, again after a retryable error."""
        retry = 0
        while True:
            try:
                return await asyncio.to_thread(send)
            except AtriumException as error:
                delay = retry_delay(self._core.retry, prepared, error, retry)
                if delay is None:
                    raise
                await asyncio.sleep(delay)
                retry += 1

    async def _call(self, name: str, args: Mapping[str, Any], *, raw: tuple[bytes, str] | None = None, idempotent: bool | None = None) -> Any:
        core = self._core
        route, prepared = core.prepare(name, args, raw=raw, idempotent=idempotent)
        answer = await self._retrying(prepared, lambda: attempt(core.base_url, prepared, core.timeout))
        return core.finish(route, answer)

    # Memories ------------------------------------------------------------------------------

    async def ingest(
        self,
        conversation: str,
        *,
        source_site: str,
        source_url: str | None = None,
        visibility: Visibility | None = None,
        metadata: Mapping[str, Any] | None = None,
        namespace: str | None = None,
        expires_at: Time | None = None,
        scope: Scope | None = None,
    ) -> IngestResult:
        """Extract facts (LLM when the service has one, else rules), gate, de-duplicate, store. Never retried after a 503."""
        return await self._call("ingest", locals())

    async def ingest_quick(
        self,
        conversation: str,
        *,
        source_site: str,
        source_url: str | None = None,
        visibility: Visibility | None = None,
        metadata: Mapping[str, Any] | None = None,
        namespace: str | None = None,
        skip_extraction: bool | None = None,
        expires_at: Time | None = None,
        scope: Scope | None = None,
    ) -> IngestResult:
        """Rule-based extraction only; ``skip_extraction=True`` stores the text verbatim (still gated)."""
        return await self._call("ingest_quick", locals())

    async def search(
        self,
        query: str,
        *,
        limit: int | None = None,
        agent_scope: AgentScope | None = None,
        source_site: str | None = None,
        namespace_scope: str | Sequence[str] | None = None,
        as_of: Time | None = None,
        reference_time: Time | None = None,
        scope: Scope | None = None,
    ) -> SearchResult:
        """Hybrid search (vector + full text). Check ``lesson_check.safe``: False means it failed closed."""
        return await self._call("search", locals())

    async def search_fast(
        self,
        query: str,
        *,
        limit: int | None = None,
        agent_scope: AgentScope | None = None,
        source_site: str | None = None,
        namespace_scope: str | Sequence[str] | None = None,
        as_of: Time | None = None,
        reference_time: Time | None = None,
        scope: Scope | None = None,
    ) -> SearchResult:
        """Vector-only search."""
        return await self._call("search_fast", locals())

    async def expand(self, memory_ids: Sequence[str], *, agent_scope: AgentScope | None = None, scope: Scope | None = None) -> ExpandResult:
        """Memories by id (1..100), in the order asked; invisible or unknown ids are left out."""
        return await self._call("expand", locals())

    async def list(
        self,
        *,
        limit: int | None = None,
        offset: int | None = None,
        agent_scope: AgentScope | None = None,
        source_site: str | None = None,
        episode_id: str | None = None,
        include_expired: bool | None = None,
        scope: Scope | None = None,
    ) -> MemoryList:
        """Newest first; ``limit`` 1..100 (default 20); ``include_expired=True`` adds expired memories."""
        return await self._call("list", locals())

    async def export(
        self,
        *,
        agent_scope: AgentScope | None = None,
        include_vectors: bool | None = None,
        include_expired: bool | None = None,
        scope: Scope | None = None,
    ) -> AsyncIterator[ExportLine]:
        """``Atrium.export`` as an async generator (``async for line in atrium.export()``): each
        chunk of the answer is read in a worker thread; ``IncompleteExportError`` when the stream
        stops before its end line."""
        args = dict(locals())
        core = self._core
        _, prepared = core.prepare("export", args)
        stream = await self._retrying(prepared, lambda: open_stream(core.base_url, prepared, core.timeout))
        decoder = ExportDecoder(prepared)
        try:
            while not stream.done:
                try:
                    lines = await asyncio.to_thread(stream.read_lines)
                except (AtriumNetworkError, AtriumTimeoutError) as error:
                    raise decoder.broken(error) from error
                for line in lines:
                    yield decoder.decode(line)
            decoder.finish()
        finally:
            stream.close()

    async def import_memories(
        self,
        data: ImportData,
        *,
        format: ImportFormat | None = None,
        on_conflict: ConflictMode | None = None,
        dry_run: bool | None = None,
        scope: Scope | None = None,
    ) -> ImportResult:
        """``Atrium.import_memories``, awaited."""
        args = dict(locals())
        return await self._call(
            "import_memories", args, raw=import_body(data, format), idempotent=on_conflict is None or on_conflict == "skip"
        )

    async def get(
        self, id: str, *, agent_scope: AgentScope | None = None, include_expired: bool | None = None, scope: Scope | None = None
    ) -> MemoryRecord:
        """One memory; NotFoundError when missing or not visible (the two are indistinguishable), or expired
        unless ``include_expired=True``."""
        return await self._call("get", locals())

    async def delete(self, id: str, *, scope: Scope | None = None) -> Success:
        """Soft delete. Workspace: NotFoundError when nothing visible matched; user scope: success either way."""
        return await self._call("delete", locals())

    async def update(
        self,
        id: str,
        *,
        visibility: Visibility | None = None,
        content: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        expires_at: Time | None | NotGiven = NOT_GIVEN,
        scope: Scope | None = None,
    ) -> MemoryRecord:
        """PATCH a memory, sending only what is given (``expires_at=None`` clears the expiry). New content
        passes the write gate (UnprocessableError when blocked) and is re-embedded. In a workspace only
        the owning agent may (404 when not visible, 403 when not owned); in user scope the user."""
        check_update(visibility, content, metadata, expires_at)
        return await self._call("update", locals())

    async def history(self, id: str, *, agent_scope: AgentScope | None = None, scope: Scope | None = None) -> MemoryHistory:
        """Every version of a memory, oldest first (deleted ones included for whoever could see them)."""
        return await self._call("history", locals())

    # Grants ----------------------------------------------------------------------------------

    async def grant(self, id: str, grantee_agent_id: str, *, scope: Scope | None = None) -> Grant:
        """Share a restricted memory with another agent (ConflictError when it is not restricted)."""
        return await self._call("grant", locals())

    async def revoke(self, id: str, grantee_agent_id: str, *, scope: Scope | None = None) -> Success:
        """Take a grant back; NotFoundError when there was none."""
        return await self._call("revoke", locals())

    async def grants(self, id: str, *, scope: Scope | None = None) -> GrantList:
        """The grants on a memory (owning agent only)."""
        return await self._call("grants", locals())

    # Lessons and agents (the scope's user_id only) ------------------------------------------

    async def lessons(self, *, scope: Scope | None = None) -> LessonList:
        """Active lessons, newest first."""
        return await self._call("lessons", locals())

    async def lesson_stats(self, *, scope: Scope | None = None) -> LessonStats:
        return await self._call("lesson_stats", locals())

    async def report_lesson(
        self,
        pattern: str,
        *,
        severity: Severity | None = None,
        source_memory_ids: Sequence[str] | None = None,
        scope: Scope | None = None,
    ) -> LessonReported:
        """Record a ``user_reported`` lesson (``critical`` makes matching searches fail closed)."""
        return await self._call("report_lesson", locals())

    async def retire_lesson(self, id: str, *, scope: Scope | None = None) -> Success:
        """Deactivate a lesson; NotFoundError for an unknown id or another user's."""
        return await self._call("retire_lesson", locals())

    async def get_trust(self, agent_id: str, *, scope: Scope | None = None) -> AgentTrust:
        """An agent's trust level (0.5 when never set)."""
        return await self._call("get_trust", locals())

    async def set_trust(
        self, agent_id: str, trust_level: float, *, display_name: str | None = None, scope: Scope | None = None
    ) -> AgentTrustStored:
        """A workspace write's trust is the lower of its source's and the writing agent's level."""
        return await self._call("set_trust", locals())

    # Health ----------------------------------------------------------------------------------

    async def health(self) -> Health:
        """``status: ok``; ServiceUnavailableError when the service's database does not answer."""
        return await self._call("health", locals())

    async def memories_health(self) -> ServiceHealth:
        """Status and the effective runtime config."""
        return await self._call("memories_health", locals())

    async def whoami(self) -> WhoAmI:
        """The auth mode and who the API key is (its role and the ids it is bound to); ``kind``
        ``open`` in AUTH_MODE=off."""
        return await self._call("whoami", locals())
