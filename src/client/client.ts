import type {
  AgentTrust,
  AgentTrustOptions,
  AgentTrustRecord,
  ApiKeyList,
  AuditEventList,
  AuditQueryOptions,
  ConfigUpdateResult,
  CreateApiKeyOptions,
  CreatedApiKey,
  CreatedWebhookSubscription,
  CreateWebhookOptions,
  EraseOptions,
  ErasureReceipt,
  ExplainVisibilityOptions,
  HealthStatus,
  MemoriesHealth,
  RuntimeConfigPatch,
  SetAgentTrustOptions,
  VisibilityExplanation,
  WebhookDeliveriesOptions,
  WebhookDeliveryList,
  WebhookSubscriptionList,
  WhoAmI,
} from './admin-types';
import { keysToCamel, keysToSnake, snakeToCamel } from './case-conversion';
import { AtriumError } from './errors';
import type {
  LessonList,
  LessonStats,
  LessonUserOptions,
  ReportLessonOptions,
  ReportLessonResult,
  RetireLessonOptions,
} from './lesson-types';
import type {
  ExpandOptions,
  ExportLine,
  ExportOptions,
  GetOptions,
  Grant,
  GrantList,
  GrantOptions,
  ImportOptions,
  ImportResult,
  IngestOptions,
  IngestResult,
  ListGrantsOptions,
  ListOptions,
  MemoriesPage,
  MemoryHistory,
  MemoryIdOptions,
  MemoryRecord,
  QuickIngestOptions,
  SearchOptions,
  SearchResult,
  SetVisibilityOptions,
  SuccessResult,
  UpdateOptions,
} from './memory-types';
import type { AtriumClientOptions, CallOptions } from './options';
import type { QueryValue } from './query-string';
import { HttpTransport, type WireRequest } from './transport';

const seg = (value: string): string => encodeURIComponent(value);
const query = (options: object): Record<string, QueryValue> => keysToSnake(options) as Record<string, QueryValue>;

/**
 * Atrium over HTTP: one method per route, camelCase in and out, every method taking an
 * optional CallOptions last. Errors: AtriumError (the service said no), AtriumTimeoutError,
 * AtriumNetworkError.
 *
 * `idempotent` below marks calls that are safe to repeat after a network error or timeout
 * (reads, PUT/PATCH to a value, grants, deletes). Ingest and lesson reports are not: a repeat
 * could store twice. A repeated delete whose first attempt did land answers 404 in a
 * workspace (the row is gone), which is the price of retrying it.
 */
export class AtriumClient {
  private readonly transport: HttpTransport;

  private readonly hasAdminToken: boolean;

  constructor(options: AtriumClientOptions) {
    this.transport = new HttpTransport(options);
    this.hasAdminToken = options.adminToken !== undefined;
  }

  private async call<T>(request: WireRequest, call?: CallOptions): Promise<T> {
    const { data } = await this.transport.send(request, call);
    return keysToCamel(data) as T;
  }

  /** Extract facts (LLM when the service has one, else rules), gate, de-duplicate, store. */
  ingest(options: IngestOptions, call?: CallOptions): Promise<IngestResult> {
    return this.call({ method: 'POST', path: '/v1/memories/ingest', body: keysToSnake(options), idempotent: false }, call);
  }

  /** Rule-based extraction only; `skipExtraction` stores the text verbatim. */
  ingestQuick(options: QuickIngestOptions, call?: CallOptions): Promise<IngestResult> {
    return this.call({ method: 'POST', path: '/v1/memories/ingest/quick', body: keysToSnake(options), idempotent: false }, call);
  }

  /** Hybrid search. Check `lessonCheck.safe`: when false the search failed closed. */
  search(options: SearchOptions, call?: CallOptions): Promise<SearchResult> {
    return this.call({ method: 'POST', path: '/v1/memories/search', body: keysToSnake(options), idempotent: true }, call);
  }

  /** Vector-only search. */
  searchFast(options: SearchOptions, call?: CallOptions): Promise<SearchResult> {
    return this.call({ method: 'POST', path: '/v1/memories/search/fast', body: keysToSnake(options), idempotent: true }, call);
  }

  /** Memories by id, in the order asked; invisible or unknown ids are left out. */
  expand(options: ExpandOptions, call?: CallOptions): Promise<{ memories: MemoryRecord[] }> {
    return this.call({ method: 'POST', path: '/v1/memories/expand', body: keysToSnake(options), idempotent: true }, call);
  }

