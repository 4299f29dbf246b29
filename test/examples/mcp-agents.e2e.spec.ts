import { runMcpAgents } from '../../examples/mcp-agents';
import { startListeningApp, type ListeningApp } from '../client/listening-app';

/** The MCP example of docs/mcp.md, run against the real server so it cannot rot. */
describe('examples/mcp-agents.ts', () => {
  let app: ListeningApp;
  beforeAll(async () => {
    app = await startListeningApp();
  });
  afterAll(async () => {
    await app.t.close();
  });

  it('shows two agents sharing memory over MCP the way docs/mcp.md describes', async () => {
    const lines: string[] = [];
    const result = await runMcpAgents(app.baseUrl, (line) => lines.push(line));
    expect(result).toEqual({ tools: 6, recalled: ['The offsite is in Porto on 12 March'], claimedRefused: true, injectionRefused: true });
    expect(lines[0]).toBe('tools: remember, recall, get_memory, list_memories, forget, report_lesson');
    expect(lines).toHaveLength(5);
  });
});
