"""Typed records and results, snake_case as on the wire.

Each class names the OpenAPI schema(s) it stands for (``WIRE_SCHEMAS``); the drift test
compares its fields with the schemas the service serves at ``/docs-json``.

Forward compatible: a field the server sends that a class does not know is kept in
``extra`` instead of failing, so an older client keeps working against a newer service.
Timestamps are ISO-8601 strings in UTC, as sent (``datetime.fromisoformat`` reads them).
Enum-like values (``visibility``, ``memory_type``...) are plain strings for the same reason.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeVar, Union

from .errors import AtriumResponseError

Visibility = Literal["workspace", "agent_only", "restricted"]
Severity = Literal["low", "medium", "high", "critical"]
KeyRole = Literal["agent", "user", "service"]

# Every field that may be absent or null defaults to None; the rest are required.

M = TypeVar("M", bound="WireModel")


@dataclass(frozen=True, kw_only=True)
class WireModel:
    """Base of every record: ``extra`` holds fields this version of the client does not know."""

    WIRE_SCHEMAS: ClassVar[tuple[str, ...]] = ()

    extra: Mapping[str, Any] = field(default_factory=dict[str, Any], repr=False, compare=False)

    @classmethod
    def from_wire(cls: type[M], data: Any) -> M:
        return decode(cls, data)


def client_only(default: Any) -> Any:
    """A field the client fills in itself (never on the wire, so not in the drift test)."""
    return field(default=default, metadata={"client_only": True})


@dataclass(frozen=True, kw_only=True)
class MemoryRecord(WireModel):
    """A stored memory (CONTRACT section 4). Never carries the embedding."""

    WIRE_SCHEMAS = ("MemoryRecord",)
    id: str
    user_id: str
    content: str
    memory_type: str
    importance: float
    source_site: str
    source_url: str | None = None
    episode_id: str | None = None
    namespace: str | None = None
    status: str
    #: The caller's own object, returned exactly as stored.
    metadata: dict[str, Any]
    trust_score: float
    workspace_id: str | None = None
    agent_id: str | None = None
    #: None on legacy rows and in user scope (treated as ``workspace``).
    visibility: str | None = None
    created_at: str
    updated_at: str
    last_accessed_at: str | None = None
    access_count: int
    #: 1 at creation, +1 per change.
    version: int
    #: When the memory stops being returned; None: never.
    expires_at: str | None = None
    #: Set when the memory was superseded (valid time); None: still valid.
    valid_until: str | None = None


@dataclass(frozen=True, kw_only=True)
class MemoryVersion(WireModel):
    """The memory as it was after one change (``change``: ``created``, ``edited``,
    ``visibility_changed``, ``expiry_changed``, ``superseded`` or ``deleted``)."""

    WIRE_SCHEMAS = ("MemoryVersion",)
    version: int
    change: str
    content: str
    metadata: dict[str, Any]
    visibility: str | None = None
    expires_at: str | None = None
    changed_at: str
    #: The agent that made the change (None in user scope).
    agent_id: str | None = None
    #: The API key that made it (None without one).
    key_id: str | None = None


@dataclass(frozen=True, kw_only=True)
class MemoryHistory(WireModel):
    """Every version of a memory, oldest first."""

    WIRE_SCHEMAS = ("MemoryHistory",)
    versions: list[MemoryVersion]
    count: int


@dataclass(frozen=True, kw_only=True)
class SearchHit(WireModel):
    WIRE_SCHEMAS = ("SearchHit",)
    id: str
    content: str
    similarity: float
    score: float
    importance: float
    source_site: str
    created_at: str
    metadata: dict[str, Any]
    workspace_id: str | None = None
    agent_id: str | None = None
    visibility: str | None = None


@dataclass(frozen=True, kw_only=True)
class LessonCheck(WireModel):
    """``safe`` is False only when a ``critical`` lesson matched: the search then failed closed."""

    WIRE_SCHEMAS = ("LessonCheck",)
    safe: bool
    warnings: list[str]
    #: ``none`` when nothing matched.
    highest_severity: str
    matched_count: int


@dataclass(frozen=True, kw_only=True)
class ResolvedScope(WireModel):
    """The scope a search ran under, as the service echoes it (``kind`` is ``user`` or ``workspace``)."""

    WIRE_SCHEMAS = ("UserScope", "WorkspaceScope")
    kind: str
    user_id: str
    workspace_id: str | None = None
    agent_id: str | None = None
    agent_scope: str | list[str] | None = None


@dataclass(frozen=True, kw_only=True)
class SearchResult(WireModel):
    WIRE_SCHEMAS = ("SearchResponse",)
    count: int
    retrieval_mode: str
    scope: ResolvedScope
    memories: list[SearchHit]
    #: The memories as a prompt block, each one fenced and labelled with its id.
    injection_text: str
    citations: list[str]
    #: None while lessons are off. ``safe`` False: the search failed closed (no memories).
    lesson_check: LessonCheck | None = None


@dataclass(frozen=True, kw_only=True)
class IngestResult(WireModel):
    """Counts and ids of one ingest; skipped = duplicates, NOOPs and facts the write gate rejected."""

    WIRE_SCHEMAS = ("IngestResponse",)
    episode_id: str
    facts_extracted: int
    memories_stored: int
    memories_updated: int
    memories_deleted: int
    memories_skipped: int
    stored_memory_ids: list[str]
    updated_memory_ids: list[str]


@dataclass(frozen=True, kw_only=True)
class ExpandResult(WireModel):
    """The memories asked for, in that order; invisible or unknown ids left out."""

    WIRE_SCHEMAS = ("ExpandResponse",)
    memories: list[MemoryRecord]


@dataclass(frozen=True, kw_only=True)
class MemoryList(WireModel):
    """A page of memories, newest first."""

    WIRE_SCHEMAS = ("ListResponse",)
    memories: list[MemoryRecord]
    count: int


@dataclass(frozen=True, kw_only=True)
class Success(WireModel):
    WIRE_SCHEMAS = ("Success", "LessonRetired")
    success: bool


@dataclass(frozen=True, kw_only=True)
class Grant(WireModel):
    WIRE_SCHEMAS = ("Grant",)
    memory_id: str
    grantee_agent_id: str
    created_at: str
    #: False when the grant already existed (the service answered 200, not 201).
    created: bool = client_only(True)


@dataclass(frozen=True, kw_only=True)
class GrantEntry(WireModel):
    WIRE_SCHEMAS = ("GrantEntry",)
    grantee_agent_id: str
    created_at: str


@dataclass(frozen=True, kw_only=True)
class GrantList(WireModel):
    WIRE_SCHEMAS = ("GrantList",)
    grants: list[GrantEntry]
    count: int


@dataclass(frozen=True, kw_only=True)
class Lesson(WireModel):
    """A stored lesson. ``pattern`` may hold raw attack text: treat it as sensitive."""

    WIRE_SCHEMAS = ("Lesson",)
    id: str
    user_id: str
    lesson_type: str
    pattern: str
    embedding: list[float]
    source_memory_ids: list[str]
    source_query: str | None = None
    severity: str
    active: bool
    metadata: dict[str, Any]
    created_at: str


@dataclass(frozen=True, kw_only=True)
class LessonList(WireModel):
    WIRE_SCHEMAS = ("LessonList",)
    lessons: list[Lesson]
    count: int


@dataclass(frozen=True, kw_only=True)
class LessonStats(WireModel):
    WIRE_SCHEMAS = ("LessonStats",)
    total_active: int
    #: Keyed by lesson type; empty while lessons are off.
    by_type: dict[str, int]


@dataclass(frozen=True, kw_only=True)
class LessonReported(WireModel):
    WIRE_SCHEMAS = ("LessonReported",)
    #: None while lessons are off (nothing was stored).
    lesson_id: str | None = None


@dataclass(frozen=True, kw_only=True)
class AgentTrust(WireModel):
    WIRE_SCHEMAS = ("AgentTrust",)
    agent_id: str
    #: 0..1; 0.5 for an agent never set.
    trust_level: float


@dataclass(frozen=True, kw_only=True)
class AgentTrustStored(WireModel):
    WIRE_SCHEMAS = ("AgentTrustStored",)
    agent_id: str
    trust_level: float
    display_name: str | None = None


@dataclass(frozen=True, kw_only=True)
class Health(WireModel):
    WIRE_SCHEMAS = ("HealthOk",)
    status: str


@dataclass(frozen=True, kw_only=True)
class EffectiveConfig(WireModel):
    """The runtime config the answering instance applies, plus startup-only selections."""

    WIRE_SCHEMAS = ("EffectiveConfig",)
    max_search_results: int
    lessons_enabled: bool
    lesson_similarity_threshold: float
    trust_scoring_enabled: bool
    trust_score_min_threshold: float
    audn_candidate_threshold: float
    duplicate_threshold: float
    trusted_source_sites: list[str]
    config_version: int
    embedding_provider: str
    embedding_model: str
    embedding_dimensions: int
    llm_provider: str
    llm_model: str | None = None
    database: str
    runtime_config_mutation_enabled: bool


@dataclass(frozen=True, kw_only=True)
class ServiceHealth(WireModel):
    WIRE_SCHEMAS = ("ServiceHealth",)
    status: str
    config: EffectiveConfig


@dataclass(frozen=True, kw_only=True)
class ConfigApplied(WireModel):
    WIRE_SCHEMAS = ("ConfigApplied",)
    #: The changed field names (snake_case).
    applied: list[str]
    config: EffectiveConfig


@dataclass(frozen=True, kw_only=True)
class ApiKey(WireModel):
    """An API key as listed: never the secret."""

    WIRE_SCHEMAS = ("ApiKey",)
    id: str
    role: str
    #: ``*`` for a service key.
    user_id: str
    workspace_id: str | None = None
    agent_id: str | None = None
    label: str | None = None
    expires_at: str | None = None
    rate_limit_per_minute: int | None = None
    revoked_at: str | None = None
    created_at: str


@dataclass(frozen=True, kw_only=True)
class CreatedApiKey(ApiKey):
    """The creation answer: the only time the secret ``key`` is shown."""

    WIRE_SCHEMAS = ("CreatedApiKey",)
    key: str = field(repr=False)


@dataclass(frozen=True, kw_only=True)
class ApiKeyList(WireModel):
    WIRE_SCHEMAS = ("ApiKeyList",)
    keys: list[ApiKey]
    count: int


@dataclass(frozen=True, kw_only=True)
class WebhookSubscription(WireModel):
    """A webhook subscription as listed: never the secret. With workspace_id and agent_id it
    receives events about what that agent can read; without, about the user's personal memories."""

    WIRE_SCHEMAS = ("WebhookSubscription",)
    id: str
    user_id: str
    workspace_id: str | None = None
    agent_id: str | None = None
    url: str
    events: list[str]
    created_at: str


