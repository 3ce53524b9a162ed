import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRules } from '../src/catalogue.js';
import { ambientChecks } from '../src/checks/ambient.js';
import { ResponseSchemas } from '../src/openapi.js';
import { ContractFacts } from '../src/proxy/contract.js';
import { Judge } from '../src/proxy/judge.js';
import { formatProblems, type ReferenceAnswer, type ReferenceAnswerFile } from './reference-answers/_format.js';

/**
 * The judge never fails the reference server's documented answers: every answer of reference-answers/*.json
 * goes through the proxy's judge at its feature level (announced first, by a server-settings answer, as the
 * proxy learns it) and through the suite's ambient checks at that level. Nothing may be reported but the spec's
 * deliberate differences the answer names, each labelled as such.
 */
const DIR = fileURLToPath(new URL('./reference-answers/', import.meta.url));
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json') && !f.startsWith('_'))
  .sort()
  .map((name) => ({ name, content: JSON.parse(readFileSync(join(DIR, name), 'utf8')) as unknown }));

let schemas: ResponseSchemas;
let judge: Judge;
beforeAll(async () => {
  const [s, facts, catalogue] = await Promise.all([ResponseSchemas.load(), ContractFacts.load(), loadRules()]);
  schemas = s;
  judge = new Judge(schemas, facts, catalogue);
}, 60_000);

/** The level the proxy would judge the answer at: the one a server-settings answer announced before it. */
function announced(level: number): number | null {
  return judge.announcedLevel({
    method: 'GET',
    path: '/api/v1/server_settings',
    params: {},
    status: 200,
    body: { result: 'success', msg: '', zulip_feature_level: level },
  });
}

/** Every finding of the judge and of the ambient checks, with whether it is labelled deliberate. */
function reported(a: ReferenceAnswer): { message: string; deliberate: boolean }[] {
  const level = announced(a.level);
  expect(level, 'the announcement is read as the answer’s level').toBe(a.level);
  const verdict = judge.judge({ method: a.method, path: a.path, params: a.params ?? {}, status: a.status, body: a.body }, level);
  const exchange = {
    method: a.method,
    path: a.path,
    as: null,
    params: a.params ?? {},
    status: a.status,
    headers: {},
    body: a.body,
    ms: 0,
    curl: '',
  };
  return [
    ...verdict.findings.map((f) => ({ message: `judge: ${f.message}`, deliberate: f.kind === 'deliberate' })),
    ...ambientChecks([exchange], schemas, level)
      .filter((c) => !c.ok)
      .map((c) => ({ message: `ambient: ${c.message}`, deliberate: c.kind === 'deliberate' })),
  ];
}

describe('the reference-answer files', () => {
  it('are there, well-formed, with unique answer IDs', () => {
    expect(files.map((f) => f.name)).toContain('judge.json');
    const ids = new Map<string, string>();
    for (const { name, content } of files) {
      expect(formatProblems(content), name).toEqual([]);
      for (const a of (content as ReferenceAnswerFile).answers) {
        expect(ids.get(a.id), `${a.id} of ${name} is also in`).toBeUndefined();
        ids.set(a.id, name);
      }
    }
  });

  it('a malformed file is refused, saying where', () => {
    const good = {
      $comment: 'c',
      answers: [{ id: 'a-1', level: 200, source: 'reference x', method: 'GET', path: '/api/v1/x', status: 200, body: {} }],
    };
    expect(formatProblems(good)).toEqual([]);
    const broken = (answer: Record<string, unknown>) => formatProblems({ ...good, answers: [{ ...good.answers[0], ...answer }] });
    expect(broken({ level: '200' })).toEqual(['/answers/0/level must be integer']);
    expect(broken({ level: 9999 })).toEqual([expect.stringMatching(/^\/answers\/0\/level must be <= \d+$/)]);
    expect(broken({ params: { n: 1 } })).toEqual(['/answers/0/params/n must be string']);
    expect(broken({ path: '/api/v1/x?y=1' })).toEqual([expect.stringMatching(/^\/answers\/0\/path must match pattern/)]);
    expect(broken({ source: 'my notes' })).toEqual([expect.stringMatching(/^\/answers\/0\/source must match pattern/)]);
    expect(broken({ stauts: 200 })).toEqual(['/answers/0 must NOT have additional properties']);
    expect(formatProblems({ answers: [] })).toEqual([
      "/ must have required property '$comment'",
      '/answers must NOT have fewer than 1 items',
    ]);
  });
});

describe.each(files.filter((f) => formatProblems(f.content).length === 0))('$name', ({ content }) => {
  it.each((content as ReferenceAnswerFile).answers.map((a) => [a.id, a] as const))('%s', (_id, a) => {
    const words = a.deliberate ?? [];
    const found = reported(a);
    const unexpected = found.filter((f) => !(f.deliberate && words.some((w) => f.message.includes(w))));
    expect(
      unexpected.map((f) => f.message),
      `${a.source}: only the spec's deliberate differences may be reported`,
    ).toEqual([]);
    for (const w of words)
      expect(
        found.some((f) => f.deliberate && f.message.includes(w)),
        `${a.source}: the deliberate difference on ${w} is reported, labelled as such`,
      ).toBe(true);
  });
});
