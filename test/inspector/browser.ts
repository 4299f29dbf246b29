// The callbacks of page.evaluate() run in the browser: they need the DOM's types.
/// <reference lib="dom" />
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { findProjectRoot } from '../../src/common/project-root';

export const ROOT = findProjectRoot();
export const ARTIFACTS = join(ROOT, 'artifacts', 'ui');
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };
const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
/** Headless as root, and quiet: this machine has no outside network, so nothing may try to reach one. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  /** Every URL any page asked for. */
  requests: string[];
  /** Requests to another origin than the service's (aborted). */
  external: string[];
  /** Uncaught errors in any page. */
  pageErrors: string[];
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Debian's Chromium through playwright-core, with a fresh user-data directory, watching every
 * request of every page: a request to any origin but `baseUrl`'s is recorded and refused.
 */
export async function launchBrowser(baseUrl: string): Promise<Browser> {
  if (!existsSync(join(ROOT, 'dist', 'ui', 'index.html'))) throw new Error('no inspector build in dist/ui: run `npm run build` first');
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/install-chromium.sh (as root)`);
  mkdirSync(ARTIFACTS, { recursive: true });
  const userDataDir = mkdtempSync(join(tmpdir(), 'atrium-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: DESKTOP,
  });
  const requests: string[] = [];
  const external: string[] = [];
  const pageErrors: string[] = [];
  const origin = new URL(baseUrl).origin;
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    if (new URL(url).origin !== origin) {
      external.push(url);
      return route.abort();
    }
    return route.continue();
  });
  context.on('page', (page) => page.on('pageerror', (error) => pageErrors.push(error.message)));
  return {
    context,
    requests,
    external,
    pageErrors,
    async newPage(viewport = DESKTOP) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      return page;
    },
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Sign in through the form, as a person would; returns once the session shows. */
export async function signIn(
  page: Page,
  baseUrl: string,
  credentials: { admin?: string; key?: string; remember?: boolean },
): Promise<void> {
  await page.goto(`${baseUrl}/ui/`);
  await page.waitForURL('**/ui/sign-in');
  if (credentials.admin) await page.getByLabel('Admin token').fill(credentials.admin);
  if (credentials.key) await page.getByLabel('API key').fill(credentials.key);
  if (credentials.remember) await page.getByLabel(/Keep me signed in/).check();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('signed-in-as').waitFor();
  // The app then leaves /sign-in for its landing page (a replace); a link followed before that
  // could be overtaken by it.
  await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
  await landed(page);
}

/**
 * Resolves once the page an in-app navigation led to has mounted and its title has taken focus
 * (PageTitle does so in an effect). A link focused before that loses focus to the title, and a
 * key pressed then goes nowhere: one CI run waited 30 s for a navigation that never came.
 */
export async function landed(page: Page): Promise<void> {
  await page.locator('h1:focus').waitFor();
}

/** The ids of the memories list at 100 a page (the first page), in the order shown. */
export async function listedIds(page: Page): Promise<string[]> {
  await page.getByLabel('Per page').selectOption('100');
  await page.locator('[data-testid="memory-list"][data-loaded="100:0"]').waitFor();
  return page.getByTestId('memory-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id') as string));
}

export const shoot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