@dataclass(frozen=True, kw_only=True)
class CreatedWebhookSubscription(WebhookSubscription):
    """The creation answer: the only time the signing ``secret`` is shown."""

    WIRE_SCHEMAS = ("CreatedWebhookSubscription",)
    secret: str = field(repr=False)


@dataclass(frozen=True, kw_only=True)
class WebhookSubscriptionList(WireModel):
    WIRE_SCHEMAS = ("WebhookSubscriptionList",)
    subscriptions: list[WebhookSubscription]
    count: int


@dataclass(frozen=True, kw_only=True)
class WebhookDelivery(WireModel):
    """One event for one subscriber: ``pending``, ``delivered`` or ``dead`` (dead-lettered)."""

    WIRE_SCHEMAS = ("WebhookDelivery",)
    #: The ``webhook-id`` header, the same on every attempt.
    id: str
    event_id: str
    subscription_id: str
    user_id: str
    event_type: str
    status: str
    attempts: int
    next_attempt_at: str
    last_error: str | None = None
    created_at: str
    delivered_at: str | None = None


@dataclass(frozen=True, kw_only=True)
class WebhookDeliveryList(WireModel):
    WIRE_SCHEMAS = ("WebhookDeliveryList",)
    deliveries: list[WebhookDelivery]
    count: int


