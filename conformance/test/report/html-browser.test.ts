import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { openOffline, type OfflinePage } from './offline-page.js';
import { fixtureRun } from './run-fixture.js';

/**
 * The HTML report in a real browser (it renders, filters and expands): Chromium (tools/chromium.ts, a dev
 * dependency) driven by playwright-core. The page is opened from a file with the
 * network cut off, as a CI artefact is opened: everything it needs is inline.
 */

let page: Page;
let watched: OfflinePage;
let requests: string[];
let errors: string[];
let dialogs: string[];

beforeAll(async () => {
  watched = await openOffline(renderHtml(fixtureRun()), 'conformance.html');
  ({ page, outside: requests, errors, dialogs } = watched);
}, 60_000);

afterAll(() => watched?.close());

const visible = () => page.locator('details[data-scenario-id]:visible');

describe('the HTML report in Chromium', () => {
  it('renders every scenario with the totals, failures first, without errors or outside requests', async () => {
    const run = fixtureRun();
    expect(await page.locator('details[data-scenario-id]').count()).toBe(run.scenarios.length);
    expect(await page.locator('details[data-scenario-id]').first().getAttribute('data-status')).toBe('failed');
    expect(await page.locator('[data-total="passed"]').innerText()).toContain(String(run.totals.passed));
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    // The hostile body (a <script> calling alert) is shown as text, never run.
    expect(dialogs).toEqual([]);
    expect(await page.locator('body').innerText()).toContain('alert("pwned")');
  });

  it('filters by text and by status', async () => {
    const all = await visible().count();
    await page.fill('#filter', 'guest-cannot');
    expect(await visible().count()).toBe(1);
    await page.fill('#filter', '');
    expect(await visible().count()).toBe(all);
    await page.uncheck('#status-passed');
    const withoutPassed = await visible().count();
    expect(withoutPassed).toBe(all - fixtureRun().totals.passed);
    expect(await page.locator('details[data-status="passed"]:visible').count()).toBe(0);
    await page.check('#status-passed');
    expect(await visible().count()).toBe(all);
  });

  it('expands and collapses every scenario, and shows the exchanges with a curl line', async () => {
    await page.click('#expand-all');
    const open = await page.locator('details[data-scenario-id]').evaluateAll((els) => els.every((el) => (el as HTMLDetailsElement).open));
    expect(open).toBe(true);
    const failed = page.locator('details[data-status="failed"]').first();
    expect(await failed.locator('.exchange').first().isVisible()).toBe(true);
    expect(await failed.innerText()).toContain('curl');
    await page.click('#collapse-all');
    const closed = await page
      .locator('details[data-scenario-id]')
      .evaluateAll((els) => els.every((el) => !(el as HTMLDetailsElement).open));
    expect(closed).toBe(true);
  });
});
