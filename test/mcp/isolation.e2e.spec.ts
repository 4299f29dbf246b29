import type { AddressInfo } from 'node:net';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { isVisible, type ModelAgentScope, type ModelCaller, type ModelRow } from '../support/model-visibility';
import {
  MARKER_NAMES,
  MARKERS,
  seedIsolation,
  SHARED_WORD,
  type AgentName,
  type IsolationWorld,
  type MarkerName,
  type MarkerSpec,
  type Tenant,
  type WorkspaceName,
} from '../support/seed-isolation';
import { createTestApp, type TestApp } from '../support/test-app';
import { call, connectMcp, structured, textOf } from './mcp-client';

/**
 * Isolation through MCP (issue 22): every tool, for every caller of the isolation world
 * (test/support/seed-isolation.ts), against the reference model of who sees what
 * (test/support/model-visibility.ts). The caller is fixed by the connection's headers; a tool
 * argument naming another user, workspace or agent is refused and nothing runs.
 */
interface CallerSpec {
  tenant: Tenant;
  workspace?: WorkspaceName;
  agent?: AgentName;
}

const CALLERS = {
  'user A': { tenant: 'A' },
  'user B': { tenant: 'B' },
  'A/W1 agent X': { tenant: 'A', workspace: 'W1', agent: 'X' },
  'A/W1 agent Y': { tenant: 'A', workspace: 'W1', agent: 'Y' },
  'A/W1 agent Z': { tenant: 'A', workspace: 'W1', agent: 'Z' },
  'A/W1 outsider agent O': { tenant: 'A', workspace: 'W1', agent: 'O' },
  'A/W2 agent X': { tenant: 'A', workspace: 'W2', agent: 'X' },
  "user C's W1 agent X": { tenant: 'C', workspace: 'W1', agent: 'X' },
} as const satisfies Record<string, CallerSpec>;
type CallerName = keyof typeof CALLERS;
const CALLER_NAMES = Object.keys(CALLERS) as CallerName[];

const AGENT_SCOPES = ['all', 'self', 'others', 'id of Y', 'ids of X,Z'] as const;
type AgentScopeName = (typeof AGENT_SCOPES)[number];

function modelScope(name: AgentScopeName): ModelAgentScope {
  if (name === 'id of Y') return { kind: 'agents', agentIds: ['Y'] };
  if (name === 'ids of X,Z') return { kind: 'agents', agentIds: ['X', 'Z'] };
  return { kind: name };
}

function modelCaller(caller: CallerName, agentScope: AgentScopeName = 'all'): ModelCaller {
  const spec: CallerSpec = CALLERS[caller];
  if (!spec.workspace) return { kind: 'user', userId: spec.tenant };
  return {
    kind: 'workspace',
    userId: spec.tenant,
    workspaceId: spec.workspace,
    agentId: spec.agent as string,
    agentScope: modelScope(agentScope),
  };
}

function modelRow(name: MarkerName): ModelRow {
  const spec: MarkerSpec = MARKERS[name];
  return {
    id: name,
    userId: spec.tenant,
    workspaceId: spec.workspace,
    agentId: spec.agent,
    visibility: spec.visibility,
    grants: new Set(spec.grantedTo ?? []),
    live: spec.state === undefined,
    expired: false,
    versions: 1,
  };
}

const expectedFor = (caller: CallerName, agentScope: AgentScopeName = 'all'): string[] =>
  MARKER_NAMES.filter((name) => isVisible(modelCaller(caller, agentScope), modelRow(name))).sort();