  list(options: ListOptions, call?: CallOptions): Promise<MemoriesPage> {
    return this.call({ method: 'GET', path: '/v1/memories/list', query: query(options), idempotent: true }, call);
  }

  /**
   * Every memory the caller can see, streamed (GET /v1/memories/export, CONTRACT section 13):
   * `for await (const line of client.export({...}))` yields the header, each memory (oldest
   * first) and the end line, each tagged with `kind`. Memory stays flat whatever the size: the
   * next lines are read only as the loop asks for them. A stream that stops before its end line
   * throws an AtriumError, so a truncated export is never taken for a complete one.
   */
  async *export(options: ExportOptions, call?: CallOptions): AsyncGenerator<ExportLine> {
    const { asAdmin, ...rest } = options;
    const wire = asAdmin
      ? { userId: rest.userId, workspaceId: rest.workspaceId, includeVectors: rest.includeVectors, includeExpired: rest.includeExpired }
      : rest;
    const request: WireRequest = {
      method: 'GET',
      path: '/v1/memories/export',
      query: query(wire),
      idempotent: true,
      auth: asAdmin ? 'admin' : 'key',
    };
    let ended = false;
    let first = true;
    for await (const text of this.transport.lines(request, call)) {
      const line = keysToCamel(JSON.parse(text)) as Record<string, unknown>;
      if (first) {
        first = false;
        if (line.format !== 'atrium.export')
          throw new AtriumError('Response is not an Atrium export', { status: 200, method: 'GET', path: request.path, body: text });
        yield { kind: 'header', ...line } as ExportLine;
      } else if (line.end === true) {
        ended = true;
        yield { kind: 'end', ...line } as ExportLine;
      } else {
        yield { kind: 'memory', ...line } as ExportLine;
      }
    }
    if (!ended)
      throw new AtriumError('The export ended before its end line (incomplete)', {
        status: 200,
        method: 'GET',
        path: request.path,
        body: null,
      });
  }

  /**
   * Import memories (POST /v1/memories/import, CONTRACT section 13): `body` is an export's NDJSON
   * (the text of `export()`'s lines, one per line) or, with `format: 'mem0'`, mem0's export as
   * JSON text. Bad lines come back by number in `errors`; the rest is imported. Retried after a
   * network error only with `onConflict: 'skip'` (the default), where a second run changes nothing.
   */
  import(options: ImportOptions, body: string, call?: CallOptions): Promise<ImportResult> {
    const { asAdmin, ...rest } = options;
    const wire = asAdmin
      ? { userId: rest.userId, workspaceId: rest.workspaceId, onConflict: rest.onConflict, dryRun: rest.dryRun, format: rest.format }
      : rest;
    return this.call(
      {
        method: 'POST',
        path: '/v1/memories/import',
        query: query(wire),
        rawBody: { contentType: options.format === 'mem0' ? 'application/json' : 'application/x-ndjson', text: body },
        idempotent: (options.onConflict ?? 'skip') === 'skip',
        auth: asAdmin ? 'admin' : 'key',
      },
      call,
    );
  }

  /** AtriumError 404 when missing or not visible to the caller (the two are indistinguishable). */
  get(options: GetOptions, call?: CallOptions): Promise<MemoryRecord> {
    const { id, ...scope } = options;
    return this.call({ method: 'GET', path: `/v1/memories/${seg(id)}`, query: query(scope), idempotent: true }, call);
  }

  /** Soft delete. User scope: success whether or not a row matched; workspace: 404 when nothing visible matched. */
  delete(options: MemoryIdOptions, call?: CallOptions): Promise<SuccessResult> {
    const { id, ...scope } = options;
    return this.call({ method: 'DELETE', path: `/v1/memories/${seg(id)}`, query: query(scope), idempotent: true }, call);
  }

  /**
   * Change a memory (its owner only): visibility, content, metadata, expiry. One new version
   * per call. AtriumError 422 when the write gate blocks the new content, 403 for an agent that
   * sees but does not own it, 404 for one that cannot see it.
   */
  update(options: UpdateOptions, call?: CallOptions): Promise<MemoryRecord> {
    const { id, ...body } = options;
    return this.call({ method: 'PATCH', path: `/v1/memories/${seg(id)}`, body: keysToSnake(body), idempotent: true }, call);
  }

  /** A memory's versions, oldest first; AtriumError 404 exactly as `get`. */
  history(options: MemoryIdOptions, call?: CallOptions): Promise<MemoryHistory> {
    const { id, ...scope } = options;
    return this.call({ method: 'GET', path: `/v1/memories/${seg(id)}/history`, query: query(scope), idempotent: true }, call);
  }

