import type { TestApp } from './test-app';

/** Who writes: a user, and in a workspace the agent that writes there. */
export interface Writer {
  user: string;
  workspace?: string;
  agent?: string;
}

/**
 * One memory written through POST /v1/memories/ingest/quick with extraction skipped, so the
 * text is stored as it is; fails the test unless exactly one memory was stored. Returns its id.
 */
export async function quickIngest(t: TestApp, writer: Writer, text: string, visibility?: string): Promise<string> {
  const res = await t
    .http()
    .post('/v1/memories/ingest/quick')
    .send({
      user_id: writer.user,
      ...(writer.workspace ? { workspace_id: writer.workspace, agent_id: writer.agent } : {}),
      source_site: 'test',
      conversation: text,
      skip_extraction: true,
      ...(visibility ? { visibility } : {}),
    });
  expect(res.status).toBe(200);
  expect(res.body.stored_memory_ids).toHaveLength(1);
  return res.body.stored_memory_ids[0] as string;
}
