"""AUTH_MODE=api_key: the scope comes from the key (agent key: its workspace and agent; user key:
the user's own memories), and ``AtriumAdmin`` manages keys, reads the audit log and config."""

from __future__ import annotations

import unittest

from atrium_client import (
    NO_RETRY,
    Atrium,
    AtriumAdmin,
    AtriumError,
    AuthenticationError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    Retry,
    Scope,
)

from .support import ADMIN_TOKEN, keyed_service, new_id, new_user


class ApiKeyTest(unittest.TestCase):
    def setUp(self) -> None:
        self.service = keyed_service()
        self.admin = AtriumAdmin(self.service.url, ADMIN_TOKEN, retries=NO_RETRY)
        self.user, self.workspace = new_user(), new_id()
        self.agent_a, self.agent_b = new_id(), new_id()

    def agent_client(self, agent_id: str) -> Atrium:
        key = self.admin.create_key("agent", self.user, workspace_id=self.workspace, agent_id=agent_id, label="py-tests")
        self.assertEqual((key.role, key.workspace_id, key.agent_id), ("agent", self.workspace, agent_id))
        self.assertTrue(key.key.startswith("atr_"))
        self.assertNotIn(key.key, repr(key))
        return Atrium(self.service.url, api_key=key.key, retries=NO_RETRY)

    def test_an_agent_key_acts_in_its_workspace_without_any_ids(self) -> None:
        a, b = self.agent_client(self.agent_a), self.agent_client(self.agent_b)
        private = a.ingest_quick("Agent A's vendor shortlist", source_site="py-keys", skip_extraction=True, visibility="agent_only")
        shared = a.ingest_quick("The sprint demo is on Tuesday", source_site="py-keys", skip_extraction=True)
        (private_id,), (shared_id,) = private.stored_memory_ids, shared.stored_memory_ids

        record = a.get(private_id)
        self.assertEqual((record.user_id, record.workspace_id, record.agent_id), (self.user, self.workspace, self.agent_a))
        found = b.search("vendor shortlist sprint demo")
        self.assertEqual(found.scope.kind, "workspace")
        self.assertEqual(found.scope.agent_id, self.agent_b)
        self.assertNotIn(private_id, [m.id for m in found.memories])
        self.assertIn(shared_id, [m.id for m in found.memories])
        with self.assertRaises(NotFoundError):
            b.get(private_id)

        # Claiming another agent's id with B's key is refused, not obeyed.
        with self.assertRaises(PermissionDeniedError) as caught:
            b.get(private_id, scope=Scope(self.user, self.workspace, self.agent_a))
        self.assertEqual(caught.exception.message, "scope does not match the API key")
        # An agent key may read its user's lessons but never manage them.
        self.assertEqual(b.lessons().count, 0)
        with self.assertRaises(PermissionDeniedError):
            b.set_trust(self.agent_b, 1.0)

    def test_a_user_key_acts_in_the_users_own_scope(self) -> None:
        key = self.admin.create_key("user", self.user)
        atrium = Atrium(self.service.url, api_key=key.key, retries=NO_RETRY)
        (memory_id,) = atrium.ingest_quick("My dentist is Dr. Okafor", source_site="py-keys", skip_extraction=True).stored_memory_ids
        self.assertIsNone(atrium.get(memory_id).workspace_id)
        self.assertEqual(atrium.search("dentist").scope.kind, "user")
        self.assertEqual(atrium.set_trust(self.agent_a, 0.3).trust_level, 0.3)
        with self.assertRaises(PermissionDeniedError):
            atrium.search("dentist", scope=Scope(new_user()))

    def test_no_key_an_unknown_key_and_a_revoked_key_are_authentication_errors(self) -> None:
        with self.assertRaises(AuthenticationError) as caught:
            Atrium(self.service.url, user_id=self.user, retries=NO_RETRY).search("x")
        self.assertEqual(caught.exception.status, 401)
        with self.assertRaises(AuthenticationError):
            Atrium(self.service.url, api_key="atr_" + "x" * 43, retries=NO_RETRY).search("x")
        key = self.admin.create_key("user", self.user)
        atrium = Atrium(self.service.url, api_key=key.key, retries=NO_RETRY)
        atrium.search("x")
        self.assertTrue(self.admin.revoke_key(key.id).success)
        with self.assertRaises(AuthenticationError):
            atrium.search("x")
        with self.assertRaises(NotFoundError):
            self.admin.revoke_key(new_id())

    def test_over_the_rate_limit_is_a_rate_limit_error_with_retry_after(self) -> None:
        key = self.admin.create_key("user", self.user, rate_limit_per_minute=1)
        atrium = Atrium(self.service.url, api_key=key.key, retries=Retry(attempts=2, max_delay=1))
        atrium.lessons()
        with self.assertRaises(RateLimitError) as caught:
            atrium.lessons()
        # The limiter asks for a wait longer than max_delay, so the client did not sit it out.
        assert caught.exception.retry_after is not None
        self.assertGreater(caught.exception.retry_after, 1)

    def test_admin_lists_keys_reads_the_audit_log_and_is_refused_config_changes(self) -> None:
        created = self.admin.create_key("user", self.user, label="listed")
        listed = self.admin.list_keys(user_id=self.user)
        self.assertEqual([k.id for k in listed.keys], [created.id])
        self.assertFalse(hasattr(listed.keys[0], "key"))
        events = self.admin.audit(user_id=self.user, action="key.created", limit=10)
        self.assertEqual([e.target_id for e in events.events], [created.id])
        with self.assertRaises(AtriumError) as caught:
            self.admin.update_config(lessons_enabled=False)
        self.assertEqual(caught.exception.status, 410)
        self.assertIn("CORE_RUNTIME_CONFIG_MUTATION_ENABLED", caught.exception.detail or "")
        with self.assertRaises(AuthenticationError):
            AtriumAdmin(self.service.url, "not-the-token", retries=NO_RETRY).list_keys()


def tearDownModule() -> None:
    errors = keyed_service().internal_errors()
    if errors:
        raise AssertionError(f"the service logged internal errors: {errors[:3]}")


if __name__ == "__main__":
    unittest.main()
