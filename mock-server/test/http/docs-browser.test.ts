import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumPath } from '../../../tools/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { startTestServer } from '../helpers/test-server.js';
import { watchedPage } from '../helpers/watched-page.js';

/**
 * GET /docs in a real browser: Chromium (tools/chromium.ts, a dev dependency) driven by playwright-core as the
 * HTML report's test does. Every request to another origin is
 * aborted and recorded: the page must render from what the mock serves alone.
 */

let server: MockServer;
let browser: Browser;
let page: Page;
let outside: string[];
const loaded: { url: string; status: number }[] = [];
let errors: string[];

beforeAll(async () => {
  server = await startTestServer();
  browser = await chromium.launch({ executablePath: await chromiumPath(), args: ['--no-sandbox'] });
  // Redoc makes blob: workers and data: images of its own: those are the page's, not another origin's.
  ({ page, outside, errors } = await watchedPage(browser, server.url, (url) => url.startsWith('blob:') || url.startsWith('data:')));
  page.on('response', (r) => loaded.push({ url: r.url(), status: r.status() }));
  await page.goto(`${server.url}/docs`);
  // Redoc has rendered the document once the API's title is its page heading.
  await page.locator('h1', { hasText: 'Team Chat REST API' }).waitFor({ timeout: 60_000 });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the /docs page in Chromium', () => {
  it('renders the document with the script and the document from the mock, nothing from elsewhere, no errors', () => {
    expect(loaded).toContainEqual({ url: `${server.url}/docs/redoc.standalone.js`, status: 200 });
    expect(loaded).toContainEqual({ url: `${server.url}/openapi.json`, status: 200 });
    expect(outside).toEqual([]);
    // Redoc 2.5's sidebar footer always asks for Redocly's logo on its CDN; the page's Content-Security-Policy
    // refuses it before any request leaves (`outside` stays empty), which Chromium reports as one console
    // line. Any other console error fails the test.
    const refusedLogo =
      /^Loading the image 'https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini\.svg' violates the following Content Security Policy directive/;
    expect(errors.filter((e) => !refusedLogo.test(e))).toEqual([]);
  });

  it('shows the operations with their paths, and the server the document was fetched from', async () => {
    await page.locator('h2', { hasText: 'Send a message' }).first().scrollIntoViewIfNeeded();
    const text = await page.locator('body').innerText();
    expect(text).toContain('Send a message');
    expect(text).toContain('/api/v1/messages');
    // Redoc writes the document's servers into each operation's endpoint box (shown on click).
    const endpoints = await page.locator('[data-section-id="operation/send-message"]').textContent();
    expect(endpoints).toContain(`${server.url}/api/v1/messages`);
  });

  it('drops the refused CDN logo and keeps the sidebar footer as text', async () => {
    await page.locator('img[alt="redocly logo"]').waitFor({ state: 'detached', timeout: 10_000 });
    expect(await page.locator('img[alt="redocly logo"]').count()).toBe(0);
    expect(await page.locator('a[href="https://redocly.com/redoc/"]').innerText()).toContain('API docs by Redocly');
  });
});
