import type {
  ApiKeyWire,
  AuditEventWire,
  CreatedApiKeyWire,
  CreatedWebhookSubscriptionWire,
  WebhookDeliveryWire,
  WebhookSubscriptionWire,
  WhoAmIWire,
  WireKeyRole,
  WireWebhookEvent,
} from '../contract/admin-wire-types';
import type { Camelized, VisibilityExplanationWire, WireHiddenBecause, WireVisibilityRule } from '../contract/wire-types';

/** Agents, health and runtime configuration. */

export interface AgentTrustOptions {
  /** May be left out with an API key (the key's user is used). */
  userId?: string;
  agentId: string;
}

export interface AgentTrust {
  agentId: string;
  /** 0..1; 0.5 for an agent never set. */
  trustLevel: number;
}

export interface SetAgentTrustOptions extends AgentTrustOptions {
  trustLevel: number;
  /** Omitted: the stored name is kept. */
  displayName?: string;
}

export interface AgentTrustRecord extends AgentTrust {
  displayName: string | null;
}

export interface HealthStatus {
  status: string;
}

/** Fields `updateConfig` may change while the service runs. */
export interface RuntimeConfigPatch {
  maxSearchResults?: number;
  lessonsEnabled?: boolean;
  lessonSimilarityThreshold?: number;
  trustScoringEnabled?: boolean;
  trustScoreMinThreshold?: number;
  audnCandidateThreshold?: number;
  duplicateThreshold?: number;
  trustedSourceSites?: readonly string[];
}

/** The effective config: the runtime fields, plus startup-only selections for reference. */
export interface EffectiveConfig {
  maxSearchResults: number;
  lessonsEnabled: boolean;
  lessonSimilarityThreshold: number;
  trustScoringEnabled: boolean;
  trustScoreMinThreshold: number;
  audnCandidateThreshold: number;
  duplicateThreshold: number;
  trustedSourceSites?: string[];
  /** Version of the shared runtime config the answering instance applies (one more per change). */
  configVersion?: number;
  embeddingProvider?: string;
  embeddingModel?: string;
  embeddingDimensions?: number;
  llmProvider?: string;
  llmModel?: string | null;
  runtimeConfigMutationEnabled?: boolean;
  [field: string]: unknown;
}

export interface MemoriesHealth {
  status: string;
  config: EffectiveConfig;
}

export interface ConfigUpdateResult {
  /** The changed fields, camelCased like the patch. */
  applied: string[];
  config: EffectiveConfig;
}

/** Admin: API keys (CONTRACT section 10). */
export type ApiKeyRole = WireKeyRole;

export interface CreateApiKeyOptions {
  role: ApiKeyRole;
  /** `*` for (and only for) a service key. */
  userId: string;
  /** Required for an agent key. */
  workspaceId?: string;
  agentId?: string;
  label?: string;
  /** ISO-8601, in the future. */
  expiresAt?: string;
  rateLimitPerMinute?: number;
}

export type ApiKeyInfo = Camelized<ApiKeyWire>;

/** The secret `key` is in this answer only. */
export type CreatedApiKey = Camelized<CreatedApiKeyWire>;

export interface ApiKeyList {
  keys: ApiKeyInfo[];
  count: number;
}

export interface AuditQueryOptions {
  userId?: string;
  workspaceId?: string;
  action?: string;
  since?: string;
  /** 1..500, default 100. */
  limit?: number;
}

/** `detail` holds ids, enum values and counts as the service wrote them (keys not re-cased). */
export type AuditEvent = Camelized<AuditEventWire>;

export interface AuditEventList {
  events: AuditEvent[];
  count: number;
}

/** Who the client's credential is (`whoami`): `open` in AUTH_MODE=off, else the key's role and ids. */
export type WhoAmI = Camelized<WhoAmIWire>;

export type VisibilityRule = WireVisibilityRule;
export type HiddenBecause = WireHiddenBecause;

/** Admin: one memory of a user, and the agent of a workspace asked about. */
export interface ExplainVisibilityOptions {
  userId: string;
  workspaceId: string;
  agentId: string;
  memoryId: string;
}

/** The read predicate's verdict on one memory for one agent, and the rule behind it. */
export type VisibilityExplanation = Camelized<VisibilityExplanationWire>;

/** Admin: the subject of an erasure: a user, one of its workspaces, or one agent of that workspace. */
export interface EraseOptions {
  userId: string;
  workspaceId?: string;
  /** Needs workspaceId. */
  agentId?: string;
}

/**
 * What an erasure deleted per table (audit events: reduced to id, at and action) and the residue
 * counted again after the deletion, all 0. Table names are keys as the service sends them.
 */
export interface ErasureReceipt {
  erased: Record<string, number>;
  residue: Record<string, number>;
  erasedAt: string;
}

/** Admin: webhooks (docs/observability.md#webhooks). */
export type WebhookEvent = WireWebhookEvent;

export interface CreateWebhookOptions {
  /** The user whose changes are reported. */
  userId: string;
  /** Where the signed POSTs go. */
  url: string;
  events: readonly WebhookEvent[];
  /** With agentId: events about what that agent can read in this workspace. */
  workspaceId?: string;
  agentId?: string;
  /** `whsec_` + base64 of 24 to 64 bytes; omitted: the service generates one. */
  secret?: string;
}

/** A subscription as listed: never the secret. */
export type WebhookSubscription = Camelized<WebhookSubscriptionWire>;

/** The signing `secret` is in this answer only. */
export type CreatedWebhookSubscription = Camelized<CreatedWebhookSubscriptionWire>;

export interface WebhookSubscriptionList {
  subscriptions: WebhookSubscription[];
  count: number;
}

export type WebhookDeliveryStatus = WebhookDeliveryWire['status'];

export interface WebhookDeliveriesOptions {
  userId?: string;
  subscriptionId?: string;
  /** `dead`: the dead letters. */
  status?: WebhookDeliveryStatus;
  /** 1..500, default 100. */
  limit?: number;
}

/** One event for one subscriber, and where its delivery stands. */
export type WebhookDelivery = Camelized<WebhookDeliveryWire>;

export interface WebhookDeliveryList {
  deliveries: WebhookDelivery[];
  count: number;
}
