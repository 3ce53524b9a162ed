import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/explore/report/options.js';
import { renderExploreSummary } from '../../src/explore/report/console.js';
import { boundedResult, writeExploreReports } from '../../src/explore/report/files.js';
import { renderExploreHtml } from '../../src/explore/report/html.js';
import { renderExploreJUnit } from '../../src/explore/report/junit.js';
import { EVENTS_KEPT } from '../../src/explore/report/text.js';
import { parseScript, ScriptError, scriptOf } from '../../src/explore/script.js';
import type { ExploreResult, RanStep } from '../../src/explore/types.js';
import { finding, many, move, result, send } from './result-fixture.js';
import { junitSchemaErrors } from '../report/junit-schema.js';

/** A finding's script survives the file round trip; the reports show a finding whole, escaped and bounded. */

describe('explore scripts', () => {
  it('a finding written as a script reads back as the same steps, actors and rule', () => {
    const script = scriptOf(finding, result.actors);
    const back = parseScript(JSON.stringify(script), 'f.json');
    expect(back).toEqual(script);
    expect(back.steps).toEqual([send, move]);
    expect([back.format, back.seed, back.rule]).toEqual(['teamchat-explore-script/1', 42, 'explore/events-snapshot']);
  });

  it.each([
    [{ rule: 'explore/nothing' }, 'rule "explore/nothing" is not an explore rule'],
    [{ seed: 1.5 }, 'seed is not an integer'],
    [{ actors: [{ name: 'member', legacy: false }] }, 'actors is not a list of 2 to 7'],
    [{ steps: [] }, 'steps is not a non-empty list'],
    [{ steps: [{ ...send, actor: 'owner' }] }, "steps[0] acts as owner, not one of the script's actors"],
    [{ steps: [send, { ...move, path: 'api/v1' }] }, 'steps[1] has a path that does not start with /'],
    [{ steps: [{ ...move, expect: 'maybe' }] }, 'steps[0] expects neither'],
  ])('refuses a script with %j', (change, problem) => {
    const text = JSON.stringify({ ...scriptOf(finding, result.actors), ...change });
    expect(() => parseScript(text, 'f.json')).toThrow(ScriptError);
    expect(() => parseScript(text, 'f.json')).toThrow(`f.json is not an explore script: ${problem}`);
  });
});

describe('explore reports', () => {
  it('the console names the rule, the numbered steps with curl lines and events, the seed and replayed', () => {
    const text = renderExploreSummary(result);
    expect(text).toContain('3 sequences, 37 steps in 2.5 s, 14.8 steps/s (oracles included), seed 42');
    expect(text).toContain('explore/answer 37, explore/events-snapshot 74');
    expect(text).toContain('finding: explore/events-snapshot (as member sees it)');
    expect(text).toContain('shrunk to 2 steps; replayed: yes');
    expect(text).toContain('  2. member move-topic: PATCH /api/v1/messages/{m1} → 200');
    expect(text).toContain(`"$KEY_member" 'http://127.0.0.1:1/api/v1/messages'`);
    expect(text).toContain('events of member: update_message(message_id=41, subject="beta")');
    // A busy step names a few events and counts the rest.
    expect(text).toContain(`message(id=107, stream_id=9, topic="beta"), … ${many.length - 8} more`);
  });

  it('the HTML escapes what the target said and keeps the step order', () => {
    const html = renderExploreHtml(boundedResult(result));
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(html).toMatch(/<section class="finding" id="finding-0" data-rule="explore\/events-snapshot" data-replayed="true">/);
    expect([...html.matchAll(/<li class="step" data-n="(\d+)"/g)].map((m) => m[1])).toEqual(['1', '2']);
    expect(html).toMatch(/<tr data-rule="explore\/counters" data-count="36"/);
  });

  it('the JUnit file is valid, a testcase per rule, the finding failing with its script', async () => {
    const xml = renderExploreJUnit(boundedResult(result));
    expect(await junitSchemaErrors(xml)).toEqual([]);
    expect([...xml.matchAll(/<testcase classname="explore" name="(explore\/[a-z-]+):/g)].map((m) => m[1])).toEqual([
      'explore/answer',
      'explore/events-snapshot',
      'explore/read-your-writes',
      'explore/no-leaks',
      'explore/counters',
    ]);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toContain('message="member\'s state differs at unread_msgs.streams[0] &lt;/failure&gt;"');
    expect(xml).toContain('1. guest send-channel-message: POST /api/v1/messages → 200 (wrong on purpose: a channel it is not in');
  });

  it('the files: at most EVENTS_KEPT events per actor and step, the rest counted, and the finding script', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'explore-report-'));
    try {
      const out: string[] = [];
      const io = { out: { write: (s: string) => out.push(s) }, err: { write: () => true } };
      expect(await writeExploreReports(result, ['json', 'html', 'junit'], dir, io)).toBe(true);
      expect((await readdir(dir)).sort()).toEqual(['explore-finding.json', 'explore-junit.xml', 'explore.html', 'explore.json']);
      const json = JSON.parse(await readFile(join(dir, 'explore.json'), 'utf8')) as ExploreResult;
      const first = json.findings[0]!.steps[0]! as RanStep & { eventsOmitted?: Record<string, number> };
      expect(first.events.member).toHaveLength(EVENTS_KEPT);
      expect(first.eventsOmitted).toEqual({ member: 7 });
      expect(parseScript(await readFile(join(dir, 'explore-finding.json'), 'utf8'), 'x').steps).toEqual([send, move]);
      // A later run without a finding removes the script, so nobody replays a finding that run did not make.
      expect(await writeExploreReports({ ...result, findings: [] }, ['json'], dir, io)).toBe(true);
      expect(await readdir(dir)).not.toContain('explore-finding.json');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('--duration', () => {
  it.each([
    ['60s', 60_000],
    ['2m', 120_000],
    ['90', 90_000],
    ['1500ms', 1500],
    ['0.5s', 500],
    ['1h', 3_600_000],
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));
  it.each(['', '0s', '-1s', '5 minutes', '1d'])('%j is refused', (text) => expect(() => parseDuration(text)).toThrow('Must be a time'));
});
