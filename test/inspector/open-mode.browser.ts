import type { Page } from 'playwright-core';

import { ADMIN_TOKEN } from '../support/api-keys';
import { newId, newUser } from '../support/ids';
import { launchBrowser, listedIds, shoot, signIn, type Browser } from './browser';
import { startLoggedApp, type LoggedApp } from './logged-app';

type Json = Record<string, unknown>;

/**
 * The inspector in AUTH_MODE=off: no API key, the operator types the scope; the admin token
 * still opens the admin pages; the runtime config is editable because this service allows it.
 */
describe('memory inspector in AUTH_MODE=off', () => {
  let t: LoggedApp;
  let browser: Browser;
  const user = newUser('typed');
  const ws = newId();
  const owner = newId();
  const reader = newId();
  const m: Record<string, string> = {};

  const api = async (method: string, path: string, body?: Json): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${t.baseUrl}${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const store = async (scope: Json, conversation: string): Promise<string> => {
    const res = await api('POST', '/v1/memories/ingest/quick', {
      user_id: user,
      conversation,
      source_site: 'tests',
      skip_extraction: true,
      ...scope,
    });
    const ids = res.body.stored_memory_ids as string[] | undefined;
    if (res.status !== 200 || ids?.length !== 1) throw new Error(`store: ${res.status} ${JSON.stringify(res.body)}`);
    return ids[0];
  };

  beforeAll(async () => {
    t = await startLoggedApp({ AUTH_MODE: 'off', ATRIUM_ADMIN_TOKEN: ADMIN_TOKEN, CORE_RUNTIME_CONFIG_MUTATION_ENABLED: 'true' });
    browser = await launchBrowser(t.baseUrl);
    const inWs = (agent: string, visibility: string) => ({ workspace_id: ws, agent_id: agent, visibility });
    m.shared = await store(inWs(owner, 'workspace'), 'The deploy checklist is in the wiki');
    m.private = await store(inWs(owner, 'agent_only'), 'Scratch: rewrite the deploy script');
    m.granted = await store(inWs(owner, 'restricted'), 'Deploy keys rotate on the first of the month');
    m.personal = await store({}, 'Alice deploys on Tuesdays');
    const grant = await api('POST', `/v1/memories/${m.granted}/grants`, {
      user_id: user,
      workspace_id: ws,
      agent_id: owner,
      grantee_agent_id: reader,
    });
    if (grant.status !== 201) throw new Error(`grant: ${grant.status}`);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const openScope = async (page: Page, scope: { userId: string; workspaceId?: string; agentId?: string }) => {
    await page.getByLabel('User id').fill(scope.userId);
    await page.getByLabel('Workspace id').fill(scope.workspaceId ?? '');
    await page.getByLabel('Agent id').fill(scope.agentId ?? '');
    await page.getByRole('button', { name: 'Open scope' }).click();
  };

  it('opens a typed scope and lists exactly what the REST API lists for it', async () => {
    const page = await browser.newPage();
    await signIn(page, t.baseUrl, {});
    await page.getByTestId('signed-in-as').filter({ hasText: 'AUTH_MODE=off' }).waitFor();
    // Without the admin token the admin pages are not offered.
    expect(await page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    for (const [agent, expected] of [
      [reader, [m.shared, m.granted]],
      [owner, [m.shared, m.private, m.granted]],
    ] as const) {
      await openScope(page, { userId: user, workspaceId: ws, agentId: agent });
      const shown = await listedIds(page);
      const rest = await api('GET', `/v1/memories/list?limit=100&user_id=${user}&workspace_id=${ws}&agent_id=${agent}`);
      expect(shown).toEqual((rest.body.memories as Json[]).map((memory) => memory.id));
      expect(new Set(shown)).toEqual(new Set(expected));
      await page.getByLabel('Per page').selectOption('20');
    }
    await openScope(page, { userId: user });
    expect(await listedIds(page)).toEqual([m.personal]);
    // A workspace without an agent: the service's own answer, shown as it is.
    await openScope(page, { userId: user, workspaceId: ws });
    await page.getByRole('alert').filter({ hasText: '400: agent_id is required for workspace queries' }).first().waitFor();
    await page.close();
  });

  it('shows the grants to an operator and explains visibility from the memory page', async () => {
    const page = await browser.newPage();
    await signIn(page, t.baseUrl, { admin: ADMIN_TOKEN });
    await openScope(page, { userId: user, workspaceId: ws, agentId: reader });
    await page.getByRole('link', { name: 'Deploy keys rotate on the first of the month' }).first().click();
    await page.waitForURL(`**/ui/memories/${m.granted}`);
    await page.getByTestId('grant-row').filter({ hasText: reader }).waitFor();
    const why = page.getByTestId('why-panel');
    expect(await why.getByLabel('Agent id').inputValue()).toBe(reader);
    await why.getByRole('button', { name: 'Explain' }).click();
    await why.locator('[data-testid="why-verdict"][data-rule="grant"]').waitFor();
    await why.getByLabel('Agent id').fill(newId());
    await why.getByRole('button', { name: 'Explain' }).click();
    await why.locator('[data-testid="why-verdict"][data-rule="not_visible"]').getByText('no grant').waitFor();
    await shoot(page, 'memory-why-open-mode');
    await page.close();
  });

  it('edits the runtime config, since this service allows it', async () => {
    const page = await browser.newPage();
    await signIn(page, t.baseUrl, {});
    await page.getByRole('link', { name: 'Config' }).click();
    await page.getByLabel('Max search results').fill('42');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('status').filter({ hasText: 'Applied: max_search_results.' }).waitFor();
    const health = await api('GET', '/v1/memories/health');
    expect((health.body.config as Json).max_search_results).toBe(42);
    await page.getByLabel('Max search results').fill('500');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^400: max_search_results/ })
      .waitFor();
    await shoot(page, 'config-open-mode');
    await page.close();
  });

  it('talked to this service only', () => {
    expect(browser.external).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});
