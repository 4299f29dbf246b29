import { randomUUID } from 'node:crypto';

import { EmbeddingService } from '../../src/embeddings/embedding.service';
import { newUser } from './ids';
import type { Visibility } from './model-visibility';
import type { TestApp } from './test-app';

/**
 * The isolation world (STYLE rule 10): marker rows in three tenants, two workspaces and four
 * agents, seeded through the real HTTP API (ingest/quick, grants, delete) except for what the API
 * cannot write (legacy NULL-visibility rows, a superseded row), which goes in with SQL.
 *
 *   user A  user scope                    A.user, A.user.deleted
 *   user A  W1  agents X, Y, Z (O owns nothing)
 *   user A  W2  agents X, Y
 *   user B  user scope                    B.user
 *   user C  user scope, and W1 again with the SAME workspace and agent ids as user A's W1
 */
export type Tenant = 'A' | 'B' | 'C';
export type WorkspaceName = 'W1' | 'W2';
export type AgentName = 'X' | 'Y' | 'Z' | 'O';

export interface MarkerSpec {
  tenant: Tenant;
  workspace: WorkspaceName | null;
  agent: AgentName | null;
  /** null in a workspace: a legacy row (inserted with SQL). */
  visibility: Visibility | null;
  grantedTo?: AgentName[];
  /** deleted: through DELETE by its owner; expired: superseded (superseded_at set with SQL). */
  state?: 'deleted' | 'expired';
}

export const MARKERS = {
  'A.user': { tenant: 'A', workspace: null, agent: null, visibility: null },
  'A.user.deleted': { tenant: 'A', workspace: null, agent: null, visibility: null, state: 'deleted' },
  'B.user': { tenant: 'B', workspace: null, agent: null, visibility: null },
  'C.user': { tenant: 'C', workspace: null, agent: null, visibility: null },

  'W1.X.workspace': { tenant: 'A', workspace: 'W1', agent: 'X', visibility: 'workspace' },
  'W1.X.agent_only': { tenant: 'A', workspace: 'W1', agent: 'X', visibility: 'agent_only' },
  'W1.X.restricted.grantY': { tenant: 'A', workspace: 'W1', agent: 'X', visibility: 'restricted', grantedTo: ['Y'] },
  'W1.X.restricted': { tenant: 'A', workspace: 'W1', agent: 'X', visibility: 'restricted' },
  'W1.X.deleted': { tenant: 'A', workspace: 'W1', agent: 'X', visibility: 'workspace', state: 'deleted' },
  'W1.Y.workspace': { tenant: 'A', workspace: 'W1', agent: 'Y', visibility: 'workspace' },
  'W1.Y.agent_only': { tenant: 'A', workspace: 'W1', agent: 'Y', visibility: 'agent_only' },
  'W1.Y.restricted': { tenant: 'A', workspace: 'W1', agent: 'Y', visibility: 'restricted' },
  'W1.Y.expired': { tenant: 'A', workspace: 'W1', agent: 'Y', visibility: 'workspace', state: 'expired' },
  'W1.Z.workspace': { tenant: 'A', workspace: 'W1', agent: 'Z', visibility: 'workspace' },
  'W1.Z.agent_only': { tenant: 'A', workspace: 'W1', agent: 'Z', visibility: 'agent_only' },
  'W1.Z.legacy': { tenant: 'A', workspace: 'W1', agent: 'Z', visibility: null },
  'W1.legacy': { tenant: 'A', workspace: 'W1', agent: null, visibility: null },

  'W2.X.workspace': { tenant: 'A', workspace: 'W2', agent: 'X', visibility: 'workspace' },
  'W2.X.agent_only': { tenant: 'A', workspace: 'W2', agent: 'X', visibility: 'agent_only' },
  'W2.Y.agent_only': { tenant: 'A', workspace: 'W2', agent: 'Y', visibility: 'agent_only' },

  'C.W1.X.workspace': { tenant: 'C', workspace: 'W1', agent: 'X', visibility: 'workspace' },
  'C.W1.X.agent_only': { tenant: 'C', workspace: 'W1', agent: 'X', visibility: 'agent_only' },
  'C.W1.Y.agent_only': { tenant: 'C', workspace: 'W1', agent: 'Y', visibility: 'agent_only' },
  'C.W1.Y.restricted.grantX': { tenant: 'C', workspace: 'W1', agent: 'Y', visibility: 'restricted', grantedTo: ['X'] },
} as const satisfies Record<string, MarkerSpec>;

export type MarkerName = keyof typeof MARKERS;
export const MARKER_NAMES = Object.keys(MARKERS) as MarkerName[];

/** One word every marker's content contains, so a search for it can reach every row. */
export const SHARED_WORD = 'zeppelin';

/**
 * Distinct sentences (no two near-duplicates under the lexical hash embeddings), so ingest's
 * de-duplication (cosine >= 0.95 with a row the writer sees) never swallows a seeded memory.
 */
