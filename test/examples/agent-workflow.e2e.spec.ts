import type { AddressInfo } from 'node:net';

import { runWorkflow } from '../../examples/agent-workflow';
import { createTestApp, type TestApp } from '../support/test-app';

/** The workflow example of docs/api.md, run against the real server so it cannot rot. */
describe('examples/agent-workflow.ts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows visibility, a grant and a lesson the way docs/api.md describes', async () => {
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const lines: string[] = [];
    const result = await runWorkflow(`http://127.0.0.1:${port}`, (line) => lines.push(line));
    expect(result).toEqual({ before: 1, after: 2, own: 3, blockedSafe: false, blockedCount: 0, againSafe: true });
    expect(lines).toHaveLength(6);
  });
});