  /** Owning agent only: 403 for an agent that sees but does not own it, 404 for one that cannot see it. */
  setVisibility(options: SetVisibilityOptions, call?: CallOptions): Promise<MemoryRecord> {
    const { id, ...body } = options;
    return this.call({ method: 'PATCH', path: `/v1/memories/${seg(id)}`, body: keysToSnake(body), idempotent: true }, call);
  }

  /** Share a restricted memory with another agent (409 when it is not restricted). Takes effect on the next read. */
  async grant(options: GrantOptions, call?: CallOptions): Promise<Grant> {
    const { id, ...body } = options;
    const request: WireRequest = { method: 'POST', path: `/v1/memories/${seg(id)}/grants`, body: keysToSnake(body), idempotent: true };
    const { status, data } = await this.transport.send(request, call);
    return { ...(keysToCamel(data) as Omit<Grant, 'created'>), created: status === 201 };
  }

  listGrants(options: ListGrantsOptions, call?: CallOptions): Promise<GrantList> {
    const { id, ...scope } = options;
    return this.call({ method: 'GET', path: `/v1/memories/${seg(id)}/grants`, query: query(scope), idempotent: true }, call);
  }

  /** 404 when there was no such grant. */
  revokeGrant(options: GrantOptions, call?: CallOptions): Promise<SuccessResult> {
    const { id, granteeAgentId, ...scope } = options;
    const path = `/v1/memories/${seg(id)}/grants/${seg(granteeAgentId)}`;
    return this.call({ method: 'DELETE', path, query: query(scope), idempotent: true }, call);
  }

  listLessons(options: LessonUserOptions, call?: CallOptions): Promise<LessonList> {
    return this.call({ method: 'GET', path: '/v1/memories/lessons', query: query(options), idempotent: true }, call);
  }

  lessonStats(options: LessonUserOptions, call?: CallOptions): Promise<LessonStats> {
    return this.call({ method: 'GET', path: '/v1/memories/lessons/stats', query: query(options), idempotent: true }, call);
  }

  /** Record a `user_reported` lesson; `lessonId` is null while lessons are off. */
  reportLesson(options: ReportLessonOptions, call?: CallOptions): Promise<ReportLessonResult> {
    const { userId, ...body } = options;
    const request: WireRequest = {
      method: 'POST',
      path: '/v1/memories/lessons/report',
      query: { user_id: userId },
      body: keysToSnake(body),
      idempotent: false,
    };
    return this.call(request, call);
  }

  /** Deactivate a lesson (kept for audit). 404 for an unknown id or another user's; `success: false` while lessons are off. */
  retireLesson(options: RetireLessonOptions, call?: CallOptions): Promise<SuccessResult> {
    const { id, userId } = options;
    return this.call({ method: 'DELETE', path: `/v1/memories/lessons/${seg(id)}`, query: { user_id: userId }, idempotent: true }, call);
  }

  getAgentTrust(options: AgentTrustOptions, call?: CallOptions): Promise<AgentTrust> {
    return this.call({ method: 'GET', path: '/v1/agents/trust', query: query(options), idempotent: true }, call);
  }

  /** A workspace write's trust is the lower of its source's and the writing agent's level. */
  setAgentTrust(options: SetAgentTrustOptions, call?: CallOptions): Promise<AgentTrustRecord> {
    return this.call({ method: 'PUT', path: '/v1/agents/trust', body: keysToSnake(options), idempotent: true }, call);
  }

  /** `{ status: 'ok' }`; AtriumError 503 when the service's database does not answer. */
  health(call?: CallOptions): Promise<HealthStatus> {
    return this.call({ method: 'GET', path: '/health', idempotent: true }, call);
  }

  /** Status and the effective runtime config. */
  memoriesHealth(call?: CallOptions): Promise<MemoriesHealth> {
    return this.call({ method: 'GET', path: '/v1/memories/health', idempotent: true }, call);
  }

  /**
   * Change runtime config on this one service instance. AtriumError 410 (with `detail`) when
   * mutation is disabled, 400 with `detail` and `rejected` for startup-only fields.
   */
  async updateConfig(patch: RuntimeConfigPatch, call?: CallOptions): Promise<ConfigUpdateResult> {
    const result = await this.call<ConfigUpdateResult>(
      {
        method: 'PUT',
        path: '/v1/memories/config',
        body: keysToSnake(patch),
        idempotent: true,
        auth: this.hasAdminToken ? 'admin' : 'key',
      },
      call,
    );
    // `applied` lists field names as values; name them the way the caller wrote them.
    return { ...result, applied: result.applied.map(snakeToCamel) };
  }

