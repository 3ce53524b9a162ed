import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { AMBIENT_RULES } from '../src/checks/ambient.js';
import {
  compareSections,
  loadCatalogue,
  loadCompanionCatalogue,
  loadRules,
  parseCatalogue,
  parseCompanionRules,
  RULE_AREAS,
  RULE_ID,
  sectionTitle,
  SPEC_SECTIONS,
} from '../src/catalogue.js';
import type { RuleDef } from '../src/model.js';

// The spec is not part of this repository: CI (and the developers' machines) have the shared folder beside
// it. In a plain clone the checks against the spec text are skipped, and the run says so once.
const SPEC_PATH = path.resolve(fileURLToPath(new URL('../../../shared/spec/team-chat-api.md', import.meta.url)));
const SPEC_FOUND = existsSync(SPEC_PATH);
if (!SPEC_FOUND) console.warn(`catalogue.test.ts: ${SPEC_PATH} not found; the catalogue's sentences were NOT checked against the spec.`);
const itWithSpec = it.skipIf(!SPEC_FOUND);

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

interface SpecLine {
  index: number;
  section: string | null;
  text: string;
  /** For a table row (not the separator): its non-empty cells, trimmed and joined with " | ". */
  row: string | null;
}

/** The spec as lines tagged with their numbered section (unnumbered subheadings stay in their parent). */
function readSpec(): { lines: SpecLine[]; headings: Map<string, string> } {
  const headings = new Map<string, string>();
  const lines: SpecLine[] = [];
  let section: string | null = null;
  readFileSync(SPEC_PATH, 'utf8')
    .split('\n')
    .forEach((raw, index) => {
      const heading = /^#{2,3} (\d+(?:\.\d+)?)\.? (.+)$/.exec(raw);
      if (heading) {
        section = heading[1]!;
        headings.set(section, heading[2]!.trim());
        return;
      }
      const text = collapse(raw);
      if (!text || text.startsWith('#')) return;
      const isRow = text.startsWith('|') && !/^\|[-| ]+\|$/.test(text);
      const row = isRow
        ? text
            .slice(1, text.endsWith('|') ? -1 : undefined)
            .split('|')
            .map((c) => c.trim())
            .filter(Boolean)
            .join(' | ')
        : null;
      lines.push({ index, section, text, row });
    });
  return { lines, headings };
}

/**
 * Where a rule's text sits in the spec: a whole table row (its cells joined), the leading cells of a
 * row up to a sentence end, or a verbatim piece of one line (a sentence, rule, list item or cell).
 */
function locate(text: string, lines: readonly SpecLine[]): { line: SpecLine; offset: number } | undefined {
  const t = collapse(text);
  for (const line of lines) {
    if (line.row !== null && (line.row === t || (t.includes(' | ') && t.endsWith('.') && line.row.startsWith(t))))
      return { line, offset: 0 };
    if (t.includes(' | ')) continue; // a row quote must line up with the row's cells
    const offset = line.text.indexOf(t);
    if (offset >= 0) return { line, offset };
  }
  return undefined;
}

const idParts = (id: string) => {
  const m = RULE_ID.exec(id);
  return m ? { section: m[1]!, n: Number(m[2]) } : null;
};

