import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { fixtureRun, HOSTILE } from './run-fixture.js';

const html = renderHtml(fixtureRun());
const attrs = (name: string) =>
  [...html.matchAll(new RegExp(`<details class="scenario[^"]*"[^>]*\\s${name}="([^"]*)"`, 'g'))].map((m) => m[1]);
/** The markup of one scenario's <details>. */
const scenario = (id: string) => {
  const start = html.indexOf(`data-scenario-id="${id}"`);
  return html.slice(start, html.indexOf('</details>', start));
};

describe('renderHtml', () => {
  it('is one self-contained document: inline style and script, nothing fetched', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.match(/<style>/g)).toHaveLength(1);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).not.toMatch(/<link\b|<script [^>]*src=|<img\b|@import|url\(|https?:\/\/(?!127\.0\.0\.1:9991)/);
  });

  it('escapes everything that comes from the run', () => {
    // Our own script is the only <script>; the hostile body, rule text and titles are text.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain(HOSTILE);
    expect(html).toContain('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;');
    expect(html).toContain('a guest cannot subscribe &lt;b&gt;others&lt;/b&gt;');
    expect(html).toContain('could not set up: create channel failed: 500 &lt;html&gt;oops&lt;/html&gt;');
  });

  it('opens with the failing rules and the findings, each linking its scenarios, and what each key variable stands for', () => {
    const run = fixtureRun();
    run.keys = [{ variable: 'KEY_guest', role: 'guest', emails: ['guest@demo.teamchat.test'] }];
    const page = renderHtml(run);
    const section = page.slice(page.indexOf('<section id="findings">'), page.indexOf('<section id="areas">'));
    expect(page.indexOf('<section id="findings">')).toBeLessThan(page.indexOf('<section id="scenarios">'));
    expect(section).toContain(
      '<tr data-rule="R4.8-1"><td><a href="#rule-R4.8-1" class="rule">R4.8-1</a></td><td>1</td><td><a href="#finding-F1">F1</a></td>',
    );
    expect([...section.matchAll(/data-finding-id="(F\d+)"/g)].map((m) => m[1])).toEqual(['F1', 'F2', 'F3']);
    expect(section).toContain('<a href="#s-1">permissions/guest-cannot-subscribe</a>');
    expect(section).toContain('could not set up: create channel failed: 500 &lt;html&gt;oops&lt;/html&gt;');
    expect(section).toContain('<li data-variable="KEY_guest"><code>$KEY_guest</code>: guest (guest@demo.teamchat.test)</li>');
    // Each failed check and each broken scenario points back at its finding.
    expect(page).toContain('<a href="#finding-F1" class="finding-ref">F1</a>');
    expect(page).toContain('<p class="findings">Findings: <a href="#finding-F3">F3</a></p>');
  });

  it('shows target, level, kind, totals and overall coverage in the header', () => {
    expect(html).toContain('data-target="http://127.0.0.1:9991" data-feature-level="412" data-target-kind="mock"');
    for (const [status, n] of [
      ['passed', 2],
      ['failed', 1],
      ['error', 1],
      ['skipped', 1],
    ] as const) {
      expect(html).toContain(`data-total="${status}">${n} ${status}</span>`);
    }
    expect(html).toContain('<strong id="coverage" data-covered="2" data-total="7">2/7 (28.5%)</strong>');
    expect(html).toContain('<dd>1.2 s</dd>');
  });

  it('summarises by area and by spec section with rule coverage', () => {
    const areas = [...html.matchAll(/<tr data-area="([^"]+)">/g)].map((m) => m[1]);
    expect(areas).toEqual(['channels', 'permissions', 'events', 'topics']);
    const sections = [...html.matchAll(/<tr (?:class="overall" )?data-section="([^"]+)" data-covered="(\d+)" data-total="(\d+)">/g)].map(
      (m) => m.slice(1).join(' '),
    );
    expect(sections).toEqual(['4.8 0 2', '4.15 1 1', '4.16 1 2', '6 0 1', '9 0 1', 'all 2 7']);
  });

  it('lists failures first, then errors, then the rest in run order', () => {
    expect(attrs('data-scenario-id')).toEqual([
      'permissions/guest-cannot-subscribe',
      'topics/empty-topic',
      'channels/list-public',
      'events/queue-expiry',
      'channels/update-name',
    ]);
    expect(attrs('data-status')).toEqual(['failed', 'error', 'passed', 'skipped', 'passed']);
  });

  it("shows each scenario's rules, checks with ✓ and ✗, and the reason", () => {
    const failed = scenario('permissions/guest-cannot-subscribe');
    expect(failed).toContain('<a href="#rule-R4.8-1" class="rule">R4.8-1</a> <a href="#rule-R4.8-2" class="rule">R4.8-2</a>');
    expect(failed.match(/<li class="check ok" data-ok="true"><span class="mark">✓<\/span>/g)).toHaveLength(1);
    expect(failed.match(/<li class="check fail" data-ok="false"><span class="mark">✗<\/span>/g)).toHaveLength(2);
    expect(failed).toContain('expected 400 BAD_REQUEST: status 200, expected 400');
    expect(scenario('events/queue-expiry')).toContain('<p class="reason">waits in real time: run with --slow</p>');
  });

  it('shows each exchange: method, path, caller, status, time, parameters, pretty body and curl line', () => {
    const failed = scenario('permissions/guest-cannot-subscribe');
    expect(failed).toContain(
      '<strong>POST</strong> <code>/api/v1/users/me/subscriptions</code> <span class="dim">as guest</span> → <span class="code c2">200</span> <span class="dim">8.1 ms</span>',
    );
    expect(failed).toContain('<tr><th>principals</th><td><code>[15]</code></td></tr>');
    expect(failed).toContain('{\n  &quot;result&quot;: &quot;success&quot;,\n  &quot;msg&quot;: &quot;&quot;,');
    expect(failed).toContain(`<code>curl -sS -X POST -u &#39;guest@demo.teamchat.test:&#39;&quot;$KEY_guest&quot; --data-urlencode`);
    expect(failed).toContain('<button type="button" class="copy">Copy</button>');
    expect(scenario('topics/empty-topic')).toContain('<span class="code c5">500</span>');
    // The request a failing check points at is marked; the others are not.
    expect(failed).toContain('<li class="exchange flagged" id="x-1-0" data-status-code="200" data-flagged="true">');
    expect(scenario('channels/list-public')).toContain('<li class="exchange" id="x-0-0" data-status-code="200" data-flagged="false">');
  });

  it('cuts very long bodies, pointing to report.json', () => {
    const renamed = scenario('channels/update-name');
    expect(renamed).toMatch(/… \(\d+ more characters in report\.json\)/);
    expect(renamed.length).toBeLessThan(25_000);
  });

  it('never shows a credential or a request header', () => {
    expect(html).not.toMatch(/authorization|Basic [A-Za-z0-9+/=]{8,}/i);
    expect(html).not.toContain('content-type');
  });

  it('has a rules table saying which rules are covered and by which scenarios', () => {
    const rows = [...html.matchAll(/<tr id="rule-([^"]+)" data-rule-id="[^"]+" data-covered="(true|false)"/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    expect(rows).toEqual(['R4.8-1 false', 'R4.8-2 false', 'R4.15-1 true', 'R4.16-1 true', 'R4.16-2 false', 'R6-1 false', 'R9-1 false']);
    const covered = html.slice(html.indexOf('<tr id="rule-R4.15-1"'));
    expect(covered.slice(0, covered.indexOf('</tr>'))).toContain('<a href="#s-0">channels/list-public</a>');
  });

  it('has the controls a browser test drives, and a script that parses', () => {
    for (const hook of ['id="filter"', 'id="expand-all"', 'id="collapse-all"', 'id="shown-count"', 'id="uncovered-only"'])
      expect(html).toContain(hook);
    expect([...html.matchAll(/data-status-filter="(\w+)" checked/g)].map((m) => m[1])).toEqual(['failed', 'error', 'passed', 'skipped']);
    const script = html.slice(html.indexOf('<script>') + 8, html.indexOf('</script>'));
    expect(() => new Function(script)).not.toThrow();
  });
});
