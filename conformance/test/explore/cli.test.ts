import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { ExploreResult } from '../../src/explore/types.js';
import { junitSchemaErrors } from '../report/junit-schema.js';
import { fakeApi, useLoopbackServer } from '../helpers/loopback.js';

/**
 * `teamchat conform --explore` before and around the run, against a loopback fake API (never the mock): the
 * options it refuses (exit 2, no report), a target on which explore cannot build its world (exit 2, the
 * reports say why), a replay file that is no script. A real run and replay: mock-server/test/conformance/explore-cli.test.ts.
 */
const fake = useLoopbackServer(fakeApi());
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'explore-cli-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function conform(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['conform', '--report-dir', dir, ...args], {
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
  });
  return { code, out: out.join(''), err: err.join('') };
}

describe('conform --explore options', () => {
  it.each([
    [['--explore', '--grep', 'x'], '--grep is an option of the scenarios, not of --explore'],
    [['--explore', '--workers', '2', '--shuffle', '--bail'], '--workers, --shuffle, --bail are options of the scenarios'],
    [['--explore', '--rules', 'R1', '--max-failures', '3'], '--rules, --max-failures are options of the scenarios'],
    [['--duration', '10s'], '--duration only makes sense with --explore'],
    [['--steps', '5', '--users', '3'], '--steps, --users only make sense with --explore'],
    [['--replay', 'f.json'], '--replay only makes sense with --explore'],
    [['--explore', '--replay', 'f.json', '--seed', '4', '--steps', '3'], '--steps, --seed: a --replay runs its script'],
    [['--explore', '--duration', 'soon'], "option '--duration <time>' argument 'soon' is invalid"],
    [['--explore', '--users', '1'], 'Must be an integer from 2 to 7'],
    [['--explore', '--users', '9'], 'Must be an integer from 2 to 7'],
    [['--explore', '--steps', '0'], 'Must be a positive integer'],
  ])('%j is a usage error: exit 2, no report', async (args, message) => {
    const { code, err } = await conform(['--target', fake.url, ...args]);
    expect(err).toContain(message);
    expect(err).toContain('(teamchat conform --help lists the options)');
    expect(code).toBe(2);
    expect(await readdir(dir)).toEqual([]);
  });

  it('lists the explore options and their exit codes in --help', async () => {
    const { code, out } = await conform(['--help']);
    expect(code).toBe(0);
    for (const flag of ['--explore', '--duration <time>', '--steps <n>', '--users <k>', '--replay <file>']) expect(out).toContain(flag);
    expect(out).toContain('With --explore: 0 no finding');
  });
});

describe('conform --explore that cannot run', () => {
  it('a target where the world cannot be built: exit 2 at once, the three reports say why, no finding script', async () => {
    await writeFile(join(dir, 'explore-finding.json'), '{"left": "by an older run"}');
    const { code, out, err } = await conform(['--explore', '--target', fake.url, '--steps', '3', '--seed', '11']);
    expect(out).toContain('explore: seed 11 (repeat this run with --seed 11)');
    expect(out).toContain('no finding before it stopped');
    expect(err).toMatch(/creating channel "[^"]+": answered 404/);
    expect(code).toBe(2);
    expect((await readdir(dir)).sort()).toEqual(['explore-junit.xml', 'explore.html', 'explore.json']);
    const result = JSON.parse(await readFile(join(dir, 'explore.json'), 'utf8')) as ExploreResult;
    expect(result.stopped?.message).toMatch(/answered 404/);
    expect([result.seed, result.steps, result.findings]).toEqual([11, 0, []]);
    const junit = await readFile(join(dir, 'explore-junit.xml'), 'utf8');
    expect(await junitSchemaErrors(junit)).toEqual([]);
    expect(junit).toMatch(/<error message="creating channel[^"]*answered 404/);
    // No rule checked anything: none is reported as held.
    expect(junit.match(/<skipped message="no step of this run was checked by this rule"\/>/g)).toHaveLength(5);
    expect(await readFile(join(dir, 'explore.html'), 'utf8')).toMatch(/<p id="stopped"[^>]*>.*answered 404/);
  });

  it('an unreachable target: exit 2, the reports name it', async () => {
    const { code, err } = await conform(['--explore', '--target', 'http://127.0.0.1:9', '--steps', '3', '--reporter', 'json']);
    expect(code).toBe(2);
    expect(err).toContain('teamchat conform: ');
    const result = JSON.parse(await readFile(join(dir, 'explore.json'), 'utf8')) as ExploreResult;
    expect(result.stopped?.kind).toBe('not-started');
    expect(await readdir(dir)).toEqual(['explore.json']);
  });

  it.each([
    ['not JSON', 'nope', 'is not JSON'],
    ['another format', '{"format": "teamchat-explore-script/9"}', 'format is "teamchat-explore-script/9"'],
  ])('a replay file that is %s: exit 2, the reason, the file kept', async (_what, text, reason) => {
    const file = join(dir, 'explore-finding.json');
    await writeFile(file, text);
    const { code, err } = await conform(['--explore', '--target', fake.url, '--replay', file]);
    expect(err).toContain(`cannot replay ${file}: ${file}`);
    expect(err).toContain(reason);
    expect(code).toBe(2);
    expect(await readFile(file, 'utf8')).toBe(text);
  });
});
