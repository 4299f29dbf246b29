import { randomUUID } from 'node:crypto';

import fc from 'fast-check';

import { EmbeddingService } from '../../src/embeddings/embedding.service';
import { adminAuth, API_KEY_ENV } from './api-keys';
import { newUser } from './ids';
import {
  historyVisible,
  isVisible,
  VisibilityModel,
  type ModelAgentScope,
  type ModelCaller,
  type ModelRow,
  type Visibility,
} from './model-visibility';
import { DISTINCT_SENTENCES, SHARED_WORD } from './seed-isolation';
import { createTestApp, type TestApp } from './test-app';

/**
 * Model-based property test of CONTRACT section 3 (who sees what) and of the owner-only mutations
 * of section 5: random sequences of writes, grants, revokes, visibility changes, deletes and reads
 * by random callers run against the real app, and against an in-memory model written from the
 * contract (test/support/model-visibility.ts). Every read must return exactly what the model says
 * is visible and every mutation must answer the model's status.
 *
 * Each sequence runs in two fresh tenants (users u0 and u1, which reuse the same workspace and
 * agent ids), so sequences never see each other's rows and nothing needs resetting.
 * On failure fast-check prints the seed, the path and the shrunk command list; replay with
 * FC_SEED=<seed> FC_PATH=<path> npm test -- test/memories/visibility.property
 *
 * Two transports (test/memories/visibility.property.spec.ts and test/auth/visibility-keys.property.spec.ts):
 * `parameters` sends each caller's ids (AUTH_MODE=off); `api keys` gives every simulated user and
 * agent a key of its own and sends no ids at all (AUTH_MODE=api_key), so the scope of every
 * request is the key's.
 */

const AGENT_COUNT = 4;
const VISIBILITIES: Visibility[] = ['workspace', 'agent_only', 'restricted'];

// ---- commands (plain records, so a counterexample reads as data) ----

type UserWho = { kind: 'user'; u: number };
type AgentWho = { kind: 'agent'; u: number; w: number; a: number };
type Who = UserWho | AgentWho;
/** `owner`: the agent that owns the target memory (as far as the model knows). */
type Actor = AgentWho | { kind: 'owner' };
type ScopeChoice =
  | { kind: 'absent' }
  | { kind: 'all' | 'self' | 'others' }
  | { kind: 'one'; a: number }
  | { kind: 'list'; as: number[]; form: 'array' | 'comma' };
type Reader = { who: UserWho; scope: null } | { who: AgentWho; scope: ScopeChoice };

/** `memory`: index (modulo count) into the ids written so far in this sequence; -1 = an id nobody wrote. */
type Command =
  /** copy: repeat the content of an earlier memory (index modulo count): a duplicate iff the writer sees that memory. */
  | { op: 'write'; who: Who; visibility: Visibility | 'default'; copy: number | null }
  /** A legacy row (NULL visibility, owner `a` or no owner), inserted with SQL as older versions did. */
  | { op: 'legacy'; u: number; w: number; a: number | null }
  /** aim: target a memory that has grants (when there is one), so dropping grants gets exercised. */
  | { op: 'patch'; by: Actor; memory: number; visibility: Visibility; aim: boolean }
  /** aim: target a restricted memory (when there is one), so that grants get created and repeated. */
  | { op: 'grant'; by: Actor; memory: number; grantee: number; aim: boolean }
  /** aim: target a memory with grants and one of its grantees (when there is one), so real grants get revoked. */
  | { op: 'revoke'; by: Actor; memory: number; grantee: number; aim: boolean }
  | { op: 'grants'; by: Actor; memory: number }
  | { op: 'delete'; who: Who; memory: number }
  /** PATCH new content (CONTRACT section 12): the owner only (the user in user scope). */
  | { op: 'edit'; by: Actor | UserWho; memory: number }
  /** PATCH expires_at into the past (expire) or null (restore). */
  | { op: 'expire'; by: Actor | UserWho; memory: number; restore: boolean }
  | ({ op: 'history'; memory: number } & Reader)
  | ({ op: 'list'; includeExpired: boolean } & Reader)
  | ({ op: 'search' | 'search/fast' } & Reader)
  | ({ op: 'get'; memory: number; includeExpired: boolean } & Reader)
  | ({ op: 'expand'; memories: number[] } & Reader);