export const DISTINCT_SENTENCES: readonly string[] = [
  'the quarterly budget review happens every second Thursday in the large meeting room',
  'my grandmother grows tomatoes and basil on her balcony in Naples',
  'the staging cluster uses three nodes with sixteen gigabytes of memory each',
  'our cat refuses to eat anything except salmon flavoured biscuits',
  'the release checklist requires two approvals and a green nightly build',
  'I usually cycle to work along the river unless it is raining heavily',
  'the invoice template lives in the finance shared drive under archive',
  'the customer prefers phone calls before noon on weekdays only',
  'production database backups are kept for thirty five days offsite',
  'the team lunch moved from Wednesdays to Fridays after the office change',
  'the violin lessons start again in September with a new teacher',
  'the api gateway rate limit is nine hundred requests per minute',
  'my passport expires in March so renewal must start in January',
  'the design system uses an eight pixel grid and rounded corners',
  'our dentist closed the downtown clinic and moved to the harbour',
  'the legacy importer still parses fixed width files from the mainframe',
  'holiday photos are stored on the external disk labelled blue',
  'the on call rotation swaps every Monday morning at nine',
  'the vegetable box arrives on Tuesdays and contains mostly root vegetables',
  'the search index is rebuilt nightly after the catalogue export',
  'the marathon training plan peaks at thirty two kilometres',
  'the board meeting minutes are signed by the secretary within a week',
  'the laptop warranty covers accidental damage until next autumn',
  'our podcast episodes are recorded in the small studio upstairs',
  'the greenhouse heater switches on below four degrees',
];

export interface IsolationWorld {
  users: Record<Tenant, string>;
  workspaces: Record<WorkspaceName, string>;
  agents: Record<AgentName, string>;
  ids: Record<MarkerName, string>;
  nameOf(id: string): string;
}

const contentOf = (name: string, i: number): string => `Marker ${name.replace(/\./g, '-')}: ${DISTINCT_SENTENCES[i]} (${SHARED_WORD})`;

export async function seedIsolation(t: TestApp): Promise<IsolationWorld> {
  const users: Record<Tenant, string> = { A: newUser('iso-a'), B: newUser('iso-b'), C: newUser('iso-c') };
  const workspaces: Record<WorkspaceName, string> = { W1: randomUUID(), W2: randomUUID() };
  const agents: Record<AgentName, string> = { X: randomUUID(), Y: randomUUID(), Z: randomUUID(), O: randomUUID() };
  const ids = {} as Record<MarkerName, string>;

  const scopeOf = (spec: MarkerSpec) =>
    spec.workspace === null
      ? { user_id: users[spec.tenant] }
      : { user_id: users[spec.tenant], workspace_id: workspaces[spec.workspace], agent_id: agents[spec.agent as AgentName] };

  const expectStatus = (what: string, res: { status: number; body: unknown }, status: number) => {
    if (res.status !== status) throw new Error(`seeding: ${what} answered ${res.status} ${JSON.stringify(res.body)}`);
  };

  // 1. Everything the API can write, through the API.
  const viaSql: MarkerName[] = [];
  for (const [i, name] of MARKER_NAMES.entries()) {
    const spec: MarkerSpec = MARKERS[name];
    if (spec.workspace !== null && spec.visibility === null) {
      viaSql.push(name);
      continue;
    }
    const res = await t
      .http()
      .post('/v1/memories/ingest/quick')
      .send({
        ...scopeOf(spec),
        ...(spec.visibility ? { visibility: spec.visibility } : {}),
        source_site: 'isolation-tests',
        skip_extraction: true,
        conversation: contentOf(name, i),
      });
    expectStatus(`ingest of ${name}`, res, 200);
    if (res.body.stored_memory_ids?.length !== 1) throw new Error(`seeding: ${name} was not stored: ${JSON.stringify(res.body)}`);
    ids[name] = res.body.stored_memory_ids[0];
  }

  // 2. Legacy rows (NULL visibility) cannot be written through the API any more.
  const embeddings = t.app.get(EmbeddingService);
  for (const name of viaSql) {
    const spec: MarkerSpec = MARKERS[name];
    const id = randomUUID();
    const content = contentOf(name, MARKER_NAMES.indexOf(name));
    // a real embedding of the content (EMBEDDING_DIMENSIONS numbers), so search treats it like any row
    const [vector] = await embeddings.embedDocuments([content]);
    const owner = spec.agent ? agents[spec.agent] : null;
    await t.dataSource.query(
      `INSERT INTO memories (id, user_id, workspace_id, agent_id, visibility, content, source_site, embedding)
       VALUES ($1, $2, $3, $4, NULL, $5, 'isolation-tests', CAST($6 AS vector))`,
      [id, users[spec.tenant], workspaces[spec.workspace as WorkspaceName], owner, content, `[${vector.join(',')}]`],
    );
    ids[name] = id;
  }

  // 3. Grants, deletes and supersession, each by the owner.
  for (const name of MARKER_NAMES) {
    const spec: MarkerSpec = MARKERS[name];
    for (const grantee of spec.grantedTo ?? []) {
      const res = await t
        .http()
        .post(`/v1/memories/${ids[name]}/grants`)
        .send({ ...scopeOf(spec), grantee_agent_id: agents[grantee] });
      expectStatus(`grant of ${name} to ${grantee}`, res, 201);
    }
    if (spec.state === 'deleted') {
      const res = await t.http().delete(`/v1/memories/${ids[name]}`).query(scopeOf(spec));
      expectStatus(`delete of ${name}`, res, 200);
    }
    if (spec.state === 'expired') {
      await t.dataSource.query('UPDATE memories SET superseded_at = now() WHERE id = $1', [ids[name]]);
    }
  }

  const names = new Map(MARKER_NAMES.map((name) => [ids[name], name as string]));
  return { users, workspaces, agents, ids, nameOf: (id) => names.get(id.toLowerCase()) ?? `unknown:${id}` };
}
