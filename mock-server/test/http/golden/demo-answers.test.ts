import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../../src/app.js';
import { call, credentials, startTestServer } from '../../helpers/test-server.js';
import { goldenAnswers, type GoldenAnswer } from './answers.js';

/**
 * The read paths were rewritten (indexes instead of scans, find-my-way instead of express routes, a leaner
 * pipeline, demo realms from a template) with the promise that no answer changes. These answers
 * were recorded from the server before that change (commit 7821bd3, `record.ts`); an intended change of
 * an answer is recorded again with `npx tsx mock-server/test/http/golden/record.ts . <this folder>/demo-answers.json`.
 */
let server: MockServer;
let recorded: GoldenAnswer[];
let now: GoldenAnswer[];

beforeAll(async () => {
  recorded = JSON.parse(await readFile(new URL('./demo-answers.json', import.meta.url), 'utf8')) as GoldenAnswer[];
  server = await startTestServer();
  now = await goldenAnswers(server, { call, credentials });
});
afterAll(() => server.close());

describe('the demo realm answers as recorded before the read paths were rewritten', () => {
  it('asks the same requests', () => {
    expect(now.map((a) => a.name)).toEqual(recorded.map((a) => a.name));
    // Most are successes: a set of refusals would compare little of the read paths.
    expect(recorded.filter((a) => a.status === 200).length).toBeGreaterThan(recorded.length * 0.8);
  });

  it('answers every request byte for byte as recorded', () => {
    const changed = now.filter((a, i) => a.status !== recorded[i]?.status || a.text !== recorded[i]?.text);
    expect(
      changed.map(
        (a) =>
          `${a.name}: ${changedFields(
            a,
            recorded.find((r) => r.name === a.name),
          )}`,
      ),
    ).toEqual([]);
  });
});

/** The top-level fields an answer changed, so that a failure says what moved. */
function changedFields(now: GoldenAnswer, was: GoldenAnswer | undefined): string {
  if (was === undefined || now.status !== was.status) return `status ${now.status}, was ${was?.status}`;
  const [a, b] = [JSON.parse(now.text) as Record<string, unknown>, JSON.parse(was.text) as Record<string, unknown>];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).join(', ') || 'key order';
}
