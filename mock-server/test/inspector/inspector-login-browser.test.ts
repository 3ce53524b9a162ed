import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { DEMO_REALM_EPOCH } from '../../src/fixtures/demo-realm.js';
import { chromiumPath } from '../../../tools/chromium.js';
import { startTestServer } from '../helpers/test-server.js';

/**
 * The inspector behind a control token, in Chromium: the browser is asked for the token and shown nothing else;
 * once given, the session cookie opens the page, its feed, and the control API for the page's buttons (cookie and
 * the page's header: inspector/session.ts). The HTTP side of the same rule: inspector-token.test.ts.
 */
const TOKEN = 'browser-login-token-0123456789';
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

let server: MockServer;
let browser: Browser;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ controlToken: TOKEN });
  browser = await chromium.launch({ executablePath: await chromiumPath(), args: ['--no-sandbox'] });
  page = await browser.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the inspector behind a control token, in Chromium', () => {
  it('asks for the token and shows nothing else', async () => {
    const res = await page.goto(`${server.url}/`);
    expect(res?.status()).toBe(401);
    await page.locator('input[name="token"]').waitFor();
    const text = await page.locator('body').innerText();
    expect(text).not.toContain('demo');
    expect(await page.locator('[data-testid="realms"]').count()).toBe(0);
  });

  it('opens the page once the token is given, with the token gone from the address, and its buttons work', async () => {
    await page.locator('input[name="token"]').fill(TOKEN);
    await page.locator('button[type="submit"]').click();
    await page.locator('[data-testid="connection"]', { hasText: 'live' }).waitFor({ timeout: 10_000 });
    expect(page.url()).toBe(`${server.url}/`);
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([['teamchat_inspector', true, 'Strict']]);
    expect(JSON.stringify(cookies)).not.toContain(TOKEN);
    await page.locator('[data-testid="advance-seconds-demo"]').fill('60');
    await page.locator('[data-testid="advance-demo"]').click();
    await page.locator('[data-testid="realm-time-demo"]', { hasText: iso(DEMO_REALM_EPOCH + 60) }).waitFor({ timeout: 5_000 });
    expect(errors).toEqual([]);
  });
});
