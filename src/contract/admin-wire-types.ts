/**
 * Admin response shapes on the wire (CONTRACT section 10), declared once like wire-types.ts:
 * the service's records are these (src/auth/admin.service.ts, database/audit), the OpenAPI
 * classes implement them with exactly their keys (src/openapi/admin.responses.ts), and the
 * client's types are Camelized<> of them. No imports beyond wire-types, for the client build.
 */

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

/** POST /v1/admin/erase (CONTRACT section 13): the receipt. */
export interface ErasureReceiptWire {
  erased: Record<string, number>;
  residue: Record<string, number>;
  erased_at: string;
}

/** The webhook event types (docs/observability.md#webhooks). */
export type WireWebhookEvent = 'memory.stored' | 'memory.updated' | 'memory.deleted' | 'lesson.recorded' | 'lesson.matched';

/** A webhook subscription as listed: never the secret. */
export interface WebhookSubscriptionWire {
  id: string;
  user_id: string;
  /** With agent_id: the subscription reads as that agent's key would; null: as the user's key. */
  workspace_id: string | null;
  agent_id: string | null;
  url: string;
  events: WireWebhookEvent[];
  created_at: string;
}

/** The creation answer: the only time the signing secret is shown. */
export interface CreatedWebhookSubscriptionWire extends WebhookSubscriptionWire {
  secret: string;
}

/** One event for one subscriber, and where its delivery stands. */
export interface WebhookDeliveryWire {
  /** The `webhook-id` header: the same on every attempt. */
  id: string;
  event_id: string;
  subscription_id: string;
  user_id: string;
  event_type: WireWebhookEvent;
  status: 'pending' | 'delivered' | 'dead';
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** The changes that are audited (CONTRACT section 10). */
export const AUDIT_ACTIONS = [
  'memory.stored',
  'memory.updated',
  'memory.superseded',
  'memory.deleted',
  'memory.visibility_changed',
  'grant.created',
  'grant.revoked',
  'lesson.recorded',
  'lesson.reported',
  'lesson.retired',
  'agent.trust_set',
  'config.changed',
  'key.created',
  'key.revoked',
  'subject.erased',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
