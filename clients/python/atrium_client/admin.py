"""``AtriumAdmin``: the admin routes (API keys, audit log, webhooks, runtime config), with the admin token."""

from __future__ import annotations

import datetime as _dt
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ._core import DEFAULT_TIMEOUT, ClientCore
from ._http import Retry, attempt, retry_delay
from ._routes import ADMIN_ROUTES, Scope
from .errors import AtriumException
from .models import (
    ApiKeyList,
    AuditEventList,
    ConfigApplied,
    CreatedApiKey,
    CreatedWebhookSubscription,
    ErasureReceipt,
    KeyRole,
    Success,
    VisibilityExplanation,
    WebhookDeliveryList,
    WebhookSubscriptionList,
)


class AtriumAdmin:
    """Admin calls, authenticated with ``ATRIUM_ADMIN_TOKEN`` (sent as ``Authorization: Bearer``).
    The service has these routes only when that token is configured (404 otherwise)."""

    def __init__(
        self,
        base_url: str,
        admin_token: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        retries: Retry = Retry(),
        headers: Mapping[str, str] | None = None,
    ) -> None:
        if not isinstance(admin_token, str) or not admin_token:  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError("admin_token must be a non-empty string")
        self._core = ClientCore(
            base_url, routes=ADMIN_ROUTES, scope=Scope(), credential=admin_token, timeout=timeout, retries=retries, headers=headers
        )

    def _call(self, name: str, args: Mapping[str, Any]) -> Any:
        core = self._core
        route, prepared = core.prepare(name, args)
        retry = 0
        while True:
            try:
                answer = attempt(core.base_url, prepared, core.timeout)
                break
            except AtriumException as error:
                delay = retry_delay(core.retry, prepared, error, retry)
                if delay is None:
                    raise
                time.sleep(delay)
                retry += 1
        return core.finish(route, answer)

    def create_key(
        self,
        role: KeyRole,
        user_id: str,
        *,
        workspace_id: str | None = None,
        agent_id: str | None = None,
        label: str | None = None,
        expires_at: str | _dt.datetime | None = None,
        rate_limit_per_minute: int | None = None,
    ) -> CreatedApiKey:
        """Mint a key. ``role``: ``agent`` (needs workspace_id and agent_id), ``user``, or ``service``
        (user_id ``*``). The secret ``key`` is in this answer only."""
        return self._call("create_key", locals())

    def list_keys(self, *, user_id: str | None = None) -> ApiKeyList:
        """Keys, newest first (never the secret), optionally of one user."""
        return self._call("list_keys", locals())

    def revoke_key(self, id: str) -> Success:
        """Revoke a key, effective on the very next request; NotFoundError for an unknown id."""
        return self._call("revoke_key", locals())

    def audit(
        self,
        *,
        user_id: str | None = None,
        workspace_id: str | None = None,
        action: str | None = None,
        since: str | _dt.datetime | None = None,
        limit: int | None = None,
    ) -> AuditEventList:
        """Audit events, newest first (``limit`` 1..500, default 100)."""
        return self._call("audit", locals())

    def explain_visibility(self, *, user_id: str, workspace_id: str, agent_id: str, memory_id: str) -> VisibilityExplanation:
        """Why an agent of a workspace can or cannot read a memory of the user: the rule of the read
        predicate that lets it through, or what keeps it out; NotFoundError when the user has no
        such memory."""
        return self._call("explain_visibility", locals())

    def erase(self, *, user_id: str, workspace_id: str | None = None, agent_id: str | None = None) -> ErasureReceipt:
        """Erase a user, one of its workspaces, or one agent of that workspace, for good (one
        transaction); the receipt's ``residue`` is counted again after the deletion (all 0)."""
        return self._call("erase", locals())

    def create_webhook(
        self,
        user_id: str,
        url: str,
        events: Sequence[str],
        *,
        workspace_id: str | None = None,
        agent_id: str | None = None,
        secret: str | None = None,
    ) -> CreatedWebhookSubscription:
        """Subscribe ``url`` to events (``memory.stored``, ``memory.updated``, ``memory.deleted``,
        ``lesson.recorded``, ``lesson.matched``) about what the user (or, with workspace_id and
        agent_id, that agent) can read. The signing ``secret`` is in this answer only."""
        return self._call("create_webhook", locals())

    def list_webhooks(self, *, user_id: str | None = None) -> WebhookSubscriptionList:
        """Subscriptions, newest first (never the secret), optionally of one user."""
        return self._call("list_webhooks", locals())

    def delete_webhook(self, id: str) -> Success:
        """Unsubscribe (its pending deliveries go with it); NotFoundError for an unknown id."""
        return self._call("delete_webhook", locals())

    def webhook_deliveries(
        self,
        *,
        user_id: str | None = None,
        subscription_id: str | None = None,
        status: str | None = None,
        limit: int | None = None,
    ) -> WebhookDeliveryList:
        """Deliveries, newest first: ``status`` ``pending``, ``delivered`` or ``dead`` (the dead
        letters); ``limit`` 1..500, default 100."""
        return self._call("webhook_deliveries", locals())

    def update_config(
        self,
        *,
        max_search_results: int | None = None,
        lessons_enabled: bool | None = None,
        lesson_similarity_threshold: float | None = None,
        trust_scoring_enabled: bool | None = None,
        trust_score_min_threshold: float | None = None,
        audn_candidate_threshold: float | None = None,
        duplicate_threshold: float | None = None,
        trusted_source_sites: Sequence[str] | None = None,
    ) -> ConfigApplied:
        """Change runtime config (only with CORE_RUNTIME_CONFIG_MUTATION_ENABLED=true, else an
        AtriumError 410 with ``detail``). Fields left as None are not sent."""
        return self._call("update_config", locals())
