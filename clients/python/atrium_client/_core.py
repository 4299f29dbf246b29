"""What the sync and async clients share: configuration, request preparation, decoding."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ._http import Answer, Prepared, Retry, check_base_url, check_timeout
from ._routes import NOT_GIVEN, Route, Scope, prepare
from .models import decode

DEFAULT_TIMEOUT = 30.0


class ClientCore:
    _routes: Mapping[str, Route]

    def __init__(
        self,
        base_url: str,
        *,
        routes: Mapping[str, Route],
        scope: Scope,
        credential: str | None,
        timeout: float,
        retries: Retry,
        headers: Mapping[str, str] | None,
    ) -> None:
        self._base_url = check_base_url(base_url)
        self._routes = routes
        self._scope = scope
        self._credential = credential
        self.timeout = check_timeout(timeout)
        if not isinstance(retries, Retry):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError("retries must be a Retry (Retry(attempts=0) turns retries off)")
        self.retry = retries
        self._headers = dict(headers or {})

    @property
    def base_url(self) -> str:
        return self._base_url

    @property
    def scope(self) -> Scope:
        """The scope sent when a call passes none."""
        return self._scope

    def prepare(
        self, name: str, local_args: Mapping[str, Any], *, raw: tuple[bytes, str] | None = None, idempotent: bool | None = None
    ) -> tuple[Route, Prepared]:
        """``local_args`` is the calling method's ``locals()``: its parameters by name."""
        route = self._routes[name]
        args = {k: v for k, v in local_args.items() if k not in ("self", "scope", route.raw_body)}
        per_call = local_args.get("scope")
        scope = per_call if isinstance(per_call, Scope) else self._scope
        headers = dict(self._headers)
        if self._credential is not None:
            headers["Authorization"] = f"Bearer {self._credential}"
        return route, prepare(
            route,
            args,
            scope,
            has_api_key=self._credential is not None and route.auth == "key",
            headers=headers,
            raw=raw,
            idempotent=idempotent,
        )

    @staticmethod
    def finish(route: Route, answer: Answer) -> Any:
        result = decode(route.response, answer.data)
        if route.created_flag:
            result = dataclasses.replace(result, created=answer.status == 201)  # pyright: ignore[reportArgumentType]
        return result


def check_update(visibility: object, content: object, metadata: object, expires_at: object) -> None:
    if visibility is None and content is None and metadata is None and expires_at is NOT_GIVEN:
        raise ValueError("update needs at least one of visibility, content, metadata, expires_at")
