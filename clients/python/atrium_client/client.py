"""``Atrium``: the synchronous client, one method per route."""

from __future__ import annotations

import datetime as _dt
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
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


class Atrium:
    """Atrium over HTTP, standard library only.

    The scope is given once here (or per call with ``scope=Scope(...)``): ``user_id`` alone for
    the user's personal memories, ``user_id`` + ``workspace_id`` + ``agent_id`` for a workspace
    as that agent. With ``api_key`` (AUTH_MODE=api_key) the ids may be left out: the service
    takes them from the key, and ids that are given must equal the key's (else 403).

    Errors: ``AtriumError`` and its subclasses (the service said no), ``AtriumTimeoutError``,
    ``AtriumNetworkError``. Retries: see ``Retry``.
    """

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

    def _retrying(self, prepared: Prepared, send: Callable[[], T]) -> T:
        retry = 0
        while True:
            try:
                return send()
            except AtriumException as error:
                delay = retry_delay(self._core.retry, prepared, error, retry)
                if delay is None:
                    raise
                time.sleep(delay)
                retry += 1

    def _call(self, name: str, args: Mapping[str, Any], *, raw: tuple[bytes, str] | None = None, idempotent: bool | None = None) -> Any:
        core = self._core
        route, prepared = core.prepare(name, args, raw=raw, idempotent=idempotent)
        answer = self._retrying(prepared, lambda: attempt(core.base_url, prepared, core.timeout))
        return core.finish(route, answer)

    # Memories ------------------------------------------------------------------------------

    def ingest(
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
        return self._call("ingest", locals())

    def ingest_quick(
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
        return self._call("ingest_quick", locals())

    def search(
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
        return self._call("search", locals())

    def search_fast(
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
        return self._call("search_fast", locals())

    def expand(self, memory_ids: Sequence[str], *, agent_scope: AgentScope | None = None, scope: Scope | None = None) -> ExpandResult:
        """Memories by id (1..100), in the order asked; invisible or unknown ids are left out."""
        return self._call("expand", locals())

    def list(
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
        return self._call("list", locals())

    def export(
        self,
        *,
        agent_scope: AgentScope | None = None,
        include_vectors: bool | None = None,
        include_expired: bool | None = None,
        scope: Scope | None = None,
    ) -> Iterator[ExportLine]:
        """Every memory the caller can see (GET /v1/memories/export), streamed: yields the
        ``ExportHeader``, each ``ExportedMemory`` (oldest first) and the ``ExportEnd``, reading
        the answer as the loop asks for lines (constant memory at any size). A stream that stops
        before its end line raises ``IncompleteExportError``: a truncated export is never taken
        for a whole one. ``include_vectors=True`` adds each vector (an import into the same
        embedder then reuses it). Nothing is sent until the first line is asked for."""
        args = dict(locals())
        core = self._core
        _, prepared = core.prepare("export", args)
        stream = self._retrying(prepared, lambda: open_stream(core.base_url, prepared, core.timeout))
        decoder = ExportDecoder(prepared)
        try:
            while not stream.done:
                try:
                    lines = stream.read_lines()
                except (AtriumNetworkError, AtriumTimeoutError) as error:
                    raise decoder.broken(error) from error
                for line in lines:
                    yield decoder.decode(line)
            decoder.finish()
        finally:
            stream.close()

    def import_memories(
        self,
        data: ImportData,
        *,
        format: ImportFormat | None = None,
        on_conflict: ConflictMode | None = None,
        dry_run: bool | None = None,
        scope: Scope | None = None,
    ) -> ImportResult:
        """Import memories (POST /v1/memories/import) into the scope: ``data`` is an export's
        NDJSON (text or bytes, or the lines ``export()`` yielded, or mappings), or with
        ``format="mem0"`` mem0's export (its JSON text, or its entries). Every record passes the
        write gate. ``on_conflict``: ``skip`` (default), ``overwrite`` or ``new_id`` for an id
        that exists; ``dry_run=True`` writes nothing. Bad lines come back by number in
        ``errors``; the rest is imported. Retried after a lost connection only with ``skip``,
        where a second run changes nothing. One request: send a large file in parts (the
        service cuts a request at HTTP_REQUEST_TIMEOUT_MS), or use ``npm run import``."""
        args = dict(locals())
        return self._call(
            "import_memories", args, raw=import_body(data, format), idempotent=on_conflict is None or on_conflict == "skip"
        )

    def get(
        self, id: str, *, agent_scope: AgentScope | None = None, include_expired: bool | None = None, scope: Scope | None = None
    ) -> MemoryRecord:
        """One memory; NotFoundError when missing or not visible (the two are indistinguishable), or expired
        unless ``include_expired=True``."""
        return self._call("get", locals())

    def delete(self, id: str, *, scope: Scope | None = None) -> Success:
        """Soft delete. Workspace: NotFoundError when nothing visible matched; user scope: success either way."""
        return self._call("delete", locals())

    def update(
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
        return self._call("update", locals())

    def history(self, id: str, *, agent_scope: AgentScope | None = None, scope: Scope | None = None) -> MemoryHistory:
        """Every version of a memory, oldest first (deleted ones included for whoever could see them)."""
        return self._call("history", locals())

    # Grants ----------------------------------------------------------------------------------

    def grant(self, id: str, grantee_agent_id: str, *, scope: Scope | None = None) -> Grant:
        """Share a restricted memory with another agent (ConflictError when it is not restricted)."""
        return self._call("grant", locals())

    def revoke(self, id: str, grantee_agent_id: str, *, scope: Scope | None = None) -> Success:
        """Take a grant back; NotFoundError when there was none."""
        return self._call("revoke", locals())

    def grants(self, id: str, *, scope: Scope | None = None) -> GrantList:
        """The grants on a memory (owning agent only)."""
        return self._call("grants", locals())

    # Lessons and agents (the scope's user_id only) ------------------------------------------

    def lessons(self, *, scope: Scope | None = None) -> LessonList:
        """Active lessons, newest first."""
        return self._call("lessons", locals())

    def lesson_stats(self, *, scope: Scope | None = None) -> LessonStats:
        return self._call("lesson_stats", locals())

    def report_lesson(
        self,
        pattern: str,
        *,
        severity: Severity | None = None,
        source_memory_ids: Sequence[str] | None = None,
        scope: Scope | None = None,
    ) -> LessonReported:
        """Record a ``user_reported`` lesson (``critical`` makes matching searches fail closed)."""
        return self._call("report_lesson", locals())

    def retire_lesson(self, id: str, *, scope: Scope | None = None) -> Success:
        """Deactivate a lesson; NotFoundError for an unknown id or another user's."""
        return self._call("retire_lesson", locals())

    def get_trust(self, agent_id: str, *, scope: Scope | None = None) -> AgentTrust:
        """An agent's trust level (0.5 when never set)."""
        return self._call("get_trust", locals())

    def set_trust(
        self, agent_id: str, trust_level: float, *, display_name: str | None = None, scope: Scope | None = None
    ) -> AgentTrustStored:
        """A workspace write's trust is the lower of its source's and the writing agent's level."""
        return self._call("set_trust", locals())

    # Health ----------------------------------------------------------------------------------

    def health(self) -> Health:
        """``status: ok``; ServiceUnavailableError when the service's database does not answer."""
        return self._call("health", locals())

    def memories_health(self) -> ServiceHealth:
        """Status and the effective runtime config."""
        return self._call("memories_health", locals())

    def whoami(self) -> WhoAmI:
        """The auth mode and who the API key is (its role and the ids it is bound to); ``kind``
        ``open`` in AUTH_MODE=off."""
        return self._call("whoami", locals())
