import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { isEntryPoint } from '../../cli/common.js';
import { chromiumPath } from '../chromium.js';
import { createMockServer, type MockServer } from '../../mock-server/src/app.js';
import { DEMO_REALM_EPOCH } from '../../mock-server/src/fixtures/demo-realm.js';

/**
 * The README's picture of the inspector (docs/inspector.png) and the browser test's artefact
 * (reports/inspector.png) are made by this code: a mock with a frozen clock at the demo epoch, a little traffic
 * of the kinds the page tells apart (successes, a refused login, two validation errors, a rate limit a fault rule
 * injected, an event waiting in a queue), then the page with a validation error opened. Regenerate the README's with
 * `npx tsx tools/screenshots/inspector.ts` (writes docs/inspector.png; another path as the first argument).
 */
export const VIEWPORT = { width: 1400, height: 900 };

interface Who {
  email: string;
  api_key: string;
}

/** One API request as a stock client makes it (Basic auth, form or query parameters). */
export async function api(server: MockServer, as: Who | null, method: string, path: string, params: Record<string, string> = {}) {
  const url = new URL(`${server.url}/api/v1${path}`);
  const headers: Record<string, string> = {};
  if (as) headers.authorization = `Basic ${Buffer.from(`${as.email}:${as.api_key}`).toString('base64')}`;
  let body: string | undefined;
  if (method === 'GET') for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  else {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(params).toString();
  }
  const res = await fetch(url, { method, headers, body });
  return (await res.json()) as Record<string, unknown>;
}

/** The traffic the picture shows. */
export async function stageTraffic(server: MockServer): Promise<void> {
  const people = server.control.credentials('demo');
  const member = people.find((c) => c.email.startsWith('andrew@'))!;
  const other = people.find((c) => c.is_active && !c.is_bot && c.email !== member.email)!;
  await api(server, member, 'GET', '/users/me');
  await api(server, member, 'POST', '/register', { event_types: '["message"]' });
  await api(server, other, 'POST', '/messages', { type: 'stream', to: 'home', topic: 'release', content: 'Ready for review' });
  await api(server, member, 'GET', '/streams');
  // One answer made by a fault rule (the log marks it "injected: rate_limit"); the rule ends with it.
  server.control.addFault('demo', { operation: 'get-streams', times: 1, effect: { type: 'preset', preset: 'rate_limit', retry_after: 2 } });
  await api(server, member, 'GET', '/streams');
  await api(server, { email: member.email, api_key: 'not-a-key' }, 'GET', '/users/me');
  await api(server, member, 'POST', '/messages', { type: 'stream', to: 'home', topic: 'release' });
  await api(server, member, 'GET', '/messages', { anchor: 'oldest-ish', num_before: '0', num_after: '10' });
}

/** The page as the picture shows it: live, the last validation error opened, the demo realm's queues and the first queue's pending events unfolded. */
export async function showInspector(page: Page, server: MockServer): Promise<void> {
  await page.setViewportSize(VIEWPORT);
  await page.goto(`${server.url}/`);
  await page.locator('[data-testid="connection"]', { hasText: 'live' }).waitFor();
  await page.locator('tr.validation').first().click();
  await page.locator('[data-testid="detail-error"]').waitFor();
  await page.locator('[data-testid="queues-demo"] > summary').click();
  await page.locator('[data-testid="queues-demo"] details.queue > summary').first().click();
}

export async function screenshotInspector(page: Page, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: false });
}

async function main(): Promise<void> {
  const out = resolve(process.argv[2] ?? 'docs/inspector.png');
  const server = await createMockServer({ port: 0, statePath: null, clock: 'frozen', epoch: DEMO_REALM_EPOCH });
  const browser = await chromium.launch({ executablePath: await chromiumPath(), args: ['--no-sandbox'] });
  try {
    await stageTraffic(server);
    const page = await browser.newPage();
    await showInspector(page, server);
    await screenshotInspector(page, out);
    console.log(`wrote ${out}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

if (isEntryPoint(import.meta.url)) await main();