  /** Admin (the adminToken option): mint a key; `key` is returned this once. */
  createApiKey(options: CreateApiKeyOptions, call?: CallOptions): Promise<CreatedApiKey> {
    return this.call({ method: 'POST', path: '/v1/admin/keys', body: keysToSnake(options), idempotent: false, auth: 'admin' }, call);
  }

  /** Admin: keys, newest first (never the secret), optionally of one user. */
  listApiKeys(options: { userId?: string } = {}, call?: CallOptions): Promise<ApiKeyList> {
    return this.call({ method: 'GET', path: '/v1/admin/keys', query: query(options), idempotent: true, auth: 'admin' }, call);
  }

  /** Admin: revoke a key; effective on the very next request. AtriumError 404 for an unknown id. */
  revokeApiKey(options: { id: string }, call?: CallOptions): Promise<SuccessResult> {
    return this.call({ method: 'DELETE', path: `/v1/admin/keys/${seg(options.id)}`, idempotent: true, auth: 'admin' }, call);
  }

  /** Admin: audit events, newest first. */
  auditEvents(options: AuditQueryOptions = {}, call?: CallOptions): Promise<AuditEventList> {
    return this.call({ method: 'GET', path: '/v1/admin/audit', query: query(options), idempotent: true, auth: 'admin' }, call);
  }

  /**
   * Admin: subscribe a URL to events about what the user (or, with workspaceId and agentId, that
   * agent) can read; the signing `secret` is returned this once. Not retried: a repeat makes a second subscription.
   */
  createWebhook(options: CreateWebhookOptions, call?: CallOptions): Promise<CreatedWebhookSubscription> {
    return this.call({ method: 'POST', path: '/v1/admin/webhooks', body: keysToSnake(options), idempotent: false, auth: 'admin' }, call);
  }

  /** Admin: subscriptions, newest first (never the secret), optionally of one user. */
  listWebhooks(options: { userId?: string } = {}, call?: CallOptions): Promise<WebhookSubscriptionList> {
    return this.call({ method: 'GET', path: '/v1/admin/webhooks', query: query(options), idempotent: true, auth: 'admin' }, call);
  }

  /** Admin: unsubscribe (its pending deliveries go with it). AtriumError 404 for an unknown id. */
  deleteWebhook(options: { id: string }, call?: CallOptions): Promise<SuccessResult> {
    return this.call({ method: 'DELETE', path: `/v1/admin/webhooks/${seg(options.id)}`, idempotent: true, auth: 'admin' }, call);
  }

  /** Admin: deliveries, newest first; `status: 'dead'` lists the dead letters. */
  webhookDeliveries(options: WebhookDeliveriesOptions = {}, call?: CallOptions): Promise<WebhookDeliveryList> {
    return this.call(
      { method: 'GET', path: '/v1/admin/webhooks/deliveries', query: query(options), idempotent: true, auth: 'admin' },
      call,
    );
  }

  /**
   * Admin: erase a user, one of its workspaces, or one agent of that workspace, for good, in one
   * transaction (CONTRACT section 13). The receipt's `residue` is counted after the deletion:
   * all 0 (otherwise the service rolled back and answered 409).
   */
  erase(options: EraseOptions, call?: CallOptions): Promise<ErasureReceipt> {
    return this.call({ method: 'POST', path: '/v1/admin/erase', body: keysToSnake(options), idempotent: true, auth: 'admin' }, call);
  }

  /** The auth mode and who the API key is (its role and bound ids); `kind: 'open'` in AUTH_MODE=off. */
  whoami(call?: CallOptions): Promise<WhoAmI> {
    return this.call({ method: 'GET', path: '/v1/whoami', idempotent: true }, call);
  }

  /**
   * Admin: why an agent of a workspace can or cannot read a memory of the user (the rule of the
   * read predicate that lets it through, or what keeps it out). AtriumError 404 when the user
   * has no such memory.
   */
  explainVisibility(options: ExplainVisibilityOptions, call?: CallOptions): Promise<VisibilityExplanation> {
    return this.call({ method: 'GET', path: '/v1/admin/explain', query: query(options), idempotent: true, auth: 'admin' }, call);
  }
}
