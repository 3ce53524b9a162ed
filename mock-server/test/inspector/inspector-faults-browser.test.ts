import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { ROLE } from '../../src/contract/roles.js';
import { chromiumPath } from '../../../tools/chromium.js';
import { call, callControl, startTestServer } from '../helpers/test-server.js';
import { watchedPage } from '../helpers/watched-page.js';

/**
 * The inspector's fault rules panel in Chromium (one page, one server): a rule made through the control API shows,
 * the form adds one (which the control API then lists), a rule's button removes it, "remove all" empties the list,
 * and an answer a rate_limit rule made is marked "injected: rate_limit" in the log and the detail view. Nothing
 * is loaded from another origin, and the page's calls are never refused. Then the server-side event buttons: each
 * does what the control API's call does, seen through the API as a client would see it.
 */
let server: MockServer;
let browser: Browser;
let page: Page;
let outside: string[];
let errors: string[];
let refused: string[];
let member: { email: string; api_key: string };

interface Rule {
  id: string;
  operation: string | null;
  times: number | null;
  remaining: number | null;
  effect: Record<string, unknown>;
}

beforeAll(async () => {
  server = await startTestServer();
  member = server.control.credentials('demo').find((c) => c.email.startsWith('andrew@'))!;
  browser = await chromium.launch({ executablePath: await chromiumPath(), args: ['--no-sandbox'] });
  ({ page, outside, errors, refused } = await watchedPage(browser, server.url));
  await page.goto(`${server.url}/`);
  await page.locator('[data-testid="connection"]', { hasText: 'live' }).waitFor();
  await panel().locator('> summary').click();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const panel = () => page.locator('[data-testid="faults-demo"]');
const ruleRow = (id: string) => panel().locator(`[data-testid="fault-rule"][data-rule="${id}"]`);
const status = () => page.locator('[data-testid="realm-status-demo"]');

/** Forgets the refusals and console errors the test caused on purpose (and no others). */
function forgive(url: RegExp, consoleText: RegExp): void {
  const keep = (list: string[], drop: (entry: string) => boolean) => list.splice(0, list.length, ...list.filter((e) => !drop(e)));
  keep(refused, (entry) => entry.startsWith('400 ') && url.test(entry));
  keep(errors, (entry) => consoleText.test(entry));
}

/** The realm's rules as the control API lists them. */
async function listed(): Promise<Rule[]> {
  const res = await call(server, 'GET', '/__mock/realms/demo/faults');
  expect(res.status).toBe(200);
  return res.body.faults as Rule[];
}

describe("the inspector's fault rules panel", () => {
  it('shows a rule made through the control API', async () => {
    const made = await callControl(server, 'POST', '/__mock/realms/demo/faults', {
      operation: 'get-own-user',
      role: 'guest',
      effect: { type: 'preset', preset: 'server_error' },
    });
    expect(made.status).toBe(200);
    const id = made.body.id as string;
    await ruleRow(id).waitFor({ timeout: 5_000 });
    const text = await ruleRow(id).innerText();
    for (const part of ['get-own-user', 'guests', 'server_error', 'applied 0']) expect(text).toContain(part);
    expect(await panel().locator('> summary').innerText()).toBe('Fault rules (1)');
  });

  it('adds a rule with the form, which the control API then lists', async () => {
    const field = (name: string) => page.locator(`[data-testid="fault-${name}-demo"]`);
    await field('operation').fill('get-subscriptions');
    await field('effect').selectOption('rate_limit');
    await field('retry_after').fill('7');
    await field('times').fill('1');
    // The realms column is redrawn when a push changes it (here a rule made and removed elsewhere): what is typed
    // in the form, and where the caret is, stay.
    const passing = await callControl(server, 'POST', '/__mock/realms/demo/faults', {
      operation: 'get-messages',
      effect: { type: 'close' },
    });
    await ruleRow(passing.body.id as string).waitFor({ timeout: 5_000 });
    await callControl(server, 'DELETE', `/__mock/realms/demo/faults/${passing.body.id as string}`);
    await ruleRow(passing.body.id as string).waitFor({ state: 'detached', timeout: 5_000 });
    expect([await field('operation').inputValue(), await field('effect').inputValue(), await field('retry_after').inputValue()]).toEqual([
      'get-subscriptions',
      'rate_limit',
      '7',
    ]);
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('fault-times');
    const before = (await listed()).map((r) => r.id);
    // Fields of other effects are hidden; the rate limit's own is shown.
    expect(await page.locator('[data-testid="fault-retry_after-demo"]').isVisible()).toBe(true);
    expect(await page.locator('[data-testid="fault-code-demo"]').isVisible()).toBe(false);
    await page.locator('[data-testid="fault-add-demo"]').click();
    await expect.poll(async () => (await listed()).length, { timeout: 5_000 }).toBe(before.length + 1);
    const added = (await listed()).find((r) => !before.includes(r.id))!;
    expect(added).toMatchObject({
      operation: 'get-subscriptions',
      times: 1,
      remaining: 1,
      effect: { type: 'preset', preset: 'rate_limit', retry_after: 7 },
    });
    await ruleRow(added.id).waitFor({ timeout: 5_000 });
    expect(await ruleRow(added.id).innerText()).toContain('rate_limit (retry after 7 s)');
    await expect.poll(() => status().innerText(), { timeout: 5_000 }).toBe(`rule ${added.id} added`);
  });

  it("shows the server's refusal of a bad rule, and stores nothing", async () => {
    const before = await listed();
    await page.locator('[data-testid="fault-operation-demo"]').fill('no-such-operation');
    await page.locator('[data-testid="fault-add-demo"]').click();
    await expect.poll(() => status().innerText(), { timeout: 5_000 }).toMatch(/^BAD_REQUEST: .*no-such-operation/);
    expect(await listed()).toEqual(before);
    // That 400 was the point (Chromium also reports it on the console): only it is forgiven.
    forgive(/\/__mock\/realms\/demo\/faults$/, /status of 400/);
  });

  it('removes a rule with its button', async () => {
    const [first] = await listed();
    await page.locator(`[data-testid="fault-remove-demo-${first!.id}"]`).click();
    await expect.poll(async () => (await listed()).map((r) => r.id), { timeout: 5_000 }).not.toContain(first!.id);
    await ruleRow(first!.id).waitFor({ state: 'detached', timeout: 5_000 });
  });

  it('marks the answer a rate_limit rule made: "injected: rate_limit" in the log row and the detail', async () => {
    const res = await call(server, 'GET', '/api/v1/users/me/subscriptions', { as: member });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'RATE_LIMIT_HIT', 'retry-after': 7 });
    const row = page.locator('[data-testid="log-row"]', { hasText: '/api/v1/users/me/subscriptions' }).first();
    await row.waitFor({ timeout: 5_000 });
    expect(await row.locator('[data-testid="injected"]').innerText()).toBe('injected: rate_limit');
    await row.click();
    await page.locator('[data-testid="detail-injected"]').waitFor();
    expect(await page.locator('[data-testid="detail-injected"]').innerText()).toContain('injected: rate_limit');
    // The rule applied its one time and is gone, from the page too.
    expect(await listed()).toEqual([]);
    await panel().locator('> summary', { hasText: 'Fault rules (0)' }).waitFor({ timeout: 5_000 });
    // The next request is the API's own answer, not marked.
    expect((await call(server, 'GET', '/api/v1/users/me/subscriptions', { as: member })).status).toBe(200);
    const rows = page.locator('[data-testid="log-row"]', { hasText: '/api/v1/users/me/subscriptions' });
    await expect.poll(() => rows.count(), { timeout: 5_000 }).toBe(2);
    expect(await rows.first().locator('[data-testid="injected"]').count()).toBe(0);
  });

  it('"Remove all" removes every rule of the realm', async () => {
    for (const operation of ['send-message', 'get-messages']) {
      await callControl(server, 'POST', '/__mock/realms/demo/faults', { operation, effect: { type: 'reset' } });
    }
    await panel().locator('> summary', { hasText: 'Fault rules (2)' }).waitFor({ timeout: 5_000 });
    await page.locator('[data-testid="faults-clear-demo"]').click();
    await expect.poll(async () => (await listed()).length, { timeout: 5_000 }).toBe(0);
    await panel().locator('> summary', { hasText: 'Fault rules (0)' }).waitFor({ timeout: 5_000 });
    expect(outside).toEqual([]);
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe("the inspector's server-side event buttons", () => {
  const events = () => page.locator('[data-testid="events-demo"]');
  const credentialsPanel = () => page.locator('[data-testid="credentials-demo"]');

  beforeAll(async () => {
    await events().locator('> summary').click();
    await credentialsPanel().locator('> summary').click();
    await credentialsPanel().locator('pre', { hasText: member.email }).waitFor({ timeout: 5_000 });
  });

  it("Restart queues drops the realm's event queues: the next poll gets BAD_EVENT_QUEUE_ID", async () => {
    const registered = await call(server, 'POST', '/api/v1/register', { as: member, form: { event_types: '["message"]' } });
    const queueId = registered.body.queue_id as string;
    await page.locator('[data-testid="queues-demo"] summary', { hasText: 'Event queues (1)' }).waitFor({ timeout: 5_000 });
    await page.locator('[data-testid="restart-demo"]').click();
    await expect.poll(() => server.control.queues('demo').length, { timeout: 5_000 }).toBe(0);
    // The page writes its status line once the answer reaches it, which may be after the server dropped the queues.
    await expect.poll(() => status().innerText(), { timeout: 5_000 }).toBe('1 event queue was dropped');
    const poll = await call(server, 'GET', '/api/v1/events', { as: member, query: { queue_id: queueId, last_event_id: '-1' } });
    expect(poll.body).toMatchObject({ result: 'error', code: 'BAD_EVENT_QUEUE_ID' });
    // The feed's push of the dropped queue redraws the realm card (the status line above is written in place, before
    // it): the next test's click must not land while its button is being replaced.
    await page.locator('[data-testid="queues-demo"]', { hasText: 'No event queues.' }).waitFor({ timeout: 5_000 });
  });

  it('Rotate API key gives the user a new key, shown in the credentials; the old one is refused', async () => {
    const who = server.control.credentials('demo').find((c) => c.email === member.email)!;
    await page.locator(`[data-testid="rotate-key-demo-${who.user_id}"]`).click();
    await expect
      .poll(() => server.control.credentials('demo').find((c) => c.user_id === who.user_id)!.api_key, { timeout: 5_000 })
      .not.toBe(who.api_key);
    const fresh = server.control.credentials('demo').find((c) => c.user_id === who.user_id)!;
    await credentialsPanel().locator('pre', { hasText: fresh.api_key }).waitFor({ timeout: 5_000 });
    const old = await call(server, 'GET', '/api/v1/users/me', { as: { email: who.email, api_key: who.api_key } });
    expect(old.body).toMatchObject({ result: 'error', code: 'INVALID_API_KEY' });
    expect((await call(server, 'GET', '/api/v1/users/me', { as: fresh })).status).toBe(200);
    member = fresh;
  });

  it('Deactivate and Reactivate a user', async () => {
    const other = server.control
      .credentials('demo')
      .find((c) => c.is_active && !c.is_bot && c.role === ROLE.member && c.email !== member.email)!;
    await page.locator(`[data-testid="deactivate-user-demo-${other.user_id}"]`).click();
    await expect
      .poll(() => server.control.credentials('demo').find((c) => c.user_id === other.user_id)!.is_active, { timeout: 5_000 })
      .toBe(false);
    expect((await call(server, 'GET', '/api/v1/users/me', { as: other })).body).toMatchObject({ code: 'USER_DEACTIVATED' });
    await page.locator(`[data-testid="reactivate-user-demo-${other.user_id}"]`).click();
    await expect
      .poll(() => server.control.credentials('demo').find((c) => c.user_id === other.user_id)!.is_active, { timeout: 5_000 })
      .toBe(true);
    expect((await call(server, 'GET', '/api/v1/users/me', { as: other })).status).toBe(200);
  });

  it('Deactivate and Reactivate the realm', async () => {
    await page.locator('[data-testid="deactivate-realm-demo"]').click();
    await status().filter({ hasText: 'realm deactivated' }).waitFor({ timeout: 5_000 });
    expect((await call(server, 'GET', '/api/v1/users/me', { as: member })).body).toMatchObject({ code: 'REALM_DEACTIVATED' });
    await page.locator('[data-testid="reactivate-realm-demo"]').click();
    await status().filter({ hasText: 'realm reactivated' }).waitFor({ timeout: 5_000 });
    expect((await call(server, 'GET', '/api/v1/users/me', { as: member })).status).toBe(200);
  });

  it("Silence holds the realm's long-polls, events included, for the seconds given (realm time)", async () => {
    const registered = await call(server, 'POST', '/api/v1/register', { as: member, form: { event_types: '["message"]' } });
    const queueId = registered.body.queue_id as string;
    // The feed's push of the new queue redraws the realm card: typing before it lands would race the redraw.
    await page.getByText(queueId.split(':').pop()!.slice(0, 8)).first().waitFor({ state: 'attached', timeout: 5_000 });
    await page.locator('[data-testid="silence-seconds-demo"]').fill('45');
    await page.locator('[data-testid="silence-demo"]').click();
    await status().filter({ hasText: 'long-polls silent for 45 s' }).waitFor({ timeout: 5_000 });
    const poll = call(server, 'GET', '/api/v1/events', { as: member, query: { queue_id: queueId, last_event_id: '-1' } });
    const queue = () => server.control.queues('demo').find((q) => q.queue_id === queueId)!;
    await expect.poll(() => queue().waiting, { timeout: 5_000 }).toBe(true);
    const other = server.control.credentials('demo').find((c) => c.is_active && !c.is_bot && c.email !== member.email)!;
    const sent = await call(server, 'POST', '/api/v1/messages', {
      as: other,
      form: { type: 'stream', to: 'home', topic: 'silence', content: 'held back' },
    });
    expect(sent.status).toBe(200);
    // The event waits in the queue and the poll stays open: without the silence it would have been answered.
    expect(queue()).toMatchObject({ pending: 1, waiting: true });
    await server.control.advanceRealm('demo', 45);
    const answered = await poll;
    expect(answered.body).toMatchObject({ result: 'success', events: [expect.objectContaining({ type: 'message' })] });
    expect(outside).toEqual([]);
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
  });
});
