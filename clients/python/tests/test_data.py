"""``export`` and ``import_memories`` (CONTRACT section 13): against a real service (AUTH_MODE=off,
embedded database) for the round trip, and against a scripted server for what a real one does
not do on demand (an export cut before its end line, a 503 on an import)."""

from __future__ import annotations

import asyncio
import json
import unittest
from typing import Any

from atrium_client import (
    NO_RETRY,
    AsyncAtrium,
    Atrium,
    AtriumResponseError,
    BadRequestError,
    ExportedMemory,
    ExportEnd,
    ExportHeader,
    ExportLine,
    ImportResult,
    IncompleteExportError,
    Retry,
    ServiceUnavailableError,
)

from .scripted_server import RECORD, Reply, scripted
from .support import new_id, new_user, open_service

HEADER: dict[str, Any] = {
    "format": "atrium.export",
    "version": 1,
    "exported_at": "2026-01-01T00:00:00.000Z",
    "scope": {"kind": "user", "user_id": "u"},
    "embedding": {"provider": "hash", "model": "m", "dimensions": 3},
}
IMPORTED: dict[str, Any] = {"imported": 1, "skipped": 0, "blocked": 0, "failed": 0, "errors": []}


def ndjson(*lines: dict[str, Any]) -> bytes:
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def memories(lines: list[ExportLine]) -> list[ExportedMemory]:
    return [line for line in lines if isinstance(line, ExportedMemory)]


class ExportImportTest(unittest.TestCase):
    def setUp(self) -> None:
        self.url = open_service().url

    def store(self, client: Atrium, *texts: str, **options: Any) -> list[str]:
        return [client.ingest_quick(t, source_site="py-data", skip_extraction=True, **options).stored_memory_ids[0] for t in texts]

    def test_an_export_imported_into_another_user_gives_the_same_memories_and_a_second_import_skips_them(self) -> None:
        source = Atrium(self.url, user_id=new_user(), retries=NO_RETRY)
        ids = self.store(source, "The boiler is serviced in October", "Invoices go to the finance inbox", "The spare key is at the desk")
        lines = list(source.export())
        self.assertIsInstance(lines[0], ExportHeader)
        header = lines[0]
        assert isinstance(header, ExportHeader)
        self.assertEqual(header.version, 1)
        self.assertEqual(header.embedding["provider"], "hash")
        end = lines[-1]
        assert isinstance(end, ExportEnd)
        exported = memories(lines)
        self.assertEqual(end.count, 3)
        self.assertEqual(sorted(m.memory.id for m in exported), sorted(ids))
        self.assertEqual({m.memory.content for m in exported}, {m.content for m in source.list().memories})
        self.assertTrue(all(m.embedding is None for m in exported))

        target = Atrium(self.url, user_id=new_user(), retries=NO_RETRY)
        self.assertEqual(target.import_memories(lines), ImportResult(imported=3, skipped=0, blocked=0, failed=0, errors=[]))
        copies = target.list().memories
        self.assertEqual(sorted(m.id for m in copies), sorted(ids))
        self.assertEqual({m.content for m in copies}, {m.memory.content for m in exported})
        self.assertEqual({m.id: m.created_at for m in copies}, {m.memory.id: m.memory.created_at for m in exported})
        # Again, as the file's text: every id exists, so everything is skipped.
        text = "".join(json.dumps(line.raw) + "\n" for line in lines)
        again = target.import_memories(text)
        self.assertEqual((again.imported, again.skipped, again.failed), (0, 3, 0))
        # new_id copies them; a dry run counts and writes nothing.
        dry = target.import_memories(text.encode(), on_conflict="new_id", dry_run=True)
        self.assertEqual((dry.imported, dry.skipped), (3, 0))
        self.assertEqual(len(target.list().memories), 3)
        self.assertEqual(target.import_memories(text, on_conflict="new_id").imported, 3)
        self.assertEqual(len(target.list().memories), 6)

    def test_vectors_and_a_workspace_agents_view(self) -> None:
        user, workspace = new_user(), new_id()
        a = Atrium(self.url, user_id=user, workspace_id=workspace, agent_id=new_id(), retries=NO_RETRY)
        b = Atrium(self.url, user_id=user, workspace_id=workspace, agent_id=new_id(), retries=NO_RETRY)
        shared = self.store(a, "The office plants need water on Mondays")[0]
        private = self.store(a, "Agent A drafts the salary review", visibility="agent_only")[0]
        own = memories(list(a.export(include_vectors=True)))
        self.assertEqual(sorted(m.memory.id for m in own), sorted([shared, private]))
        for line in own:
            assert line.embedding is not None
            self.assertGreater(len(line.embedding), 0)
            self.assertTrue(all(isinstance(x, float) for x in line.embedding))
        self.assertEqual([m.memory.id for m in memories(list(b.export()))], [shared])
        self.assertEqual(memories(list(b.export(agent_scope="self"))), [])

    def test_bad_lines_are_reported_by_number_and_the_rest_is_imported(self) -> None:
        target = Atrium(self.url, user_id=new_user(), retries=NO_RETRY)
        good = {"id": new_id(), "content": "The lift is inspected yearly", "source_site": "file"}
        body = [HEADER, good, {"id": "not-a-uuid", "content": "x"}, {"id": new_id(), "content": "The fire drill is in May"}]
        result = target.import_memories(body)
        self.assertEqual((result.imported, result.failed), (2, 1))
        self.assertEqual([(e.line, e.error) for e in result.errors], [(3, "id must be a UUID")])

    def test_mem0s_export(self) -> None:
        target = Atrium(self.url, user_id=new_user(), retries=NO_RETRY)
        entries = [
            {"id": new_id(), "memory": "Prefers tea to coffee", "user_id": "someone", "metadata": {"k": 1}, "created_at": "2025-03-01T10:00:00Z"},
            {"id": new_id(), "memory": "Lives in Lyon", "user_id": "someone", "created_at": "2025-03-02T10:00:00Z"},
        ]
        result = target.import_memories(json.dumps(entries), format="mem0")
        self.assertEqual((result.imported, result.failed), (2, 0))
        self.assertEqual({m.content for m in target.list().memories}, {"Prefers tea to coffee", "Lives in Lyon"})
        # The entries themselves, as a list: sent as one JSON array.
        again = target.import_memories(entries, format="mem0")
        self.assertEqual((again.imported, again.skipped), (0, 2))

    def test_a_bad_parameter_is_a_bad_request_error_on_the_first_line(self) -> None:
        user = new_user()
        client = Atrium(self.url, user_id=user, retries=NO_RETRY)
        with self.assertRaises(BadRequestError) as caught:
            list(client.export(agent_scope="self"))  # agent_scope needs a workspace
        self.assertIn("agent_scope", caught.exception.message)
        with self.assertRaises(BadRequestError):
            client.import_memories(b"[1]", format="mem0", on_conflict="sometimes")  # pyright: ignore[reportArgumentType]


