"""Retries, errors, request shapes and forward compatibility, against a scripted loopback server."""

from __future__ import annotations

import asyncio
import datetime as dt
import email.utils
import socket
import time
import unittest

from atrium_client import (
    NO_RETRY,
    AsyncAtrium,
    Atrium,
    AtriumError,
    AtriumNetworkError,
    AtriumResponseError,
    AtriumTimeoutError,
    NotFoundError,
    RateLimitError,
    Retry,
    ServiceUnavailableError,
    UnprocessableError,
)
from atrium_client._http import parse_retry_after

from .scripted_server import INGESTED, RECORD, SEARCHED, Reply, scripted

FAST = Retry(attempts=2, base_delay=0.01, max_delay=5)


class RetryTest(unittest.TestCase):
    def test_429_is_retried_even_for_an_ingest_after_retry_after(self) -> None:
        server = scripted(self, Reply(429, {"error": "rate limit"}, headers={"Retry-After": "1"}), Reply(200, INGESTED))
        atrium = Atrium(server.url, user_id="u", retries=FAST)
        started = time.monotonic()
        result = atrium.ingest("hello", source_site="s")
        self.assertGreaterEqual(time.monotonic() - started, 0.95)
        self.assertEqual(result.stored_memory_ids, ["m"])
        self.assertEqual(len(server.seen), 2)

    def test_503_is_not_retried_for_an_ingest_that_may_have_been_stored(self) -> None:
        server = scripted(self, Reply(503, {"error": "Database unavailable"}, headers={"Retry-After": "0"}), Reply(200, INGESTED))
        atrium = Atrium(server.url, user_id="u", retries=FAST)
        with self.assertRaises(ServiceUnavailableError) as caught:
            atrium.ingest_quick("hello", source_site="s")
        self.assertEqual(caught.exception.retry_after, 0)
        self.assertEqual(len(server.seen), 1)

    def test_503_is_retried_for_a_read(self) -> None:
        server = scripted(self, Reply(503, {"error": "Database unavailable"}, headers={"Retry-After": "0"}), Reply(200, SEARCHED))
        self.assertEqual(Atrium(server.url, user_id="u", retries=FAST).search("q").count, 0)
        self.assertEqual(len(server.seen), 2)

    def test_gives_up_after_the_attempts(self) -> None:
        server = scripted(self, Reply(503, {"error": "Database unavailable"}))
        with self.assertRaises(ServiceUnavailableError):
            Atrium(server.url, user_id="u", retries=FAST).search("q")
        self.assertEqual(len(server.seen), 3)

    def test_a_retry_after_longer_than_max_delay_is_raised_at_once(self) -> None:
        server = scripted(self, Reply(429, {"error": "rate limit"}, headers={"Retry-After": "120"}), Reply(200, SEARCHED))
        with self.assertRaises(RateLimitError) as caught:
            Atrium(server.url, user_id="u", retries=FAST).search("q")
        self.assertEqual(caught.exception.retry_after, 120)
        self.assertEqual(len(server.seen), 1)

    def test_other_errors_are_never_retried(self) -> None:
        server = scripted(self, Reply(404, {"error": "Memory not found"}), Reply(200, RECORD))
        with self.assertRaises(NotFoundError):
            Atrium(server.url, user_id="u", retries=FAST).get("m")
        self.assertEqual(len(server.seen), 1)

    def test_a_timeout_is_retried_for_a_read_but_not_for_an_ingest(self) -> None:
        server = scripted(self, Reply(200, SEARCHED, delay=0.6))
        with self.assertRaises(AtriumTimeoutError):
            Atrium(server.url, user_id="u", retries=FAST, timeout=0.2).search("q")
        self.assertEqual(len(server.seen), 3)
        server = scripted(self, Reply(200, INGESTED, delay=0.6))
        with self.assertRaises(AtriumTimeoutError):
            Atrium(server.url, user_id="u", retries=FAST, timeout=0.2).ingest("hello", source_site="s")
        self.assertEqual(len(server.seen), 1)

    def test_a_refused_connection_is_a_network_error(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        started = time.monotonic()
        with self.assertRaises(AtriumNetworkError):
            Atrium(f"http://127.0.0.1:{port}", user_id="u", retries=Retry(attempts=2, base_delay=0.2)).ingest("x", source_site="s")
        # Refused means never sent: even an ingest is tried again (two backoffs of >= 0.1 s and 0.2 s).
        self.assertGreaterEqual(time.monotonic() - started, 0.3)

    def test_retry_after_as_an_http_date(self) -> None:
        now = time.time()
        self.assertAlmostEqual(parse_retry_after(email.utils.formatdate(now + 30, usegmt=True), now) or 0, 30, delta=1)
        self.assertEqual(parse_retry_after("soon"), None)
        self.assertEqual(parse_retry_after(None), None)

    def test_async_client_follows_the_same_rule(self) -> None:
        server = scripted(
            self,
            Reply(503, {"error": "Database unavailable"}, headers={"Retry-After": "0"}),
            Reply(200, SEARCHED),
        )
        atrium = AsyncAtrium(server.url, user_id="u", retries=FAST)
        self.assertEqual(asyncio.run(atrium.search("q")).count, 0)
        self.assertEqual(len(server.seen), 2)
        server = scripted(self, Reply(503, {"error": "Database unavailable"}, headers={"Retry-After": "0"}), Reply(200, INGESTED))
        with self.assertRaises(ServiceUnavailableError):
            asyncio.run(AsyncAtrium(server.url, user_id="u", retries=FAST).ingest("x", source_site="s"))
        self.assertEqual(len(server.seen), 1)


class ErrorShapeTest(unittest.TestCase):
    def test_an_html_error_page_is_an_atrium_error_with_the_status(self) -> None:
        server = scripted(self, Reply(502, raw=b"<html>bad gateway</html>", headers={"Content-Type": "text/html"}))
        with self.assertRaises(AtriumError) as caught:
            Atrium(server.url, user_id="u", retries=NO_RETRY).search("q")
        self.assertEqual(caught.exception.status, 502)
        self.assertTrue(caught.exception.message.startswith("HTTP 502"))
        self.assertEqual(caught.exception.body, "<html>bad gateway</html>")

    def test_a_redirect_is_not_followed(self) -> None:
        server = scripted(self, Reply(302, {"error": "moved"}, headers={"Location": "/elsewhere"}), Reply(200, INGESTED))
        with self.assertRaises(AtriumError) as caught:
            Atrium(server.url, user_id="u", retries=FAST).ingest("hello", source_site="s")
        self.assertEqual(caught.exception.status, 302)
        self.assertEqual([s.path for s in server.seen], ["/v1/memories/ingest"])

    def test_a_2xx_that_is_not_json_is_a_response_error(self) -> None:
        server = scripted(self, Reply(200, raw=b"<html>captive portal</html>"))
        with self.assertRaises(AtriumResponseError):
            Atrium(server.url, user_id="u", retries=FAST).search("q")
        self.assertEqual(len(server.seen), 1)

    def test_422_is_an_unprocessable_error(self) -> None:
        server = scripted(self, Reply(422, {"error": "content blocked by the write gate"}))
        with self.assertRaises(UnprocessableError) as caught:
            Atrium(server.url, user_id="u", retries=NO_RETRY).update("m", content="x")
        self.assertEqual(caught.exception.message, "content blocked by the write gate")


class WireShapeTest(unittest.TestCase):
    def test_unknown_fields_are_kept_and_missing_required_ones_are_an_error(self) -> None:
        server = scripted(self, Reply(200, {**RECORD, "revision_note": "from a newer service", "tags": ["a"]}))
        record = Atrium(server.url, user_id="u", retries=NO_RETRY).get("m")
        self.assertEqual(record.content, "c")
        self.assertEqual(dict(record.extra), {"revision_note": "from a newer service", "tags": ["a"]})
        partial = {k: v for k, v in RECORD.items() if k != "content"}
        server = scripted(self, Reply(200, partial))
        with self.assertRaisesRegex(AtriumResponseError, "lacks content"):
            Atrium(server.url, user_id="u", retries=NO_RETRY).get("m")

    def test_scope_goes_in_the_query_for_get_and_in_the_body_for_post(self) -> None:
        server = scripted(self, Reply(200, {"memories": [], "count": 0}), Reply(200, SEARCHED))
        atrium = Atrium(server.url, user_id="alice", workspace_id="w", agent_id="a", retries=NO_RETRY)
        atrium.list(limit=5, agent_scope=["x", "y"])
        atrium.search("q", limit=3)
        get, post = server.seen
        self.assertEqual(
            get.query,
            [("user_id", "alice"), ("workspace_id", "w"), ("agent_id", "a"), ("limit", "5"), ("agent_scope", "x"), ("agent_scope", "y")],
        )
        self.assertEqual(post.body, {"user_id": "alice", "workspace_id": "w", "agent_id": "a", "query": "q", "limit": 3})

    def test_user_routes_send_only_the_user(self) -> None:
        server = scripted(self, Reply(200, {"agent_id": "t", "trust_level": 0.5}))
        Atrium(server.url, user_id="alice", workspace_id="w", agent_id="a", retries=NO_RETRY).get_trust("t")
        self.assertEqual(server.seen[0].query, [("user_id", "alice"), ("agent_id", "t")])

    def test_with_an_api_key_nothing_of_the_scope_is_sent(self) -> None:
        server = scripted(self, Reply(200, SEARCHED))
        Atrium(server.url, api_key="atr_secret", retries=NO_RETRY).search("q")
        self.assertEqual(server.seen[0].body, {"query": "q"})
        self.assertEqual(server.seen[0].headers["authorization"], "Bearer atr_secret")

    def test_update_sends_only_what_is_given_and_none_clears_the_expiry(self) -> None:
        server = scripted(self, Reply(200, RECORD))
        atrium = Atrium(server.url, user_id="u", retries=NO_RETRY)
        atrium.update("m", content="new text")
        atrium.update("m", expires_at=None)
        atrium.update("m", expires_at=dt.datetime(2030, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc), metadata={"k": 1})
        self.assertEqual([s.method for s in server.seen], ["PATCH"] * 3)
        self.assertEqual(server.seen[0].body, {"user_id": "u", "content": "new text"})
        self.assertEqual(server.seen[1].body, {"user_id": "u", "expires_at": None})
        self.assertEqual(server.seen[2].body, {"user_id": "u", "metadata": {"k": 1}, "expires_at": "2030-01-02T03:04:05Z"})

    def test_path_parameters_are_encoded(self) -> None:
        server = scripted(self, Reply(200, {"success": True}))
        Atrium(server.url, user_id="u", retries=NO_RETRY).revoke("a/b", "c?d")
        self.assertEqual(server.seen[0].path, "/v1/memories/a%2Fb/grants/c%3Fd")

    def test_a_base_url_path_prefix_is_kept(self) -> None:
        server = scripted(self, Reply(200, {"status": "ok"}))
        Atrium(server.url + "/atrium/", retries=NO_RETRY).health()
        self.assertEqual(server.seen[0].path, "/atrium/health")


if __name__ == "__main__":
    unittest.main()