describe('the rule catalogue (conformance/rules/catalogue.json)', () => {
  let rules: RuleDef[];
  let spec: ReturnType<typeof readSpec>;
  beforeAll(async () => {
    rules = await loadCatalogue();
    if (SPEC_FOUND) spec = readSpec();
  });

  it('covers the spec broadly (every normative statement is a few hundred rules)', () => {
    expect(rules.length).toBeGreaterThanOrEqual(250);
    expect(rules.length).toBeLessThanOrEqual(400);
  });

  it('has unique, well-formed IDs that name their own section', () => {
    const ids = rules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of rules) {
      expect(r.id, r.id).toMatch(RULE_ID);
      expect(idParts(r.id)?.section, r.id).toBe(r.section);
    }
  });

  it('numbers each section 1..n without gaps, sections in document order', () => {
    const bySection = new Map<string, number[]>();
    for (const r of rules) bySection.set(r.section, [...(bySection.get(r.section) ?? []), idParts(r.id)!.n]);
    for (const [section, ns] of bySection) expect(ns, `section ${section}`).toEqual(ns.map((_, i) => i + 1));
    const order = [...bySection.keys()];
    expect(order).toEqual([...order].sort(compareSections));
  });

  itWithSpec('only names sections the spec has', () => {
    for (const r of rules) expect(spec.headings.has(r.section), `${r.id}: section ${r.section}`).toBe(true);
  });

  itWithSpec('quotes every text verbatim from the spec, inside its own section', () => {
    const missing: string[] = [];
    for (const r of rules) {
      const found = locate(
        r.text,
        spec.lines.filter((l) => l.section === r.section),
      );
      if (!found) missing.push(`${r.id}: ${locate(r.text, spec.lines) ? 'found outside its section' : 'not in the spec'}: ${r.text}`);
    }
    expect(missing).toEqual([]);
  });

  itWithSpec('keeps document order within each section (§7 puts R7-1 and R7-2 first on purpose)', () => {
    const out: string[] = [];
    const sections = new Set(rules.map((r) => r.section));
    for (const section of sections) {
      if (section === '7') continue;
      const lines = spec.lines.filter((l) => l.section === section);
      let last = { line: -1, offset: -1, id: '' };
      for (const r of rules.filter((x) => x.section === section)) {
        const at = locate(r.text, lines);
        if (!at) continue; // reported by the verbatim test
        const pos = { line: at.line.index, offset: at.offset, id: r.id };
        if (pos.line < last.line || (pos.line === last.line && pos.offset <= last.offset))
          out.push(`${r.id} comes before ${last.id} in the spec`);
        last = pos;
      }
    }
    expect(out).toEqual([]);
  });

  it('numbers §7 as opening sentence, STREAM_DOES_NOT_EXIST, then the remaining rows in order', () => {
    const s7 = rules.filter((r) => r.section === '7');
    expect(s7.map((r) => r.text.split(' | ')[0])).toEqual([
      'An error response is a JSON object with result error, code (string), msg (human-readable string); some carry extra fields.',
      'STREAM_DOES_NOT_EXIST',
      'BAD_REQUEST',
      'NOT_FOUND',
      'BAD_EVENT_QUEUE_ID',
      'UNAUTHORIZED_PRINCIPAL',
      'BAD_REQUEST is returned with HTTP status 400 where the interface states a status.',
    ]);
  });

  it('holds the rules the ambient checks cite, with their statements', () => {
    const text = (id: string) => rules.find((r) => r.id === id)?.text;
    expect(text(AMBIENT_RULES.envelope)).toBe(
      'Response body | A JSON object. It always has result (success or error) and msg (string; empty on success).',
    );
    expect(text(AMBIENT_RULES.success)).toBe(
      'Success | result is success and msg is an empty string. Further fields are listed per operation.',
    );
    expect(text(AMBIENT_RULES.error)).toBe(
      'An error response is a JSON object with result error, code (string), msg (human-readable string); some carry extra fields.',
    );
    expect(text(AMBIENT_RULES.streamExtra)).toBe(
      'STREAM_DOES_NOT_EXIST | Unknown channel in scheduled-message operations or unsubscribe | stream_id (integer) or stream (string name)',
    );
    expect(text('R1-1')?.startsWith('Request encoding | ')).toBe(true);
  });

  it('uses only the allowed areas', () => {
    for (const r of rules) expect(RULE_AREAS as readonly string[], r.id).toContain(r.area);
  });

  it('quotes no "not shown" statement', () => {
    expect(rules.filter((r) => /not shown/.test(r.text)).map((r) => r.id)).toEqual([]);
  });

  const required = ['1', '2.6', '2.7', '3', ...Array.from({ length: 21 }, (_, i) => `4.${i + 1}`), '5', '6', '7', '8', '9'];
  it.each(required)('has at least one rule for §%s', (section) => {
    expect(rules.filter((r) => r.section === section).length).toBeGreaterThanOrEqual(1);
  });

  it('has one §9 rule per level the versioning list states, and the deprecation list', () => {
    const s9 = rules.filter((r) => r.section === '9').map((r) => r.text);
    for (const level of [167, 184, 248, 315, 333, 334, 356, 370, 407, 412])
      expect(
        s9.filter((t) => t.startsWith(`level ${level} `)),
        `level ${level}`,
      ).toHaveLength(1);
    expect(s9.some((t) => t.startsWith('Deprecated: '))).toBe(true);
    // 208 and 362 are stated in §4.8, §4.16 and §7, not in §9's list.
    for (const level of [208, 362])
      expect(
        rules.some((r) => r.text.includes(`feature level ${level}`)),
        `level ${level}`,
      ).toBe(true);
  });
});

describe('sectionTitle', () => {
  itWithSpec('gives the spec heading of every numbered section, and knows no other section', () => {
    const { headings } = readSpec();
    expect([...SPEC_SECTIONS]).toEqual([...headings.keys()]);
    for (const [section, title] of headings) expect(sectionTitle(section), section).toBe(title);
    expect(sectionTitle('4.22')).toBeUndefined();
    expect(sectionTitle('toString')).toBeUndefined();
  });
});