@dataclass(frozen=True, kw_only=True)
class AuditEvent(WireModel):
    WIRE_SCHEMAS = ("AuditEvent",)
    id: str
    at: str
    action: str
    user_id: str | None = None
    workspace_id: str | None = None
    agent_id: str | None = None
    key_id: str | None = None
    target_id: str | None = None
    request_id: str | None = None
    #: Ids, enum values and counts (never memory content or secrets).
    detail: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class AuditEventList(WireModel):
    WIRE_SCHEMAS = ("AuditEventList",)
    events: list[AuditEvent]
    count: int


@dataclass(frozen=True, kw_only=True)
class WhoAmI(WireModel):
    """Who the client's credential is: ``kind`` is ``open`` in AUTH_MODE=off, else the key's role,
    with the ids it is bound to (None where the role has none)."""

    WIRE_SCHEMAS = ("WhoAmI",)
    auth_mode: str
    kind: str
    key_id: str | None
    user_id: str | None
    workspace_id: str | None
    agent_id: str | None


@dataclass(frozen=True, kw_only=True)
class ReadRuleConditions(WireModel):
    """Each alternative of the read rule, evaluated on one memory for one agent."""

    WIRE_SCHEMAS = ("ReadRuleConditions",)
    owner: bool
    workspace: bool
    grant: bool


@dataclass(frozen=True, kw_only=True)
class ExplainedMemory(WireModel):
    """Where an explained memory is; never its content."""

    WIRE_SCHEMAS = ("ExplainedMemory",)
    workspace_id: str | None
    agent_id: str | None
    visibility: str | None
    deleted: bool
    superseded: bool
    expired: bool


@dataclass(frozen=True, kw_only=True)
class VisibilityExplanation(WireModel):
    """Why an agent can or cannot read a memory (admin): ``rule`` is ``owner``, ``workspace``,
    ``grant`` or ``not_visible``, then ``hidden_because`` says what keeps it out."""

    WIRE_SCHEMAS = ("VisibilityExplanation",)
    memory_id: str
    user_id: str
    workspace_id: str
    agent_id: str
    visible: bool
    rule: str
    hidden_because: str | None
    conditions: ReadRuleConditions
    memory: ExplainedMemory


