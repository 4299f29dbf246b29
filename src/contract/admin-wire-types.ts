/**
 * Admin response shapes on the wire (CONTRACT section 10), declared once like wire-types.ts:
 * the service's records are these (src/auth/admin.service.ts, database/audit), the OpenAPI
 * classes implement them with exactly their keys (src/openapi/admin.responses.ts), and the
 * client's types are Camelized<> of them. No imports beyond wire-types, for the client build.
 */

import type { WireVisibility } from './wire-types';

export type WireKeyRole = 'agent' | 'user' | 'service';

/** A key as listed: never the secret. */
export interface ApiKeyWire {
  id: string;
  role: WireKeyRole;
  /** `*` for a service key. */
  user_id: string;
  workspace_id: string | null;
  agent_id: string | null;
  label: string | null;
  expires_at: string | null;
  rate_limit_per_minute: number | null;
  revoked_at: string | null;
  created_at: string;
}

/** The creation answer: the only time the secret is shown. */
export interface CreatedApiKeyWire extends ApiKeyWire {
  key: string;
}

export interface AuditEventWire {
  id: string;
  at: string;
  action: string;
  user_id: string | null;
  workspace_id: string | null;
  agent_id: string | null;
  key_id: string | null;
  target_id: string | null;
  request_id: string | null;
  /** Ids, enum values and counts; keys not re-cased by the client. */
  detail: Record<string, unknown>;
}

/**
 * Which alternative of the read rule lets a memory through for an agent (CONTRACT section 3),
 * or `not_visible`: `owner` (its own), `workspace` (visibility `workspace` or NULL), `grant`
 * (restricted, with a grant row for the agent).
 */
export type WireVisibilityRule = 'owner' | 'workspace' | 'grant' | 'not_visible';

/** Why a memory is not visible to the agent, first match in this order. */
export type WireHiddenBecause =
  'deleted' | 'superseded' | 'personal_memory' | 'other_workspace' | 'agent_only' | 'restricted_without_grant' | 'other';

/** GET /v1/admin/explain: how the read predicate judges one memory for one agent. */
export interface VisibilityExplanationWire {
  memory_id: string;
  user_id: string;
  /** The workspace and agent asked about. */
  workspace_id: string;
  agent_id: string;
  /** The read predicate itself (agent_scope `all`) on this row. */
  visible: boolean;
  rule: WireVisibilityRule;
  /** null when visible. */
  hidden_because: WireHiddenBecause | null;
  /**
   * Each alternative of the read rule evaluated on the row for this agent. Only part of the
   * answer: the row must also be in the workspace and live, which `visible` includes.
   */
  conditions: { owner: boolean; workspace: boolean; grant: boolean };
  /** Where the row is and what it says; never its content. */
  memory: {
    workspace_id: string | null;
    agent_id: string | null;
    visibility: WireVisibility | null;
    deleted: boolean;
    superseded: boolean;
  };
}

/**
 * GET /v1/whoami: the credential's identity as the service resolved it. `kind` is `open` in
 * AUTH_MODE=off (no credential; scope from the parameters); otherwise the key's role, with
 * the ids it is bound to (null where the role has none).
 */
export interface WhoAmIWire {
  auth_mode: 'off' | 'api_key';
  kind: 'open' | WireKeyRole;
  key_id: string | null;
  user_id: string | null;
  workspace_id: string | null;
  agent_id: string | null;
}
