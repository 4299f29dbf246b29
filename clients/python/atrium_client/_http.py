"""One HTTP attempt with urllib, and the retry rule shared by the sync and async clients.

Knows nothing of routes: it sends a prepared request and turns the answer into data or an
error. The retry decision is a pure function (``retry_delay``) so both clients apply the
same rule, each with its own way of waiting.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import random
import socket
import time
import typing
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import (
    AtriumError,
    AtriumException,
    AtriumNetworkError,
    AtriumResponseError,
    AtriumTimeoutError,
    error_for_status,
)

USER_AGENT = "atrium-client-python/0.1.0"


@dataclass(frozen=True)
class Retry:
    """When to send a request again.

    - 429 (over the key's rate limit) is refused before the service does any work, so it is
      retried for every call.
    - The other ``statuses`` (503 by default) and lost connections or timeouts are retried only
      for idempotent calls (reads, PUT/PATCH to a value, grants, deletes): a 503 can come from a
      database connection that dropped during a commit, so an ingest or a lesson report that got
      one may have been stored, and sending it again could store it twice.
    - A refused connection never reached the service: retried for every call.
    - ``Retry-After`` is honoured; a wait longer than ``max_delay`` is not sat out, the error is
      raised at once. Without it: exponential backoff from ``base_delay``, with jitter.
    """

    #: Extra attempts after the first one; 0 never retries.
    attempts: int = 2
    statuses: frozenset[int] = frozenset({429, 503})
    #: Seconds before the first retry, doubled on each one (half fixed, half random).
    base_delay: float = 0.25
    #: Longest single wait, in seconds.
    max_delay: float = 30.0

    def __post_init__(self) -> None:
        if not isinstance(self.attempts, int) or self.attempts < 0:  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError("Retry.attempts must be an integer >= 0")
        if not self.base_delay >= 0 or not self.max_delay >= 0:
            raise ValueError("Retry delays must be numbers >= 0")
        object.__setattr__(self, "statuses", frozenset(self.statuses))


NO_RETRY = Retry(attempts=0)


@dataclass(frozen=True)
class Prepared:
    """One route call in wire form: snake_case names, path parameters already encoded."""

    method: str
    path: str
    query: Sequence[tuple[str, str]] = ()
    body: Any = None
    has_body: bool = False
    idempotent: bool = True
    headers: Mapping[str, str] = field(default_factory=dict[str, str])
    #: A body sent as is (an import's NDJSON), instead of ``body`` as JSON.
    raw: bytes | None = None
    content_type: str = "application/json"


@dataclass(frozen=True)
class Answer:
    status: int
    data: Any
    headers: Mapping[str, str]


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """Atrium never redirects. Following one could turn a POST into a GET without its body
    (urllib does that for 301/302/303), so a redirect is answered as the error it is."""

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> None:
        return None


_opener = urllib.request.build_opener(_NoRedirects)


class _Refused(AtriumNetworkError):
    """The connection was refused: the request never reached the service."""


def url_for(base_url: str, prepared: Prepared) -> str:
    url = base_url + prepared.path
    if prepared.query:
        url += "?" + urllib.parse.urlencode(list(prepared.query))
    return url


def check_base_url(base_url: str) -> str:
    parsed = urllib.parse.urlsplit(base_url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ValueError("base_url must be an absolute http(s) URL, e.g. http://localhost:3050")
    return base_url.rstrip("/")


def check_timeout(timeout: float) -> float:
    if not timeout > 0:
        raise ValueError("timeout must be a positive number of seconds")
    return float(timeout)


def _open(base_url: str, prepared: Prepared, timeout: float, accept: str) -> Any:
    """Send once and return the open 2xx response; raise AtriumError for any other status, and
    AtriumTimeoutError / AtriumNetworkError when there was no answer."""
    headers = {"Accept": accept, "User-Agent": USER_AGENT, **prepared.headers}
    data: bytes | None = None
    if prepared.raw is not None:
        data = prepared.raw
        headers["Content-Type"] = prepared.content_type
    elif prepared.has_body:
        data = json.dumps(prepared.body, ensure_ascii=False, allow_nan=False).encode("utf-8")
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url_for(base_url, prepared), data=data, method=prepared.method, headers=headers)
    try:
        return _opener.open(request, timeout=timeout)
    except urllib.error.HTTPError as error:
        try:
            raw = error.read()
        except (OSError, http.client.HTTPException):
            raw = b""
        answer_headers = {k.lower(): v for k, v in error.headers.items()} if error.headers else {}
        raise _status_error(error.code, error.reason, raw, answer_headers, prepared) from None
    except urllib.error.URLError as error:
        reason = error.reason
        if isinstance(reason, (TimeoutError, socket.timeout)):
            raise AtriumTimeoutError(prepared.method, prepared.path, timeout) from None
        if isinstance(reason, ConnectionRefusedError):
            raise _Refused(prepared.method, prepared.path, reason) from None
        raise AtriumNetworkError(prepared.method, prepared.path, reason if isinstance(reason, BaseException) else error) from None
    except (TimeoutError, socket.timeout):
        raise AtriumTimeoutError(prepared.method, prepared.path, timeout) from None
    except (OSError, http.client.HTTPException) as error:
        raise AtriumNetworkError(prepared.method, prepared.path, error) from None


def attempt(base_url: str, prepared: Prepared, timeout: float) -> Answer:
    """Send once. Returns the 2xx answer; raises AtriumError for any other status, and
    AtriumTimeoutError / AtriumNetworkError when there was no answer."""
    response = _open(base_url, prepared, timeout, "application/json")
    try:
        with response:
            status: int = response.status
            raw: bytes = response.read()
            answer_headers = {k.lower(): v for k, v in response.headers.items()}
    except (TimeoutError, socket.timeout):
        raise AtriumTimeoutError(prepared.method, prepared.path, timeout) from None
    except (OSError, http.client.HTTPException) as error:
        raise AtriumNetworkError(prepared.method, prepared.path, error) from None
    return Answer(status, _parse_success(raw, status, prepared), answer_headers)


class Stream:
    """An open streamed answer (NDJSON), read in chunks: ``lines()`` yields its complete lines
    as they arrive. Errors while reading (a timeout, a broken connection) are raised as they
    come; the caller decides what a stream that stopped early means."""

    CHUNK = 65536

    def __init__(self, response: Any, prepared: Prepared, timeout: float) -> None:
        self._response = response
        self._prepared = prepared
        self._timeout = timeout
        self._rest = b""
        self._done = False

    def read_lines(self) -> list[bytes]:
        """The next complete lines (possibly none), or an empty list with ``done`` set at the end."""
        try:
            chunk: bytes = self._response.read1(self.CHUNK)
        except (TimeoutError, socket.timeout):
            raise AtriumTimeoutError(self._prepared.method, self._prepared.path, self._timeout) from None
        except (OSError, http.client.HTTPException) as error:
            raise AtriumNetworkError(self._prepared.method, self._prepared.path, error) from None
        if not chunk:
            self._done = True
            last, self._rest = self._rest, b""
            return [last] if last.strip() else []
        parts = (self._rest + chunk).split(b"\n")
        self._rest = parts.pop()
        return [part for part in parts if part.strip()]

    @property
    def done(self) -> bool:
        return self._done

    def close(self) -> None:
        self._response.close()


def open_stream(base_url: str, prepared: Prepared, timeout: float) -> Stream:
    """Send once and return the streamed 2xx answer (errors as ``attempt`` raises them)."""
    return Stream(_open(base_url, prepared, timeout, "application/x-ndjson, application/json"), prepared, timeout)


def _parse_json(raw: bytes) -> tuple[bool, Any]:
    if not raw:
        return True, None
    try:
        return True, json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return False, None


def _parse_success(raw: bytes, status: int, prepared: Prepared) -> Any:
    ok, value = _parse_json(raw)
    if ok:
        return value
    # A 2xx that is not JSON is not Atrium (a captive portal, a misrouted proxy): say so.
    raise AtriumResponseError(
        status, "response body is not JSON", method=prepared.method, path=prepared.path, body=raw.decode("utf-8", "replace")
    )


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """``Retry-After`` as delta-seconds or an HTTP date, in seconds from now; None when absent or unreadable."""
    if value is None:
        return None
    text = value.strip()
    if text.isdigit():
        return float(int(text))
    try:
        at = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if at.tzinfo is None:
        return None
    return max(0.0, at.timestamp() - (time.time() if now is None else now))


def _status_error(status: int, reason: str, raw: bytes, headers: Mapping[str, str], prepared: Prepared) -> AtriumError:
    """The ``{ error, detail?, rejected? }`` envelope, or a generic message for anything else (an HTML 502 from a proxy)."""
    ok, parsed = _parse_json(raw)
    body: Any = parsed if ok else raw.decode("utf-8", "replace")
    envelope: Mapping[str, Any] = typing.cast(dict[str, Any], body) if isinstance(body, dict) else {}
    message = envelope.get("error")
    if not isinstance(message, str):
        message = f"HTTP {status}" + (f" {reason}" if reason else "")
    detail = envelope.get("detail")
    rejected = envelope.get("rejected")
    return error_for_status(status)(
        status,
        message,
        method=prepared.method,
        path=prepared.path,
        body=body,
        request_id=headers.get("x-request-id"),
        detail=detail if isinstance(detail, str) else None,
        rejected=[name for name in typing.cast(list[Any], rejected) if isinstance(name, str)] if isinstance(rejected, list) else None,
        retry_after=parse_retry_after(headers.get("retry-after")),
    )


def backoff(policy: Retry, retry: int, rand: float | None = None) -> float:
    """Exponential backoff with "equal jitter": half fixed, half random, so clients that failed
    together do not retry together. ``retry`` is 0 for the first retry."""
    ceiling = min(policy.max_delay, policy.base_delay * 2**retry)
    return ceiling / 2 + (random.random() if rand is None else rand) * (ceiling / 2)


def retry_delay(policy: Retry, prepared: Prepared, error: AtriumException, retry: int) -> float | None:
    """Seconds to wait before sending ``prepared`` again after ``error``, or None to raise it."""
    if retry >= policy.attempts:
        return None
    if isinstance(error, AtriumError):
        if error.status not in policy.statuses or isinstance(error, AtriumResponseError):
            return None
        # 429 is the rate limiter's answer, given before any work: safe for every call.
        if error.status != 429 and not prepared.idempotent:
            return None
        if error.retry_after is None:
            return backoff(policy, retry)
        return error.retry_after if error.retry_after <= policy.max_delay else None
    if isinstance(error, _Refused) or (isinstance(error, (AtriumNetworkError, AtriumTimeoutError)) and prepared.idempotent):
        return backoff(policy, retry)
    return None

