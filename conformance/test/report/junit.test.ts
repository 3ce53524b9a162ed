import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { renderJUnit } from '../../src/report/junit.js';
import { fixtureRun, HOSTILE } from './run-fixture.js';

type Node = Record<string, unknown> & { '#text'?: string };
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseAttributeValue: false,
  isArray: (name) => ['testsuite', 'testcase', 'property', 'failure', 'error', 'skipped'].includes(name),
});

function parse() {
  const xml = renderJUnit(fixtureRun());
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = parser.parse(xml) as { testsuites: Node & { testsuite: (Node & { testcase: Node[] })[] } };
  const cases = new Map(doc.testsuites.testsuite.flatMap((s) => s.testcase).map((c) => [String(c['@_name']).split(':')[0], c]));
  return { xml, root: doc.testsuites, suites: doc.testsuites.testsuite, cases };
}

describe('renderJUnit', () => {
  it('totals the run on <testsuites>, its skips on each <testsuite> (junit-10.xsd has no skipped on <testsuites>)', () => {
    const { root, suites } = parse();
    expect(root).toMatchObject({ '@_tests': '5', '@_failures': '1', '@_errors': '1', '@_time': '1.234' });
    expect(root).not.toHaveProperty('@_skipped');
    expect(suites.map((s) => s['@_skipped'])).toEqual(['0', '0', '1', '0']);
  });

  it('has one <testsuite> per area with its own counts', () => {
    const { suites } = parse();
    const counts = suites.map((s) => [s['@_name'], s['@_tests'], s['@_failures'], s['@_errors'], s['@_skipped'], s.testcase.length]);
    expect(counts).toEqual([
      ['channels', '2', '0', '0', '0', 2],
      ['permissions', '1', '1', '0', '0', 1],
      ['events', '1', '0', '0', '1', 1],
      ['topics', '1', '0', '1', '0', 1],
    ]);
    // Wall-clock: the two channels scenarios ran 0–12 ms and 5–14 ms after the start (in parallel), not 21 ms.
    expect(suites[0]!['@_time']).toBe('0.014');
  });

  it('names each testcase "id: title" with the area as classname, markup intact after parsing', () => {
    const { cases } = parse();
    const c = cases.get('permissions/guest-cannot-subscribe')!;
    expect(c['@_classname']).toBe('permissions');
    expect(c['@_name']).toBe('permissions/guest-cannot-subscribe: a guest cannot subscribe <b>others</b>');
    expect(c['@_time']).toBe('0.020');
  });

  it('keeps failure, error and skipped apart', () => {
    const { cases } = parse();
    const kinds = (id: string) => ['failure', 'error', 'skipped'].filter((k) => cases.get(id)![k] !== undefined);
    expect(kinds('permissions/guest-cannot-subscribe')).toEqual(['failure']);
    expect(kinds('topics/empty-topic')).toEqual(['error']);
    expect(kinds('events/queue-expiry')).toEqual(['skipped']);
    expect(kinds('channels/list-public')).toEqual([]);
    expect(kinds('channels/update-name')).toEqual([]);
  });

  it('gives a failure its findings and the first failing check as message, and every failing check in its text', () => {
    const { cases } = parse();
    const failure = (cases.get('permissions/guest-cannot-subscribe')!.failure as Node[])[0]!;
    expect(failure['@_message']).toBe('F1, F2: [R4.8-1] expected 400 BAD_REQUEST: status 200, expected 400');
    const text = failure['#text']!;
    expect(text).toMatch(/^F1 \[?.*\(1 scenario\(s\)\)\nF2 /);
    expect(text).toContain('✗ (F1) [R4.8-1] expected 400 BAD_REQUEST');
    // The control character of the second check cannot be carried by XML 1.0: replaced, not fatal.
    expect(text).toContain('does not match the OpenAPI response schema \uFFFD');
    expect(text).not.toContain('the channel list is unchanged');
  });

  it('gives an error its reason and a skip its reason', () => {
    const { cases } = parse();
    expect((cases.get('topics/empty-topic')!.error as Node[])[0]!['@_message']).toBe(
      'F3: could not set up: create channel failed: 500 <html>oops</html>',
    );
    expect((cases.get('events/queue-expiry')!.skipped as Node[])[0]!['@_message']).toBe('waits in real time: run with --slow');
  });

  it("lists each scenario's rules and tags in its <system-out> (junit-10.xsd has no <properties> on a <testcase>)", () => {
    const { cases } = parse();
    const out = (id: string) => String(cases.get(id)!['system-out']);
    expect(out('permissions/guest-cannot-subscribe')).toMatch(/^rules: R4\.8-1, R4\.8-2\n#0 /);
    expect(out('channels/list-public')).toBe('rules: R4.15-1\ntags: listing');
    expect(cases.get('channels/list-public')).not.toHaveProperty('properties');
  });

  it('escapes bodies and never carries a credential', () => {
    const { xml } = parse();
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain(HOSTILE);
    expect(xml).not.toMatch(/authorization|Basic /i);
  });
});