describe('parseCatalogue', () => {
  const ok = { id: 'R4.8-1', section: '4.8', area: 'subscriptions', text: 'x' };
  it('returns the rules in file order', () => {
    const rules = parseCatalogue({ rules: [ok, { ...ok, id: 'R1-1', section: '1', area: 'conventions' }] });
    expect(rules.map((r) => r.id)).toEqual(['R4.8-1', 'R1-1']);
  });

  it.each([
    ['no rules array', { $comment: 'x' }, /"rules" array/],
    ['an array at the top', [ok], /"rules" array/],
    ['a non-object entry', { rules: ['R1-1'] }, /rules\[0\] is not an object/],
    ['a missing text', { rules: [{ id: 'R1-1', section: '1', area: 'conventions' }] }, /rules\[0\]\.text must be a non-empty string/],
    ['an empty text', { rules: [{ ...ok, text: '  ' }] }, /rules\[0\]\.text must be a non-empty string/],
    ['a number as section', { rules: [{ ...ok, section: 4.8 }] }, /rules\[0\]\.section must be a non-empty string/],
    ['an unknown field', { rules: [{ ...ok, note: 'x' }] }, /unknown field\(s\) note/],
    ['a malformed ID', { rules: [{ ...ok, id: 'R4.8-0' }] }, /malformed ID "R4\.8-0"/],
    ['an ID without R', { rules: [{ ...ok, id: '4.8-1' }] }, /malformed ID/],
    ['an ID of another section', { rules: [{ ...ok, id: 'R4.7-1' }] }, /does not belong to section "4\.8"/],
    ['a section the spec lacks', { rules: [{ ...ok, id: 'R4.22-1', section: '4.22' }] }, /section 4\.22, which the spec does not have/],
    ['an unknown area', { rules: [{ ...ok, area: 'misc' }] }, /unknown area "misc"/],
    ['a duplicate ID', { rules: [ok, { ...ok, text: 'y' }] }, /rules\[1\]: duplicate rule ID R4\.8-1/],
  ])('rejects %s', (_name, data, message) => {
    expect(() => parseCatalogue(data)).toThrow(message);
  });

  it('names the file when loading fails', async () => {
    await expect(loadCatalogue('/nonexistent/catalogue.json')).rejects.toThrow(/rule catalogue \/nonexistent\/catalogue\.json/);
  });
});

describe('the companion catalogue (conformance/rules/companion/)', () => {
  const ok = { id: 'C.history-1', section: 'GET /messages', area: 'history', text: 'x', source: 'https://example.org/api/get-messages' };
  it('marks its rules as the companion tier with their source (page and level), in file order', () => {
    const rules = parseCompanionRules({ rules: [ok, { ...ok, id: 'C.history-2', level: 229 }] }, 'history');
    const source = { kind: 'reference', operation: 'get-messages', url: ok.source };
    expect(rules).toEqual([
      { id: 'C.history-1', section: 'GET /messages', area: 'history', text: 'x', tier: 'companion', source },
      { id: 'C.history-2', section: 'GET /messages', area: 'history', text: 'x', tier: 'companion', source: { ...source, level: 229 } },
    ]);
  });

  it.each([
    ['a spec ID', { rules: [{ ...ok, id: 'R4.8-1' }] }, /malformed ID "R4\.8-1"/],
    ['an ID of another area', { rules: [{ ...ok, id: 'C.uploads-1' }] }, /is not of this file's area history/],
    ['an area field of another area', { rules: [{ ...ok, area: 'uploads' }] }, /is not of this file's area history/],
    ['a missing source', { rules: [{ ...ok, source: undefined }] }, /rules\[0\]\.source must be a non-empty string/],
    ['a source that is not a URL', { rules: [{ ...ok, source: 'the docs' }] }, /source must be an http\(s\) URL/],
    ['an unknown field', { rules: [{ ...ok, tier: 'companion' }] }, /unknown field\(s\) tier/],
    ['a level that is not a positive integer', { rules: [{ ...ok, level: '193' }] }, /rules\[0\]\.level must be a positive integer/],
    ['a duplicate ID', { rules: [ok, ok] }, /duplicate rule ID C\.history-1/],
  ])('rejects %s', (_name, data, message) => {
    expect(() => parseCompanionRules(data, 'history')).toThrow(message);
  });

  it('loads every area file of the folder, each rule of its own area, after the spec rules in loadRules', async () => {
    const rules = await loadCompanionCatalogue();
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    for (const r of rules) expect(r.id.startsWith(`C.${r.area}-`), r.id).toBe(true);
    const all = await loadRules();
    expect(all.filter((r) => r.tier === 'companion')).toEqual(rules);
    expect(all.filter((r) => r.tier === undefined)).toEqual(await loadCatalogue());
  });

  it('reads the .json files of a folder in name order, and names a file it cannot read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'companion-rules-'));
    try {
      await writeFile(join(dir, 'history.json'), JSON.stringify({ rules: [ok] }));
      await writeFile(join(dir, 'README.md'), '# not rules');
      await writeFile(join(dir, 'zz.json'), JSON.stringify({ rules: [{ ...ok, id: 'C.zz-1', area: 'zz' }] }));
      expect((await loadCompanionCatalogue(dir)).map((r) => r.id)).toEqual(['C.history-1', 'C.zz-1']);
      await writeFile(join(dir, 'broken.json'), '{');
      await expect(loadCompanionCatalogue(dir)).rejects.toThrow(/companion rules .*broken\.json/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