const userIndex = fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(1) });
const workspaceIndex = fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(1) });
const agentIndex = fc.integer({ min: 0, max: AGENT_COUNT - 1 });
const userWho: fc.Arbitrary<UserWho> = fc.record({ kind: fc.constant('user' as const), u: userIndex });
const agentWho: fc.Arbitrary<AgentWho> = fc.record({ kind: fc.constant('agent' as const), u: userIndex, w: workspaceIndex, a: agentIndex });
const who: fc.Arbitrary<Who> = fc.oneof({ weight: 1, arbitrary: userWho }, { weight: 4, arbitrary: agentWho });
const actor: fc.Arbitrary<Actor> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'owner' as const }) },
  { weight: 1, arbitrary: agentWho },
);
const memoryRef = fc.oneof({ weight: 12, arbitrary: fc.nat({ max: 24 }) }, { weight: 1, arbitrary: fc.constant(-1) });
const scopeChoice: fc.Arbitrary<ScopeChoice> = fc.oneof(
  fc.constant({ kind: 'absent' as const }),
  fc.constantFrom({ kind: 'all' as const }, { kind: 'self' as const }, { kind: 'others' as const }),
  fc.record({ kind: fc.constant('one' as const), a: agentIndex }),
  fc.record({
    kind: fc.constant('list' as const),
    as: fc.uniqueArray(agentIndex, { minLength: 1, maxLength: 3 }),
    form: fc.constantFrom('array' as const, 'comma' as const),
  }),
);
const reader: fc.Arbitrary<Reader> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ who: userWho, scope: fc.constant(null) }) },
  { weight: 4, arbitrary: fc.record({ who: agentWho, scope: scopeChoice }) },
);
const readOf = <K extends string, E extends object>(op: K, extra: fc.Arbitrary<E>) =>
  fc.tuple(reader, extra).map(([r, e]) => ({ op, ...r, ...e }) as { op: K } & Reader & E);

const write = fc.record({
  op: fc.constant('write' as const),
  who,
  visibility: fc.constantFrom<Visibility | 'default'>('default', 'workspace', 'agent_only', 'restricted', 'restricted', 'restricted'),
  copy: fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat({ max: 24 }) }),
});

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 5, arbitrary: write },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('legacy' as const), u: userIndex, w: workspaceIndex, a: fc.option(agentIndex, { freq: 3 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('patch' as const),
      by: fc.oneof(fc.constant({ kind: 'owner' as const }), agentWho), // non-owners more often than for grants: 403s
      memory: memoryRef,
      visibility: fc.constantFrom(...VISIBILITIES),
      aim: fc.boolean(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant('grant' as const), by: actor, memory: memoryRef, grantee: agentIndex, aim: fc.boolean() }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant('revoke' as const), by: actor, memory: memoryRef, grantee: agentIndex, aim: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('grants' as const), by: actor, memory: memoryRef }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), who, memory: memoryRef }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('edit' as const), by: fc.oneof(actor, userWho), memory: memoryRef }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('expire' as const),
      by: fc.oneof(actor, userWho),
      memory: memoryRef,
      restore: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: readOf(
      'history',
      memoryRef.map((memory) => ({ memory })),
    ),
  },
  {
    weight: 2,
    arbitrary: readOf(
      'list',
      fc.boolean().map((includeExpired) => ({ includeExpired })),
    ),
  },
  {
    weight: 2,
    arbitrary: readOf<'get', { memory: number; includeExpired: boolean }>(
      'get',
      fc.tuple(memoryRef, fc.boolean()).map(([memory, includeExpired]) => ({ memory, includeExpired })),
    ),
  },
  {
    weight: 1,
    arbitrary: readOf(
      'expand',
      fc.uniqueArray(memoryRef, { minLength: 1, maxLength: 6 }).map((memories) => ({ memories })),
    ),
  },
  { weight: 1, arbitrary: readOf('search', fc.constant({})) },
  { weight: 1, arbitrary: readOf('search/fast', fc.constant({})) },
);

const NUM_RUNS = 200;

export type Transport = 'parameters' | 'api keys';
const MIN_COMMANDS = 5;
const MAX_COMMANDS = 20;

/** 5 to 20 commands, the first one to three of them writes, so most commands have rows to act on. */
const sequence: fc.Arbitrary<Command[]> = fc
  .tuple(fc.array(write, { minLength: 1, maxLength: 3 }), fc.array(command, { minLength: MIN_COMMANDS - 1, maxLength: MAX_COMMANDS - 3 }))
  .map(([writes, rest]) => [...writes, ...rest]);