@dataclass(frozen=True, kw_only=True)
class ErasureReceipt(WireModel):
    """What an erasure deleted, table by table, and the residue counted again afterwards (all 0)."""

    WIRE_SCHEMAS = ("ErasureReceipt",)
    erased: dict[str, Any]
    residue: dict[str, Any]
    erased_at: str


@dataclass(frozen=True, kw_only=True)
class ImportLineError(WireModel):
    """A line (mem0: an entry) that was not imported, by its 1-based number, and why."""

    WIRE_SCHEMAS = ("ImportErrorDoc",)
    line: int
    error: str


@dataclass(frozen=True, kw_only=True)
class ImportResult(WireModel):
    """What an import did: records written (with ``dry_run``: that would be), skipped (the id
    exists, with ``on_conflict="skip"``), blocked by the write gate, failed; the first 1,000
    failed lines in ``errors``."""

    WIRE_SCHEMAS = ("ImportResultDoc",)
    imported: int
    skipped: int
    blocked: int
    failed: int
    errors: list[ImportLineError]


# Export lines (GET /v1/memories/export is NDJSON, outside the OpenAPI schemas: these are not
# WireModels). Each keeps ``raw``, the line as sent, so an export can be written to a file and
# given back to ``import_memories`` unchanged.


@dataclass(frozen=True)
class ExportHeader:
    """The first line: ``format`` ``atrium.export``, ``version``, when, whose (``scope``), and the
    embedding identity (``provider``, ``model``, ``dimensions``) the vectors were made with."""

    kind: ClassVar[Literal["header"]] = "header"
    format: str
    version: int
    exported_at: str
    scope: dict[str, Any]
    embedding: dict[str, Any]
    raw: dict[str, Any] = field(repr=False, compare=False)


@dataclass(frozen=True)
class ExportedMemory:
    """One memory of an export: the record, the grants on it (the owner's export only), and its
    vector (``include_vectors=True`` only)."""

    kind: ClassVar[Literal["memory"]] = "memory"
    memory: MemoryRecord
    grants: list[GrantEntry] | None
    embedding: list[float] | None
    raw: dict[str, Any] = field(repr=False, compare=False)


@dataclass(frozen=True)
class ExportEnd:
    """The last line of a complete export: ``count`` memories were sent."""

    kind: ClassVar[Literal["end"]] = "end"
    count: int
    raw: dict[str, Any] = field(repr=False, compare=False)


ExportLine = Union[ExportHeader, ExportedMemory, ExportEnd]


# ---------------------------------------------------------------------------------------------
# Decoding: JSON (already parsed) -> the classes above, driven by their type hints.


@functools.cache
def _hints(cls: type[WireModel]) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def wire_fields(cls: type[WireModel]) -> list[dataclasses.Field[Any]]:
    """The fields that come from the wire (not ``extra``, not client-only ones)."""
    return [f for f in dataclasses.fields(cls) if f.name != "extra" and not f.metadata.get("client_only")]


def decode(cls: type[M], data: Any) -> M:
    if not isinstance(data, dict):
        raise AtriumResponseError(200, f"expected a JSON object for {cls.__name__}, got {type(data).__name__}")
    data = typing.cast(dict[str, Any], data)
    hints = _hints(cls)
    known = {f.name: f for f in wire_fields(cls)}
    values: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for name, value in data.items():
        if name in known:
            values[name] = _decode_value(hints[name], value, f"{cls.__name__}.{name}")
        else:
            extra[name] = value
    missing = [
        name
        for name, f in known.items()
        if name not in values and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    if missing:
        raise AtriumResponseError(200, f"{cls.__name__} answer lacks {', '.join(missing)}")
    return cls(**values, extra=extra)


def _decode_value(hint: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if hint is Any:
        return value
    if origin in (Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        if value is None:
            return None
        # The only unions of structured types here are `X | None` and `str | list[str]`.
        for option in options:
            if _matches(option, value):
                return _decode_value(option, value, where)
        return value
    if isinstance(hint, type) and issubclass(hint, WireModel):
        return decode(hint, value)
    if origin is list:
        (item,) = typing.get_args(hint)
        if not isinstance(value, list):
            raise AtriumResponseError(200, f"{where}: expected a list")
        return [_decode_value(item, v, where) for v in typing.cast(list[Any], value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise AtriumResponseError(200, f"{where}: expected an object")
        return dict(typing.cast(dict[str, Any], value))
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def _matches(hint: Any, value: Any) -> bool:
    origin = typing.get_origin(hint)
    if origin is list:
        return isinstance(value, list)
    if origin is dict or (isinstance(hint, type) and issubclass(hint, WireModel)):
        return isinstance(value, dict)
    return True
