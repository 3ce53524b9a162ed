import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../teamchat.js';

/**
 * The CI recipes (docs/ci.md) are copied into other repositories as they are: they must be valid YAML, use only
 * options the commands have, and publish the files the commands write.
 */

const recipes = await readFile(new URL('../../docs/ci.md', import.meta.url), 'utf8');
const blocks = [...recipes.matchAll(/```yaml\n([^]*?)```/g)].map((m) => m[1]!);

type Step = { run?: string; uses?: string; with?: Record<string, unknown>; env?: Record<string, string> };
type GitHub = { jobs: Record<string, { steps: Step[] }> };
type GitLab = Record<string, { script: string[]; artifacts: { when: string; paths: string[]; reports?: { junit: string } } }>;

/** The help text of `teamchat <command>`. */
async function help(command: string): Promise<string> {
  const out: string[] = [];
  expect(await main([command, '--help'], { stdout: { write: (s: string) => out.push(s) }, stderr: { write: () => undefined } })).toBe(0);
  return out.join('');
}

/** Each `npx teamchat …` command of a script, as its words (up to a redirection or the end of the line). */
const commands = (script: string): string[][] => [...script.matchAll(/npx teamchat ([^\n>&]*)/g)].map((m) => m[1]!.trim().split(/\s+/));

/** The value after an option in a command's words. */
const option = (words: string[], name: string): string | undefined => words[words.indexOf(name) + 1];

describe('the CI recipes', () => {
  it('are two YAML files: a GitHub Actions workflow and a GitLab CI file', () => {
    expect(blocks).toHaveLength(2);
    const github = parse(blocks[0]!) as GitHub;
    const gitlab = parse(blocks[1]!) as GitLab;
    expect(Object.keys(github.jobs)).toEqual(['client-against-mock', 'conformance']);
    expect(Object.keys(gitlab)).toEqual(['client-against-mock', 'conformance']);
  });

  it('run `teamchat serve` and `teamchat conform` with options those commands have', async () => {
    const text = blocks.join('\n');
    const found = commands(text);
    expect(found.map((c) => c[0]).sort()).toEqual(['conform', 'conform', 'serve', 'serve']);
    for (const words of found) {
      const usage = await help(words[0]!);
      for (const flag of words.filter((w) => w.startsWith('--'))) expect(usage, `${words[0]} ${flag}`).toContain(`${flag} `);
    }
  });

  it('wait for the port the mock listens on, and log in with the zuliprc it writes', () => {
    const github = parse(blocks[0]!) as GitHub;
    const gitlab = parse(blocks[1]!) as GitLab;
    const scripts = [
      github.jobs['client-against-mock']!.steps.map((s) => s.run ?? '').join('\n'),
      gitlab['client-against-mock']!.script.join('\n'),
    ];
    for (const script of scripts) {
      const [serve] = commands(script);
      expect(script).toContain(`http://127.0.0.1:${option(serve!, '--port')}/api/v1/server_settings`);
      expect(script).toMatch(/&\n/); // started in the background, the readiness check after it
    }
    expect(github.jobs['client-against-mock']!.steps.find((s) => s.env?.ZULIPRC)!.env!.ZULIPRC).toBe('.teamchat/zuliprc-member');
    expect(gitlab['client-against-mock']!.script.join('\n')).toContain('ZULIPRC=.teamchat/zuliprc-member npm test');
    for (const [serve] of scripts.map(commands)) expect(option(serve!, '--zuliprc-dir')).toBe('.teamchat');
  });

  it('publish, always, the JUnit file and the reports where `conform --report-dir` writes them', () => {
    const github = parse(blocks[0]!) as GitHub;
    const gitlab = parse(blocks[1]!) as GitLab;
    const steps = github.jobs.conformance!.steps;
    const dir = option(commands(steps.map((s) => s.run ?? '').join('\n'))[0]!, '--report-dir')!;
    const junit = steps.find((s) => s.uses?.startsWith('mikepenz/action-junit-report'))!;
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    expect(junit.with!.report_paths).toBe(`${dir}/junit.xml`);
    expect(upload.with!.path).toBe(`${dir}/`);
    expect([junit, upload].map((s) => (s as { if?: string }).if)).toEqual(['always()', 'always()']);
    const job = gitlab.conformance!;
    expect(option(commands(job.script.join('\n'))[0]!, '--report-dir')).toBe(dir);
    expect(job.artifacts).toMatchObject({ when: 'always', paths: [`${dir}/`], reports: { junit: `${dir}/junit.xml` } });
  });
});