class AsyncExportImportTest(unittest.IsolatedAsyncioTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.url = open_service().url

    async def test_async_export_and_import(self) -> None:
        source = AsyncAtrium(self.url, user_id=new_user(), retries=NO_RETRY)
        await source.ingest_quick("The canteen closes at three", source_site="py-async", skip_extraction=True)
        lines = [line async for line in source.export()]
        self.assertEqual([line.kind for line in lines], ["header", "memory", "end"])
        target = AsyncAtrium(self.url, user_id=new_user(), retries=NO_RETRY)
        self.assertEqual((await target.import_memories(lines)).imported, 1)
        self.assertEqual([m.content for m in (await target.list()).memories], ["The canteen closes at three"])


class ScriptedExportTest(unittest.TestCase):
    def test_an_export_without_its_end_line_raises(self) -> None:
        server = scripted(self, Reply(raw=ndjson(HEADER, RECORD), headers={"Content-Type": "application/x-ndjson"}))
        seen: list[ExportLine] = []
        with self.assertRaises(IncompleteExportError) as caught:
            for line in Atrium(server.url, user_id="u", retries=NO_RETRY).export():
                seen.append(line)
        self.assertEqual([line.kind for line in seen], ["header", "memory"])
        self.assertEqual(caught.exception.status, 200)
        self.assertIn("incomplete", caught.exception.message)

    def test_the_async_export_without_its_end_line_raises(self) -> None:
        server = scripted(self, Reply(raw=ndjson(HEADER, RECORD), headers={"Content-Type": "application/x-ndjson"}))

        async def read() -> None:
            async for _ in AsyncAtrium(server.url, user_id="u", retries=NO_RETRY).export():
                pass

        with self.assertRaises(IncompleteExportError):
            asyncio.run(read())

    def test_a_complete_export_and_the_request_it_sends(self) -> None:
        server = scripted(self, Reply(raw=ndjson(HEADER, {**RECORD, "grants": [{"grantee_agent_id": "g", "created_at": "t"}], "embedding": [1, 0.5, 0]}, {"end": True, "count": 1})))
        lines = list(Atrium(server.url, user_id="u", retries=NO_RETRY).export(include_vectors=True, include_expired=False))
        memory = lines[1]
        assert isinstance(memory, ExportedMemory)
        self.assertEqual(memory.embedding, [1.0, 0.5, 0.0])
        self.assertEqual([g.grantee_agent_id for g in memory.grants or []], ["g"])
        self.assertEqual(memory.memory.id, "m")
        self.assertEqual(server.seen[0].path, "/v1/memories/export")
        self.assertEqual(sorted(server.seen[0].query), [("include_expired", "false"), ("include_vectors", "true"), ("user_id", "u")])

    def test_an_answer_that_is_not_an_export_raises(self) -> None:
        server = scripted(self, Reply(raw=ndjson({"hello": "world"})))
        with self.assertRaises(AtriumResponseError) as caught:
            list(Atrium(server.url, user_id="u", retries=NO_RETRY).export())
        self.assertNotIsInstance(caught.exception, IncompleteExportError)

    def test_the_import_request_and_its_retries(self) -> None:
        fast = Retry(attempts=2, base_delay=0.01)
        unavailable = Reply(503, {"error": "Database unavailable"}, headers={"Retry-After": "0"})
        server = scripted(self, unavailable, Reply(200, IMPORTED))
        line = {"id": new_id(), "content": "one line"}
        result = Atrium(server.url, user_id="u", retries=fast).import_memories([line], dry_run=True)
        self.assertEqual(result.imported, 1)
        self.assertEqual(len(server.seen), 2)  # skip (the default): safe to send again
        seen = server.seen[-1]
        self.assertEqual((seen.method, seen.path), ("POST", "/v1/memories/import"))
        self.assertEqual(seen.headers["content-type"], "application/x-ndjson")
        self.assertEqual(sorted(seen.query), [("dry_run", "true"), ("user_id", "u")])
        self.assertEqual(seen.body, line)
        # new_id is not retried after a 503: the first attempt may have written copies.
        server = scripted(self, unavailable, Reply(200, IMPORTED))
        with self.assertRaises(ServiceUnavailableError):
            Atrium(server.url, user_id="u", retries=fast).import_memories([line], on_conflict="new_id")
        self.assertEqual(len(server.seen), 1)


def tearDownModule() -> None:
    errors = open_service().internal_errors()
    if errors:
        raise AssertionError(f"the service logged internal errors: {errors[:3]}")


if __name__ == "__main__":
    unittest.main()
