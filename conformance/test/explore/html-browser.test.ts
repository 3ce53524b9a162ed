import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedResult } from '../../src/explore/report/files.js';
import { renderExploreHtml } from '../../src/explore/report/html.js';
import { EXPLORE_RULE_LIST } from '../../src/explore/types.js';
import { openOffline, type OfflinePage } from '../report/offline-page.js';
import { finding, result } from './result-fixture.js';

/**
 * explore.html in a real browser, opened from a file with the network cut off as a CI artefact is: the finding
 * reads as a numbered script, the target's words stay text (the fixture's bodies carry markup that would run),
 * the details open, and the Copy button puts the step's curl line on the clipboard.
 */

let page: Page;
let watched: OfflinePage;
let outside: string[];
let errors: string[];
let dialogs: string[];

beforeAll(async () => {
  watched = await openOffline(renderExploreHtml(boundedResult(result)), 'explore.html', ['clipboard-read', 'clipboard-write']);
  ({ page, outside, errors, dialogs } = watched);
}, 60_000);

afterAll(() => watched?.close());

describe('explore.html in Chromium', () => {
  it('shows the run, the finding as numbered steps and every oracle, with no script of the target run', async () => {
    expect(await page.locator('#run').getAttribute('data-seed')).toBe(String(result.seed));
    expect(await page.locator('#run .badge').innerText()).toBe('1 finding');
    const section = page.locator('section.finding');
    expect(await section.getAttribute('data-rule')).toBe(finding.rule);
    expect(await section.locator('.message').innerText()).toBe(finding.message);
    expect(await section.locator('li.step').evaluateAll((els) => els.map((el) => el.getAttribute('data-kind')))).toEqual(
      finding.steps.map((s) => s.step.kind),
    );
    // The ordered list numbers the steps as the script does.
    expect(await section.locator('ol.steps').evaluate((el) => getComputedStyle(el).listStyleType)).toBe('decimal');
    expect(await page.locator('#oracles tr[data-rule]').evaluateAll((els) => els.map((el) => el.getAttribute('data-rule')))).toEqual([
      ...EXPLORE_RULE_LIST,
    ]);
    expect(await page.locator(`#oracles tr[data-rule="${finding.rule}"]`).getAttribute('class')).toBe('failed');
    expect([errors, outside, dialogs]).toEqual([[], [], []]);
  });

  it("opens a step's response and events: the target's markup is text", async () => {
    const step = page.locator('li.step[data-n="1"]');
    const response = step.locator('details').first();
    await response.locator('summary').click();
    expect(await response.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    expect(await response.locator('pre').innerText()).toContain('<img src=x onerror=alert(2)>');
    expect(await page.locator('img').count()).toBe(0);
    const events = step.locator('ul.events li[data-actor="member"]');
    expect(await events.innerText()).toMatch(/… \d+ more/);
    await events.locator('summary').click();
    expect(await events.locator('pre').innerText()).toContain('"type": "message"');
    expect([errors, outside, dialogs]).toEqual([[], [], []]);
  });

  it("copies a step's curl line with its button", async () => {
    const curl = page.locator('li.step[data-n="2"] .curl');
    await curl.locator('button.copy').click();
    await expect.poll(() => curl.locator('button.copy').innerText()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(finding.steps[1]!.exchange.curl);
    expect(errors).toEqual([]);
  });
});
