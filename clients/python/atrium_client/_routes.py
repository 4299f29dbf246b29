"""The route table: one entry per route, and the one function that turns a method's
arguments into a request for it.

Adding a route is one entry here plus a method (on ``Atrium`` and ``AsyncAtrium``, or on
``AtriumAdmin``) that names it; where the scope goes, which parameters are path parameters,
what is retried and what the answer decodes to all come from the entry.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import re
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ._http import Prepared
from .models import (
    AgentTrust,
    AgentTrustStored,
    ApiKeyList,
    AuditEventList,
    ConfigApplied,
    CreatedApiKey,
    ErasureReceipt,
    CreatedWebhookSubscription,
    ExpandResult,
    Grant,
    GrantList,
    Health,
    ImportResult,
    IngestResult,
    LessonList,
    LessonReported,
    LessonStats,
    MemoryHistory,
    MemoryList,
    MemoryRecord,
    SearchResult,
    ServiceHealth,
    Success,
    VisibilityExplanation,
    WhoAmI,
    WireModel,
    WebhookDeliveryList,
    WebhookSubscriptionList,
)

#: Which scope fields a route takes:
#: - ``read``: user_id, workspace_id, agent_id (and the method's own ``agent_scope``);
#: - ``write``: user_id, workspace_id, agent_id (writes belong to the calling agent);
#: - ``user``: user_id only (lessons and trust belong to the user, never to a workspace);
#: - ``none``: no scope (health, admin).
ScopeUse = Literal["read", "write", "user", "none"]


@dataclass(frozen=True)
class Route:
    method: Literal["GET", "POST", "PUT", "PATCH", "DELETE"]
    #: ``{name}`` segments are path parameters, filled from the method argument of that name.
    path: str
    response: type[WireModel]
    scope: ScopeUse = "none"
    #: Safe to send twice (reads, PUT/PATCH to a value, grants, deletes): retried after a lost
    #: connection, a timeout or a 503. Ingest, lesson reports and key creation are not.
    idempotent: bool = True
    #: Which credential it needs: the API key (when the client has one) or the admin token.
    auth: Literal["key", "admin"] = "key"
    #: Arguments for which None means "send null" (their default is NOT_GIVEN instead).
    nullable: frozenset[str] = frozenset()
    #: The answer's status tells whether something was created (Grant.created).
    created_flag: bool = False
    #: The answer is NDJSON, read line by line (export); ``response`` is then what its memory
    #: lines hold.
    streamed: bool = False
    #: The argument that is the request body, sent as is (an import's file); the other
    #: arguments go into the query string.
    raw_body: str | None = None

    @property
    def path_params(self) -> list[str]:
        return re.findall(r"{(\w+)}", self.path)


ROUTES: dict[str, Route] = {
    "ingest": Route("POST", "/v1/memories/ingest", IngestResult, "write", idempotent=False),
    "ingest_quick": Route("POST", "/v1/memories/ingest/quick", IngestResult, "write", idempotent=False),
    "search": Route("POST", "/v1/memories/search", SearchResult, "read"),
    "search_fast": Route("POST", "/v1/memories/search/fast", SearchResult, "read"),
    "expand": Route("POST", "/v1/memories/expand", ExpandResult, "read"),
    "list": Route("GET", "/v1/memories/list", MemoryList, "read"),
    "export": Route("GET", "/v1/memories/export", MemoryRecord, "read", streamed=True),
    # Safe to send twice only with on_conflict=skip (the method says so per call).
    "import_memories": Route("POST", "/v1/memories/import", ImportResult, "write", idempotent=False, raw_body="data"),
    "get": Route("GET", "/v1/memories/{id}", MemoryRecord, "read"),
    "delete": Route("DELETE", "/v1/memories/{id}", Success, "write"),
    "update": Route("PATCH", "/v1/memories/{id}", MemoryRecord, "write", nullable=frozenset({"expires_at"})),
    "history": Route("GET", "/v1/memories/{id}/history", MemoryHistory, "read"),
    "grant": Route("POST", "/v1/memories/{id}/grants", Grant, "write", created_flag=True),
    "grants": Route("GET", "/v1/memories/{id}/grants", GrantList, "write"),
    "revoke": Route("DELETE", "/v1/memories/{id}/grants/{grantee_agent_id}", Success, "write"),
    "lessons": Route("GET", "/v1/memories/lessons", LessonList, "user"),
    "lesson_stats": Route("GET", "/v1/memories/lessons/stats", LessonStats, "user"),
    "report_lesson": Route("POST", "/v1/memories/lessons/report", LessonReported, "user", idempotent=False),
    "retire_lesson": Route("DELETE", "/v1/memories/lessons/{id}", Success, "user"),
    "get_trust": Route("GET", "/v1/agents/trust", AgentTrust, "user"),
    "set_trust": Route("PUT", "/v1/agents/trust", AgentTrustStored, "user"),
    "health": Route("GET", "/health", Health),
    "memories_health": Route("GET", "/v1/memories/health", ServiceHealth),
    "whoami": Route("GET", "/v1/whoami", WhoAmI),
}

ADMIN_ROUTES: dict[str, Route] = {
    "create_key": Route("POST", "/v1/admin/keys", CreatedApiKey, idempotent=False, auth="admin"),
    "list_keys": Route("GET", "/v1/admin/keys", ApiKeyList, auth="admin"),
    "revoke_key": Route("DELETE", "/v1/admin/keys/{id}", Success, auth="admin"),
    "audit": Route("GET", "/v1/admin/audit", AuditEventList, auth="admin"),
    "explain_visibility": Route("GET", "/v1/admin/explain", VisibilityExplanation, auth="admin"),
    # Repeating it erases nothing more: safe to send twice.
    "erase": Route("POST", "/v1/admin/erase", ErasureReceipt, auth="admin"),
    "create_webhook": Route("POST", "/v1/admin/webhooks", CreatedWebhookSubscription, idempotent=False, auth="admin"),
    "list_webhooks": Route("GET", "/v1/admin/webhooks", WebhookSubscriptionList, auth="admin"),
    "delete_webhook": Route("DELETE", "/v1/admin/webhooks/{id}", Success, auth="admin"),
    "webhook_deliveries": Route("GET", "/v1/admin/webhooks/deliveries", WebhookDeliveryList, auth="admin"),
    # With AUTH_MODE=off the service does not check the token on this route.
    "update_config": Route("PUT", "/v1/memories/config", ConfigApplied, auth="admin"),
}


class NotGiven:
    """The default of an argument for which None means "send null" (``update(expires_at=None)``
    clears the expiry; leaving it out changes nothing)."""

    _instance: NotGiven | None = None

    def __new__(cls) -> NotGiven:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NOT_GIVEN"

    def __bool__(self) -> bool:
        return False


NOT_GIVEN = NotGiven()

#: ``all``, ``self``, ``others``, one agent id, or a list of agent ids.
AgentScope = str | Sequence[str]


@dataclass(frozen=True)
class Scope:
    """Who is asking: a user's personal memories (``user_id`` alone) or a workspace of that user
    as one agent (``user_id``, ``workspace_id`` and ``agent_id``). With an API key every field may
    be left out: the service takes them from the key (given ones must equal the key's)."""

    user_id: str | None = None
    workspace_id: str | None = None
    agent_id: str | None = None

    def __post_init__(self) -> None:
        if self.workspace_id is not None and self.agent_id is None:
            raise ValueError("agent_id is required for workspace queries")
        if self.agent_id is not None and self.workspace_id is None:
            raise ValueError("agent_id needs a workspace_id (without one the scope is the user's own memories)")


#: Lists longer than this go into a query string comma-separated: the service's query parser
#: turns more than 20 repetitions of a parameter into an object.
_MAX_REPEATED = 20


def wire_value(value: Any) -> Any:
    """Python -> JSON: datetimes as ISO-8601 (naive ones are taken as UTC), tuples as lists."""
    if isinstance(value, _dt.datetime):
        aware = value if value.tzinfo is not None else value.replace(tzinfo=_dt.timezone.utc)
        return aware.astimezone(_dt.timezone.utc).isoformat().replace("+00:00", "Z")
    if isinstance(value, (list, tuple)):
        return [wire_value(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
    return value


def _query_items(name: str, value: Any) -> list[tuple[str, str]]:
    if isinstance(value, bool):
        return [(name, "true" if value else "false")]
    if isinstance(value, list):
        items = [str(v) for v in value]  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
        return [(name, ",".join(items))] if len(items) > _MAX_REPEATED else [(name, v) for v in items]
    return [(name, str(value))]


def prepare(
    route: Route,
    args: Mapping[str, Any],
    scope: Scope,
    *,
    has_api_key: bool,
    headers: Mapping[str, str],
    raw: tuple[bytes, str] | None = None,
    idempotent: bool | None = None,
) -> Prepared:
    """A method's arguments (its ``locals()``, without ``self`` and ``scope``) -> the request.
    ``raw``: the body and its Content-Type, for a route with ``raw_body`` (the arguments then go
    into the query string). ``idempotent`` overrides the route's for this call."""
    params = dict(args)
    path = route.path
    for name in route.path_params:
        value = params.pop(name)
        if not isinstance(value, str) or not value:
            raise ValueError(f"{name} must be a non-empty string")
        path = path.replace("{" + name + "}", urllib.parse.quote(value, safe=""))

    fields: dict[str, Any] = {}
    fields.update(_scope_fields(route, scope, has_api_key))
    for name, value in params.items():
        if value is NOT_GIVEN or (value is None and name not in route.nullable):
            continue
        fields[name] = wire_value(value)

    safe = route.idempotent if idempotent is None else idempotent
    if route.method in ("GET", "DELETE") or route.raw_body is not None:
        query = [item for name, value in fields.items() for item in _query_items(name, value)]
        if route.raw_body is not None:
            if raw is None:
                raise ValueError(f"{route.path} needs its body")
            return Prepared(route.method, path, query=query, idempotent=safe, headers=headers, raw=raw[0], content_type=raw[1])
        return Prepared(route.method, path, query=query, idempotent=safe, headers=headers)
    return Prepared(route.method, path, body=fields, has_body=True, idempotent=safe, headers=headers)


def _scope_fields(route: Route, scope: Scope, has_api_key: bool) -> dict[str, str]:
    if route.scope == "none":
        return {}
    if scope.user_id is None and not has_api_key:
        raise ValueError("user_id is required without an api_key: give it to the client or pass scope=Scope(...)")
    values = dataclasses.asdict(scope) if route.scope != "user" else {"user_id": scope.user_id}
    return {name: value for name, value in values.items() if value is not None}