describe('isolation through MCP', () => {
  let t: TestApp;
  let world: IsolationWorld;
  const clients = new Map<CallerName, Client>();

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    world = await seedIsolation(t);
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    for (const caller of CALLER_NAMES) clients.set(caller, await connectMcp(`http://127.0.0.1:${port}`, headersOf(caller)));
  });
  afterAll(async () => {
    for (const client of clients.values()) await client.close();
    await t.close();
  });

  function headersOf(caller: CallerName): Record<string, string> {
    const spec: CallerSpec = CALLERS[caller];
    const headers: Record<string, string> = { 'X-Atrium-User-Id': world.users[spec.tenant] };
    if (spec.workspace) {
      headers['X-Atrium-Workspace-Id'] = world.workspaces[spec.workspace];
      headers['X-Atrium-Agent-Id'] = world.agents[spec.agent as AgentName];
    }
    return headers;
  }

  const client = (caller: CallerName): Client => clients.get(caller) as Client;
  const namesOf = (memories: { id: string }[]): string[] => memories.map((m) => world.nameOf(m.id)).sort();

  function agentScopeArg(name: AgentScopeName): unknown {
    if (name === 'id of Y') return world.agents.Y;
    if (name === 'ids of X,Z') return [world.agents.X.toUpperCase(), world.agents.Z];
    return name;
  }

  it.each(CALLER_NAMES)('list_memories shows %s exactly what the model allows', async (caller) => {
    const page = structured<{ memories: { id: string }[] }>(await call(client(caller), 'list_memories', { limit: 100 }));
    expect(namesOf(page.memories)).toEqual(expectedFor(caller));
  });

  it.each(
    CALLER_NAMES.flatMap((caller) =>
      (CALLERS[caller] as CallerSpec).workspace ? AGENT_SCOPES.map((s) => [caller, s] as const) : [[caller, 'all'] as const],
    ),
  )('recall shows %s with agent_scope %s exactly what the model allows', async (caller, agentScope) => {
    const args: Record<string, unknown> = { query: SHARED_WORD, limit: 100 };
    if ((CALLERS[caller] as CallerSpec).workspace) args.agent_scope = agentScopeArg(agentScope);
    const found = structured<{ memories: { id: string }[] }>(await call(client(caller), 'recall', args));
    expect(namesOf(found.memories)).toEqual(expectedFor(caller, agentScope));
  });

  it.each(CALLER_NAMES)(
    'get_memory answers %s for a marker exactly when the model shows it, and forget never reaches an invisible one',
    async (caller) => {
      const visible = new Set(expectedFor(caller));
      for (const name of MARKER_NAMES) {
        const got = await call(client(caller), 'get_memory', { id: world.ids[name] });
        if (visible.has(name)) expect(structured<{ id: string }>(got).id).toBe(world.ids[name]);
        else expect({ name, isError: got.isError, text: textOf(got) }).toEqual({ name, isError: true, text: 'memory not found' });
      }
      for (const name of MARKER_NAMES.filter((n) => !visible.has(n))) {
        const forgot = await call(client(caller), 'forget', { id: world.ids[name] });
        expect({ name, isError: forgot.isError, text: textOf(forgot) }).toEqual({ name, isError: true, text: 'memory not found' });
      }
      // nothing invisible was deleted: the world is as seeded
      const live = await t.dataSource.query('SELECT count(*)::int AS n FROM memories WHERE id = ANY($1) AND deleted_at IS NULL', [
        MARKER_NAMES.filter((n) => (MARKERS[n] as MarkerSpec).state !== 'deleted').map((n) => world.ids[n]),
      ]);
      expect(live[0].n).toBe(MARKER_NAMES.filter((n) => (MARKERS[n] as MarkerSpec).state !== 'deleted').length);
    },
  );

  it.each(CALLER_NAMES)('refuses identity arguments on every tool for %s, naming them, and runs nothing', async (caller) => {
    const elsewhere = { user_id: world.users.B, workspace_id: world.workspaces.W2, agent_id: world.agents.Y };
    const calls: [string, Record<string, unknown>][] = [
      ['remember', { content: 'planted by argument' }],
      ['recall', { query: SHARED_WORD }],
      ['get_memory', { id: world.ids['W1.Y.agent_only'] }],
      ['list_memories', {}],
      ['forget', { id: world.ids['W1.Y.agent_only'] }],
      ['report_lesson', { pattern: 'planted lesson' }],
    ];
    const before = await t.dataSource.query('SELECT (SELECT count(*) FROM memories)::int AS m, (SELECT count(*) FROM lessons)::int AS l');
    for (const [tool, args] of calls) {
      for (const [field, value] of Object.entries(elsewhere)) {
        const res = await call(client(caller), tool, { ...args, [field]: value });
        expect(res.isError).toBe(true);
        expect(textOf(res)).toContain(`unknown argument ${field}`);
      }
    }
    const after = await t.dataSource.query('SELECT (SELECT count(*) FROM memories)::int AS m, (SELECT count(*) FROM lessons)::int AS l');
    expect(after).toEqual(before);
  });

  it.each(CALLER_NAMES)('writes what %s remembers and reports under its own identity only', async (caller) => {
    const spec: CallerSpec = CALLERS[caller];
    const content = `A note written over MCP by ${caller} about the ${SHARED_WORD} hangar number ${CALLER_NAMES.indexOf(caller)}`;
    const stored = structured<{ stored_memory_ids: string[] }>(
      await call(client(caller), 'remember', { content, visibility: spec.workspace ? 'agent_only' : undefined }),
    );
    const [row] = await t.dataSource.query('SELECT user_id, workspace_id, agent_id, visibility FROM memories WHERE id = $1', [
      stored.stored_memory_ids[0],
    ]);
    expect(row).toEqual({
      user_id: world.users[spec.tenant],
      workspace_id: spec.workspace ? world.workspaces[spec.workspace] : null,
      agent_id: spec.agent ? world.agents[spec.agent] : null,
      visibility: spec.workspace ? 'agent_only' : null,
    });
    const lesson = structured<{ lesson_id: string }>(
      await call(client(caller), 'report_lesson', { pattern: `lesson of ${caller}`, severity: 'low' }),
    );
    const [owner] = await t.dataSource.query('SELECT user_id FROM lessons WHERE id = $1', [lesson.lesson_id]);
    expect(owner.user_id).toBe(world.users[spec.tenant]);
    // an agent_only note of this caller is seen by itself and no other caller
    for (const other of CALLER_NAMES) {
      const got = await call(client(other), 'get_memory', { id: stored.stored_memory_ids[0] });
      const same = other === caller;
      const sameUserScope =
        !spec.workspace && !(CALLERS[other] as CallerSpec).workspace && (CALLERS[other] as CallerSpec).tenant === spec.tenant;
      expect({ other, seen: !got.isError }).toEqual({ other, seen: same || sameUserScope });
    }
    expect(structured(await call(client(caller), 'forget', { id: stored.stored_memory_ids[0] }))).toEqual({ success: true });
  });
});
