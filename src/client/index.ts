/**
 * The `atrium/client` entry point: a fetch-based client with no runtime dependencies
 * (Node >= 18, browsers). This file is the package's public surface, so it re-exports every
 * public name; nothing here imports from outside src/client/, so it compiles on its own.
 */
export { AtriumClient } from './client';
export { AtriumError, AtriumNetworkError, AtriumTimeoutError, type AtriumErrorInit } from './errors';
export { camelToSnake, keysToCamel, keysToSnake, snakeToCamel } from './case-conversion';
export { DEFAULT_RETRY_STATUSES } from './retry-policy';
export { DEFAULT_TIMEOUT_MS } from './transport';
export type { AtriumClientOptions, CallOptions, FetchLike, FetchRequestInit, FetchResponseLike, RetryOptions } from './options';
export type {
  AgentScopeInput,
  KeyScopeInput,
  OwnerScopeInput,
  ResolvedScope,
  ScopeInput,
  UserScopeInput,
  WorkspaceScopeInput,
  WriterScopeInput,
} from './scope';
export type {
  ExpandOptions,
  ExportLine,
  ExportOptions,
  ImportOptions,
  ImportResult,
  Grant,
  GrantList,
  GrantOptions,
  IngestOptions,
  IngestResult,
  ListGrantsOptions,
  GetOptions,
  ListOptions,
  MemoriesPage,
  MemoryHistory,
  MemoryIdOptions,
  MemoryRecord,
  MemoryStatus,
  MemoryType,
  Metadata,
  QuickIngestOptions,
  SearchHit,
  SearchOptions,
  SearchResult,
  SetVisibilityOptions,
  SuccessResult,
  TimeInput,
  UpdateOptions,
  Visibility,
} from './memory-types';
export type {
  Lesson,
  LessonCheck,
  LessonList,
  LessonSeverity,
  LessonStats,
  LessonType,
  LessonUserOptions,
  ReportLessonOptions,
  ReportLessonResult,
  RetireLessonOptions,
} from './lesson-types';
export type {
  ApiKeyInfo,
  ApiKeyList,
  ApiKeyRole,
  AuditEvent,
  AuditEventList,
  AuditQueryOptions,
  CreateApiKeyOptions,
  CreatedApiKey,
  AgentTrust,
  AgentTrustOptions,
  AgentTrustRecord,
  ConfigUpdateResult,
  EffectiveConfig,
  HealthStatus,
  MemoriesHealth,
  RuntimeConfigPatch,
  SetAgentTrustOptions,
  EraseOptions,
  ErasureReceipt,
  ExplainVisibilityOptions,
  HiddenBecause,
  VisibilityExplanation,
  VisibilityRule,
  WhoAmI,
  CreateWebhookOptions,
  CreatedWebhookSubscription,
  WebhookDeliveriesOptions,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookDeliveryStatus,
  WebhookEvent,
  WebhookSubscription,
  WebhookSubscriptionList,
} from './admin-types';
