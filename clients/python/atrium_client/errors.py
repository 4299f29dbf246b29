"""Errors raised by the client.

Three kinds a caller handles differently, mirroring the TypeScript client:

- ``AtriumError``: the service answered with a non-2xx status. ``status`` and ``message`` (the
  service's ``error`` string) say why; a subclass per status a caller is likely to branch on.
- ``AtriumTimeoutError``: no answer in time.
- ``AtriumNetworkError``: the service could not be reached or the connection broke.

All three derive from ``AtriumException``, so ``except AtriumException`` catches anything the
client raises for a call (``ValueError``/``TypeError`` still mean the call itself was wrong).
"""

from __future__ import annotations

from typing import Any


class AtriumException(Exception):
    """Base of every error the client raises for a call that was sent."""


class AtriumError(AtriumException):
    """The service answered with a non-2xx status; ``message`` is its ``error`` string."""

    status: int
    message: str

    def __init__(
        self,
        status: int,
        message: str,
        *,
        method: str = "",
        path: str = "",
        body: Any = None,
        request_id: str | None = None,
        detail: str | None = None,
        rejected: list[str] | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.method = method
        self.path = path
        #: The parsed error body (or the raw text when it was not JSON).
        self.body = body
        #: The response's ``X-Request-Id``, to find the request in the service's log.
        self.request_id = request_id
        #: Config route only: why a change was refused (410, and 400 for startup-only fields).
        self.detail = detail
        #: Config route only: the refused field names.
        self.rejected = rejected
        #: Seconds the service asked to wait (``Retry-After``), when it said.
        self.retry_after = retry_after

    def __str__(self) -> str:
        where = f" ({self.method} {self.path})" if self.method else ""
        return f"{self.status} {self.message}{where}"


class BadRequestError(AtriumError):
    """400: invalid input; the message names the field."""


class AuthenticationError(AtriumError):
    """401: missing, unknown, revoked or expired API key (or a wrong admin token)."""


class PermissionDeniedError(AtriumError):
    """403: the scope does not match the API key, or the caller sees a memory it does not own."""


class NotFoundError(AtriumError):
    """404: missing, or outside the caller's scope or visibility (the two are indistinguishable)."""


class ConflictError(AtriumError):
    """409: for example a grant on a memory that is not ``restricted``."""


class UnprocessableError(AtriumError):
    """422: for example new content that the write gate blocked."""


class RateLimitError(AtriumError):
    """429: over the API key's rate limit; ``retry_after`` says how many seconds to wait."""


class ServiceUnavailableError(AtriumError):
    """503: the database (or the embedding provider) is unavailable; see ``retry_after``."""


_BY_STATUS: dict[int, type[AtriumError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableError,
    429: RateLimitError,
    503: ServiceUnavailableError,
}


def error_for_status(status: int) -> type[AtriumError]:
    """The most specific error class for an HTTP status (``AtriumError`` itself for the rest)."""
    return _BY_STATUS.get(status, AtriumError)


class AtriumResponseError(AtriumError):
    """A 2xx answer that is not what Atrium sends (not JSON, or a required field missing):
    a proxy or captive portal in the way, or a server older than the client."""


class AtriumTimeoutError(AtriumException):
    """No answer within ``timeout`` (on the last attempt, when retries were allowed)."""

    def __init__(self, method: str, path: str, timeout: float) -> None:
        super().__init__(f"{method} {path} timed out after {timeout:g} s")
        self.method = method
        self.path = path
        self.timeout = timeout


class AtriumNetworkError(AtriumException):
    """The request failed before any HTTP answer (refused, reset, DNS...)."""

    def __init__(self, method: str, path: str, cause: BaseException) -> None:
        super().__init__(f"{method} {path} failed: {cause}")
        self.method = method
        self.path = path
        self.__cause__ = cause


class IncompleteExportError(AtriumResponseError):
    """An export that stopped before its end line (``{"end": true, "count": N}``): the service
    or the connection went away mid-stream. What was read is not the whole export; run it again."""