export function describeVisibilityProperty(transport: Transport, numRuns = NUM_RUNS): void {
  describe(`visibility, model-based, through ${transport}`, () => {
    let t: TestApp;
    /** Agent ids are shared by every sequence: tenants (fresh user ids) keep sequences apart. */
    const agents: string[] = Array.from({ length: AGENT_COUNT }, () => randomUUID());

    beforeAll(async () => {
      t = await createTestApp(transport === 'api keys' ? API_KEY_ENV : {});
    });
    afterAll(async () => {
      await t.close();
    });

    /** How often each mutation outcome (op and expected status) came up, over all sequences. */
    const outcomes: Record<string, number> = {};
    const tally = (outcome: string): void => {
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    };

    /** Interprets one command list against the app and the model; throws on the first disagreement. */
    async function runSequence(commands: Command[]): Promise<void> {
      const users = [newUser('prop-u0'), newUser('prop-u1')];
      const workspaces: string[] = [randomUUID(), randomUUID()];
      const model = new VisibilityModel();
      const known: string[] = []; // ids written in this sequence, in order
      const contents = new Map<string, string>();
      let fresh = 0;
      /** Content unlike any other of this sequence (distinct sentences), with the word every search looks for. */
      const freshContent = (kind: string): string => {
        const n = fresh++;
        return `${kind} ${n} (${SHARED_WORD}): ${DISTINCT_SENTENCES[n % DISTINCT_SENTENCES.length]}`;
      };
      const trace: string[] = [];

      const label = (id: string): string => {
        const i = known.indexOf(id);
        return i >= 0 ? `m${i}` : `unknown(${id.slice(0, 8)})`;
      };
      const labels = (ids: Iterable<string>): string => `[${[...ids].map(label).sort().join(', ') || '-'}]`;
      const describeRow = (row: ModelRow): string => {
        const u = `u${users.indexOf(row.userId)}`;
        const owner = row.agentId === null ? 'no-agent' : `a${agents.indexOf(row.agentId)}`;
        const where =
          row.workspaceId === null ? `${u}:user` : `${u}/w${workspaces.indexOf(row.workspaceId)}/${owner}:${row.visibility ?? 'legacy'}`;
        const grants = [...row.grants].map((g) => `a${agents.indexOf(g)}`).join(',');
        return `${label(row.id)}=${where}${grants ? `+grants(${grants})` : ''}${row.live ? '' : ':deleted'}`;
      };
      let stateBefore = '';
      const fail = (step: number, message: string): never => {
        throw new Error(`step ${step}: ${message}\nmodel before the step: ${stateBefore || '(empty)'}\ntrace:\n${trace.join('\n')}`);
      };
      const check = (step: number, what: string, actual: unknown, expected: unknown): void => {
        if (JSON.stringify(actual) !== JSON.stringify(expected)) {
          fail(step, `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
        }
      };

      const resolve = (memory: number): string => (memory < 0 || known.length === 0 ? randomUUID() : known[memory % known.length]);
      /** With aim, a live memory matching `wanted` (when there is one); else as resolve. */
      const resolveAimed = (memory: number, aim: boolean, wanted: (row: ModelRow) => boolean): string => {
        const aimed = [...model.rows.values()].filter((row) => row.live && wanted(row));
        return aim && aimed.length > 0 && memory >= 0 ? aimed[memory % aimed.length].id : resolve(memory);
      };
      const agentCaller = (w: AgentWho, agentScope: ModelAgentScope = { kind: 'all' }): Extract<ModelCaller, { kind: 'workspace' }> => ({
        kind: 'workspace',
        userId: users[w.u],
        workspaceId: workspaces[w.w],
        agentId: agents[w.a],
        agentScope,
      });
      const callerOf = (w: Who): ModelCaller => (w.kind === 'user' ? { kind: 'user', userId: users[w.u] } : agentCaller(w));
      /** The owner of a workspace row; for a user row or an unknown id, agent 0 of u0/w0 (which cannot see it). */
      const actorCaller = (a: Actor, id: string) => {
        if (a.kind === 'agent') return agentCaller(a);
        return ownerCaller(id);
      };
      /** A user caller for a user actor; otherwise as actorCaller. */
      const patchCaller = (a: Actor | UserWho, id: string): ModelCaller =>
        a.kind === 'user' ? { kind: 'user', userId: users[a.u] } : actorCaller(a, id);
      const ownerCaller = (id: string) => {
        const row = model.rows.get(id);
        if (row && row.workspaceId !== null && row.agentId !== null) {
          const owner = {
            kind: 'workspace',
            userId: row.userId,
            workspaceId: row.workspaceId,
            agentId: row.agentId,
            agentScope: { kind: 'all' },
          } as const;
          return owner;
        }
        return agentCaller({ kind: 'agent', u: 0, w: 0, a: 0 });
      };
      const wire = (c: ModelCaller): Record<string, string> =>
        transport === 'api keys'
          ? {}
          : c.kind === 'user'
            ? { user_id: c.userId }
            : { user_id: c.userId, workspace_id: c.workspaceId, agent_id: c.agentId };
      /** With API keys: the caller's own key (minted on first use), and no ids in the request. */
      const keys = new Map<string, string>();
      const auth = async (c: ModelCaller): Promise<Record<string, string>> => {
        if (transport === 'parameters') return {};
        const name = c.kind === 'user' ? c.userId : `${c.userId}/${c.workspaceId}/${c.agentId}`;
        let key = keys.get(name);
        if (!key) {
          const body =
            c.kind === 'user'
              ? { role: 'user', user_id: c.userId }
              : { role: 'agent', user_id: c.userId, workspace_id: c.workspaceId, agent_id: c.agentId };
          const res = await t.http().post('/v1/admin/keys').set(adminAuth).send(body);
          if (res.status !== 201) throw new Error(`key for ${name}: ${res.status}`);
          key = res.body.key as string;
          keys.set(name, key);
        }
        return { Authorization: `Bearer ${key}` };
      };

      /** A reader's model caller and the scope fields it sends. */
      const readerScope = (r: Reader): { caller: ModelCaller; fields: Record<string, unknown> } => {
        if (r.scope === null) return { caller: callerOf(r.who), fields: wire(callerOf(r.who)) };
        const s = r.scope;
        let agentScope: ModelAgentScope;
        let sent: unknown;
        switch (s.kind) {
          case 'absent':
            agentScope = { kind: 'all' };
            break;
          case 'all':
          case 'self':
          case 'others':
            agentScope = { kind: s.kind };
            sent = s.kind;
            break;
          case 'one':
            agentScope = { kind: 'agents', agentIds: [agents[s.a]] };
            sent = agents[s.a];
            break;
          case 'list':
            agentScope = { kind: 'agents', agentIds: s.as.map((a) => agents[a]) };
            sent = s.form === 'array' ? s.as.map((a) => agents[a]) : s.as.map((a) => agents[a]).join(',');
            break;
        }
        const caller = agentCaller(r.who, agentScope);
        return { caller, fields: { ...wire(caller), ...(sent === undefined ? {} : { agent_scope: sent }) } };
      };

      for (const [step, cmd] of commands.entries()) {
        const text = JSON.stringify(cmd);
        stateBefore = [...model.rows.values()].map(describeRow).join(' ');
        switch (cmd.op) {
          case 'write': {
            const caller = callerOf(cmd.who);
            const visibility = cmd.who.kind === 'agent' && cmd.visibility !== 'default' ? cmd.visibility : undefined;
            const original = cmd.copy === null || known.length === 0 ? undefined : known[cmd.copy % known.length];
            const conversation = original ? contents.get(original)! : freshContent('Note');
            // De-duplication compares only with rows the writer can see (CONTRACT sections 3 and 5).
            const duplicateOf = [...model.rows.values()].find((row) => contents.get(row.id) === conversation && isVisible(caller, row));
            const res = await t
              .http()
              .post('/v1/memories/ingest/quick')
              .set(await auth(caller))
              .send({
                ...wire(caller),
                ...(visibility ? { visibility } : {}),
                source_site: 'property-tests',
                skip_extraction: true,
                conversation,
              });
            check(step, `${text} status`, res.status, 200);
            if (duplicateOf) {
              tally('write skipped as duplicate');
              trace.push(`#${step} ${text} copying ${label(original!)} -> skipped (duplicate of ${label(duplicateOf.id)})`);
              const outcome = { stored: res.body.memories_stored, skipped: res.body.memories_skipped };
              check(step, `${text} copying ${label(original!)}, a duplicate of visible ${label(duplicateOf.id)}`, outcome, {
                stored: 0,
                skipped: 1,
              });
              break;
            }
            if (original) tally('write of a copy the writer cannot see');
            const copying = original ? ` copying ${label(original)} (not visible to the writer)` : '';
            check(step, `${text}${copying} stored rows`, res.body.stored_memory_ids?.length, 1);
            const id: string = res.body.stored_memory_ids[0];
            known.push(id);
            contents.set(id, conversation);
            model.add({
              id,
              userId: caller.userId,
              workspaceId: caller.kind === 'workspace' ? caller.workspaceId : null,
              agentId: caller.kind === 'workspace' ? caller.agentId : null,
              visibility: caller.kind === 'workspace' ? (visibility ?? 'workspace') : null,
            });
            trace.push(`#${step} ${text}${original ? ` copying ${label(original)}` : ''} -> ${label(id)}`);
            break;
          }
          case 'legacy': {
            const id = randomUUID();
            const content = freshContent('Legacy note');
            const [vector] = await t.app.get(EmbeddingService).embedDocuments([content]);
            const agentId = cmd.a === null ? null : agents[cmd.a];
            await t.dataSource.query(
              `INSERT INTO memories (id, user_id, workspace_id, agent_id, visibility, content, source_site, embedding)
             VALUES ($1, $2, $3, $4, NULL, $5, 'property-tests', CAST($6 AS vector))`,
              [id, users[cmd.u], workspaces[cmd.w], agentId, content, `[${vector.join(',')}]`],
            );
            known.push(id);
            contents.set(id, content);
            // Written with SQL as older releases did: no version rows (versions 0), as for rows that predate history.
            model.add({ id, userId: users[cmd.u], workspaceId: workspaces[cmd.w], agentId, visibility: null, versions: 0 });
            trace.push(`#${step} ${text} -> ${label(id)}`);
            break;
          }
          case 'patch': {
            const id = resolveAimed(cmd.memory, cmd.aim, (r) => r.grants.size > 0);
            const caller = actorCaller(cmd.by, id);
            const hadGrants = (model.rows.get(id)?.grants.size ?? 0) > 0;
            const expected = model.changeVisibility(caller, id, cmd.visibility);
            if (expected === 200 && hadGrants && cmd.visibility !== 'restricted') tally('patch 200 dropping grants');
            const res = await t
              .http()
              .patch(`/v1/memories/${id}`)
              .set(await auth(caller))
              .send({ ...wire(caller), visibility: cmd.visibility });
            trace.push(`#${step} ${text} on ${label(id)} -> ${res.status} (model ${expected})`);
            tally(`patch ${expected}`);
            if (res.status !== expected) fail(step, `PATCH status: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)}`);
            if (expected === 200)
              check(step, `${text} body`, { id: res.body.id, visibility: res.body.visibility }, { id, visibility: cmd.visibility });
            break;
          }
          case 'grant':
          case 'revoke': {
            const id = resolveAimed(cmd.memory, cmd.aim, (r) => (cmd.op === 'grant' ? r.visibility === 'restricted' : r.grants.size > 0));
            const caller = actorCaller(cmd.by, id);
            const grants = [...(model.rows.get(id)?.grants ?? [])].sort();
            const grantee = cmd.op === 'revoke' && cmd.aim && grants.length > 0 ? grants[cmd.grantee % grants.length] : agents[cmd.grantee];
            const expected = cmd.op === 'grant' ? model.grant(caller, id, grantee) : model.revoke(caller, id, grantee);
            const res =
              cmd.op === 'grant'
                ? await t
                    .http()
                    .post(`/v1/memories/${id}/grants`)
                    .set(await auth(caller))
                    .send({ ...wire(caller), grantee_agent_id: grantee })
                : await t
                    .http()
                    .delete(`/v1/memories/${id}/grants/${grantee}`)
                    .set(await auth(caller))
                    .query(wire(caller));
            trace.push(`#${step} ${text} on ${label(id)} -> ${res.status} (model ${expected})`);
            tally(`${cmd.op} ${expected}`);
            if (res.status !== expected)
              fail(step, `${cmd.op} status: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)}`);
            break;
          }
          case 'grants': {
            const id = resolveAimed(cmd.memory, true, (r) => r.visibility === 'restricted' || r.grants.size > 0);
            const caller = actorCaller(cmd.by, id);
            const expected = model.listGrants(caller, id);
            const res = await t
              .http()
              .get(`/v1/memories/${id}/grants`)
              .set(await auth(caller))
              .query(wire(caller));
            trace.push(`#${step} ${text} on ${label(id)} -> ${res.status} (model ${expected.status})`);
            tally(`list grants ${expected.status}`);
            if (res.status !== expected.status)
              fail(step, `list grants status: expected ${expected.status}, got ${res.status} ${JSON.stringify(res.body)}`);
            if (expected.status === 200) {
              const grantees = (res.body.grants as { grantee_agent_id: string }[]).map((g) => g.grantee_agent_id).sort();
              check(step, `${text} grantees`, grantees, expected.grantees);
              check(step, `${text} count`, res.body.count, expected.grantees.length);
            }
            break;
          }
          case 'delete': {
            const id = resolve(cmd.memory);
            const caller = callerOf(cmd.who);
            const expected = model.delete(caller, id);
            tally(`delete ${expected}`);
            const res = await t
              .http()
              .delete(`/v1/memories/${id}`)
              .set(await auth(caller))
              .query(wire(caller));
            trace.push(`#${step} ${text} on ${label(id)} -> ${res.status} (model ${expected})`);
            if (res.status !== expected) fail(step, `delete status: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)}`);
            if (expected === 200) check(step, `${text} body`, res.body, { success: true });
            break;
          }
          case 'edit': {
            const id = resolve(cmd.memory);
            const caller = patchCaller(cmd.by, id);
            const expected = model.edit(caller, id);
            const content = freshContent('Edited note');
            const res = await t
              .http()
              .patch(`/v1/memories/${id}`)
              .set(await auth(caller))
              .send({ ...wire(caller), content });
            trace.push(`#${step} ${text} on ${label(id)} -> ${res.status} (model ${expected})`);
            tally(`edit ${expected}`);
            if (res.status !== expected) fail(step, `edit status: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)}`);
            if (expected === 200) {
              contents.set(id, content);
              check(step, `${text} body`, { id: res.body.id, content: res.body.content }, { id, content });
            } else check(step, `${text} body`, Object.keys(res.body), ['error']);
            break;
          }
          case 'expire': {
            const id = resolve(cmd.memory);
            const caller = patchCaller(cmd.by, id);
            const expected = model.setExpiry(caller, id, !cmd.restore);
            const res = await t
              .http()
              .patch(`/v1/memories/${id}`)
              .set(await auth(caller))
              .send({ ...wire(caller), expires_at: cmd.restore ? null : '2020-01-01T00:00:00Z' });
            trace.push(`#${step} ${text} on ${label(id)} -> ${res.status} (model ${expected})`);
            tally(`${cmd.restore ? 'restore' : 'expire'} ${expected}`);
            if (res.status !== expected) fail(step, `expire status: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)}`);
            if (expected === 200) check(step, `${text} expires_at`, res.body.expires_at, cmd.restore ? null : '2020-01-01T00:00:00.000Z');
            break;
          }
          case 'history': {
            const { caller, fields } = readerScope(cmd);
            const id = resolve(cmd.memory);
            const row = model.rows.get(id);
            const expected = historyVisible(caller, row) ? 200 : 404;
            const res = await t
              .http()
              .get(`/v1/memories/${id}/history`)
              .set(await auth(caller))
              .query(fields);
            trace.push(`#${step} ${text} on ${label(id)} -> ${res.status} (model ${expected})`);
            tally(`history ${expected}`);
            check(step, `${text} on ${label(id)} status`, res.status, expected);
            if (expected === 404) check(step, `${text} body`, res.body, { error: 'Memory not found' });
            else {
              check(step, `${text} count`, res.body.count, row!.versions);
              const versions = (res.body.versions as { version: number }[]).map((v) => v.version);
              check(
                step,
                `${text} oldest first`,
                versions,
                [...versions].sort((a, b) => a - b),
              );
            }
            break;
          }
          case 'list': {
            const { caller, fields } = readerScope(cmd);
            const visible = new Set(model.visible(caller, cmd.includeExpired).map((r) => r.id));
            const res = await t
              .http()
              .get('/v1/memories/list')
              .set(await auth(caller))
              .query({ ...fields, limit: 100, ...(cmd.includeExpired ? { include_expired: 'true' } : {}) });
            const got: string[] = res.body.memories?.map((m: { id: string }) => m.id) ?? [];
            trace.push(`#${step} ${text} -> ${res.status} ${labels(got)}`);
            check(step, `${text} status`, res.status, 200);
            check(step, `${text} ids`, labels(got), labels(visible));
            check(step, `${text} count`, got.length, visible.size);
            break;
          }
          case 'get': {
            const { caller, fields } = readerScope(cmd);
            const id = resolve(cmd.memory);
            const row = model.rows.get(id);
            const expected = row && model.visible(caller, cmd.includeExpired).includes(row) ? 200 : 404;
            const res = await t
              .http()
              .get(`/v1/memories/${id}`)
              .set(await auth(caller))
              .query({ ...fields, ...(cmd.includeExpired ? { include_expired: 'true' } : {}) });
            trace.push(`#${step} ${text} on ${label(id)} -> ${res.status}`);
            check(step, `${text} on ${label(id)} status`, res.status, expected);
            if (expected === 200) check(step, `${text} id`, res.body.id, id);
            else check(step, `${text} body`, res.body, { error: 'Memory not found' });
            break;
          }
          case 'expand': {
            const { caller, fields } = readerScope(cmd);
            const asked = [...new Set([...cmd.memories.map(resolve), randomUUID()])];
            const visible = new Set(model.visible(caller).map((r) => r.id));
            const res = await t
              .http()
              .post('/v1/memories/expand')
              .set(await auth(caller))
              .send({ ...fields, memory_ids: asked });
            const got: string[] = res.body.memories?.map((m: { id: string }) => m.id) ?? [];
            trace.push(`#${step} ${text} asked ${labels(asked)} -> ${res.status} ${labels(got)}`);
            check(step, `${text} status`, res.status, 200);
            // exactly the visible ones, in the order asked
            check(step, `${text} ids`, got.map(label), asked.filter((id) => visible.has(id)).map(label));
            break;
          }
          case 'search':
          case 'search/fast': {
            const { caller, fields } = readerScope(cmd);
            const visible = new Set(model.visible(caller).map((r) => r.id));
            const limit = 100;
            const res = await t
              .http()
              .post(`/v1/memories/${cmd.op}`)
              .set(await auth(caller))
              .send({ ...fields, query: SHARED_WORD, limit });
            const got: string[] = res.body.memories?.map((m: { id: string }) => m.id) ?? [];
            trace.push(`#${step} ${text} -> ${res.status} ${labels(got)}`);
            check(step, `${text} status`, res.status, 200);
            const leaked = got.filter((id) => !visible.has(id));
            if (leaked.length) fail(step, `${text} returned invisible rows ${labels(leaked)}; visible ${labels(visible)}`);
            check(step, `${text} count`, got.length, Math.min(limit, visible.size));
            check(step, `${text} distinct`, new Set(got).size, got.length);
            break;
          }
        }
      }
    }

    it('every read returns exactly the visible rows and every mutation answers the model status', async () => {
      const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
      const path = process.env.FC_PATH;
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(sequence, async (commands) => {
          await runSequence(commands);
        }),
        { numRuns, ...(seed === undefined ? {} : { seed }), ...(path === undefined ? {} : { path }) },
      );
      // Keeps an eye on the time budget and on what the generator actually exercised.
      const seen = Object.entries(outcomes)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, n]) => `${k}: ${n}`);
      process.stdout.write(
        `visibility property (${transport}): ${numRuns} sequences in ${((Date.now() - started) / 1000).toFixed(1)} s; mutation outcomes ${seen.join(', ')}\n`,
      );
      // A generator that stopped reaching these would make the property vacuous. The rarest (history 200, expire 200) are
      // seen about ten times per run of 120 sequences since their weights were raised (with weight 1, history 200 came
      // up 4 times in one run and 0 in another, failing this check by chance).
      const expectedOutcomes = [
        'grant 201',
        'grant 409',
        'grant 404',
        'revoke 404',
        'patch 200',
        'patch 404',
        'delete 200',
        'delete 404',
        'edit 200',
        'edit 404',
        'expire 200',
        'history 200',
        'history 404',
        'write skipped as duplicate',
        'write of a copy the writer cannot see',
      ];
      for (const outcome of expectedOutcomes) {
        expect({ outcome, seen: (outcomes[outcome] ?? 0) > 0 }).toEqual({ outcome, seen: true });
      }
    }, 600_000);
  });
}
