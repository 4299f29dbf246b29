"""``AsyncAtrium``: the same methods as ``Atrium`` (names and signatures), working against a real service."""

from __future__ import annotations

import asyncio
import inspect
import unittest

from atrium_client import NO_RETRY, AsyncAtrium, Atrium, NotFoundError

from .support import new_id, new_user, open_service


def public_methods(cls: type) -> dict[str, inspect.Signature]:
    return {name: inspect.signature(fn) for name, fn in vars(cls).items() if callable(fn) and not name.startswith("_")}


#: Streamed methods: an async generator in AsyncAtrium (``async for``), a generator in Atrium;
#: the same parameters, and AsyncIterator where Atrium says Iterator.
STREAMED = {"export"}


class AsyncParityTest(unittest.TestCase):
    def test_async_atrium_has_atriums_methods_with_the_same_signatures(self) -> None:
        sync, asynchronous = public_methods(Atrium), public_methods(AsyncAtrium)
        self.assertEqual(sorted(sync), sorted(asynchronous))
        for name, signature in sync.items():
            if name in STREAMED:
                self.assertEqual(signature.parameters, asynchronous[name].parameters, name)
                self.assertEqual("Async" + str(signature.return_annotation), str(asynchronous[name].return_annotation), name)
                self.assertTrue(inspect.isgeneratorfunction(getattr(Atrium, name)), name)
                self.assertTrue(inspect.isasyncgenfunction(getattr(AsyncAtrium, name)), name)
                continue
            self.assertEqual(signature, asynchronous[name], name)
            self.assertTrue(inspect.iscoroutinefunction(getattr(AsyncAtrium, name)), name)
        self.assertEqual(inspect.signature(Atrium.__init__), inspect.signature(AsyncAtrium.__init__))


class AsyncServiceTest(unittest.IsolatedAsyncioTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        # Started (or reused) outside the event loop: starting blocks for seconds.
        cls.url = open_service().url

    async def test_concurrent_calls_in_a_workspace(self) -> None:
        url = self.url
        user, workspace = new_user(), new_id()
        a = AsyncAtrium(url, user_id=user, workspace_id=workspace, agent_id=new_id(), retries=NO_RETRY)
        b = AsyncAtrium(url, user_id=user, workspace_id=workspace, agent_id=new_id(), retries=NO_RETRY)
        texts = ["The printer on floor two is broken", "Parking passes renew in March", "The wiki moved to a new host"]
        stored = await asyncio.gather(*(a.ingest_quick(t, source_site="py-async", skip_extraction=True) for t in texts))
        ids = [result.stored_memory_ids[0] for result in stored]
        private = (await a.ingest_quick("Agent A's draft offer is 120k", source_site="py-async", skip_extraction=True, visibility="agent_only")).stored_memory_ids[0]

        results = await asyncio.gather(b.search("printer floor"), b.search("parking passes"), b.search("wiki host"))
        self.assertEqual([r.memories[0].id for r in results], ids)
        self.assertEqual({m.id for m in (await b.list()).memories}, set(ids))
        with self.assertRaises(NotFoundError):
            await b.get(private)
        self.assertEqual((await a.get(private)).id, private)
        self.assertNotIn(private, [m.id for m in (await b.search("draft offer")).memories])


if __name__ == "__main__":
    unittest.main()
