import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { listenProblem } from '../common.js';
import { main } from '../teamchat.js';

/**
 * One behaviour for every `teamchat` command: usage errors are one line and a hint with exit
 * code 2, listing the valid values; listen errors say what to do; a closed pipe ends the output quietly.
 * Processes run the sources through tsx (never a possibly stale dist/; compiled.test.ts covers that).
 */

const SOURCE_CLI = ['--import', 'tsx', 'cli/teamchat.ts'];

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) } });
  return { code, out: out.join(''), err: err.join('') };
}

describe('usage errors', () => {
  it.each([
    [
      ['serve', '--port', '99999'],
      "teamchat serve: option '--port <n>' argument '99999' is invalid. A port is a whole number from 0 to 65535 (0: any free port).",
      'teamchat serve',
    ],
    [['serve', '--port', 'http'], 'A port is a whole number from 0 to 65535', 'teamchat serve'],
    [
      ['serve', '--fixture', 'nope'],
      "teamchat serve: option '--fixture <demo|FILE>' argument 'nope' is invalid. No file nope: pass demo or the path of a realm export file.",
      'teamchat serve',
    ],
    [['serve', '--fixture', 'fixtures'], 'fixtures is not a file: pass demo or the path of a realm export file.', 'teamchat serve'],
    [
      ['serve', '--clock', 'fast'],
      "teamchat serve: option '--clock <system|frozen>' argument 'fast' is invalid. Allowed choices are system, frozen.",
      'teamchat serve',
    ],
    [
      ['serve', '--durability', 'maybe'],
      "option '--durability <fsync|write>' argument 'maybe' is invalid. Allowed choices are fsync, write.",
      'teamchat serve',
    ],
    [['serve', '--seed', 'x'], 'The seed must be an integer.', 'teamchat serve'],
    [
      ['serve', '--log-level', 'loud'],
      "teamchat serve: option '--log-level <level>' argument 'loud' is invalid. Allowed choices are silent, info, debug.",
      'teamchat serve',
    ],
    [
      ['serve', '--log-format', 'xml'],
      "teamchat serve: option '--log-format <format>' argument 'xml' is invalid. Allowed choices are pretty, json.",
      'teamchat serve',
    ],
    [
      ['serve', '--rate-limit', 'fast'],
      "teamchat serve: option '--rate-limit [N/S]' argument 'fast' is invalid. A rate limit is N/S, N requests per S seconds (the reference's default: 200/60).",
      'teamchat serve',
    ],
    [['serve', '--rate-limit', '0/60'], "The rate limit's requests must be a whole number from 1 to 10000.", 'teamchat serve'],
    [['serve', '--rate-limit', '200/0'], "The rate limit's seconds must be a whole number from 1 to 86400.", 'teamchat serve'],
    [['serve', '--frobnicate'], "teamchat serve: unknown option '--frobnicate'", 'teamchat serve'],
    [
      ['conform', '--workers', 'x', '--reporter', 'console'],
      "teamchat conform: option '--workers <n>' argument 'x' is invalid. Must be a positive integer.",
      'teamchat conform',
    ],
    [['nope'], "teamchat: unknown command 'nope'", 'teamchat'],
  ])('%j: exit 2, the problem and a one-line hint, no help dump', async (argv, problem, name) => {
    const { code, out, err } = await run(argv);
    expect(code).toBe(2);
    expect(err).toContain(problem);
    expect(err.trim().split('\n')).toEqual([expect.stringContaining(problem), `(${name} --help lists the options)`]);
    expect(err + out).not.toContain('Usage:');
  });

  it('no command at all: one line naming the commands', async () => {
    const { code, err } = await run([]);
    expect(code).toBe(2);
    expect(err).toBe('teamchat: name a command: serve|conform|proxy (teamchat --help describes them)\n');
  });

  it('--version and -V print the package version, exit 0; the help lists the option', async () => {
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) expect(await run([flag])).toEqual({ code: 0, out: `${version}\n`, err: '' });
    expect((await run(['--help'])).out).toMatch(/-V, --version\s+print the version/);
  });

  it('the help lists the commands, and each command its valid values', async () => {
    const top = await run(['--help']);
    expect(top.code).toBe(0);
    expect(top.out).toMatch(/serve\s+run the stateful mock server/);
    expect(top.out).toMatch(/conform\s+run the conformance suite/);
    expect(top.out).toMatch(/proxy\s+forward requests to a Team Chat server and check every exchange/);
    const serve = await run(['serve', '--help']);
    expect(serve.code).toBe(0);
    expect(serve.out).toContain('--fixture <demo|FILE>');
    expect(serve.out).toContain('--clock <system|frozen>');
    expect(serve.out).toContain('--durability <fsync|write>');
    // Commander wraps the help to the terminal's width: compare it with its line breaks as spaces.
    const help = serve.out.replace(/\s+/g, ' ');
    expect(help).toContain(
      '--log-level <level> request log: silent (none), info (a line per request), debug (with bodies, credentials redacted) (choices: "silent", "info", "debug", default: "info")',
    );
    expect(help).toContain(
      '--log-format <format> request log format (default: pretty on a terminal, else json) (choices: "pretty", "json")',
    );
    expect(help).toContain(
      '--rate-limit [N/S] limit each user to N requests per S seconds, as the reference server does (no value: 200/60; default: no limit)',
    );
  });
});

describe('listen problems', () => {
  it.each([
    [{ code: 'EADDRINUSE' }, 9991, 'port 9991 is in use: stop the other server or pass --port N (--port 0 picks a free one)'],
    [
      { code: 'EACCES' },
      80,
      'no permission to listen on port 80 (ports below 1024 need administrator rights): pass --port N with N from 1024 to 65535',
    ],
    [
      { code: 'EADDRNOTAVAIL' },
      9991,
      '10.9.9.9 is not an address of this machine: pass --host 127.0.0.1 (or --host 0.0.0.0 for every interface)',
    ],
    [{ code: 'EMFILE' }, 9991, null],
  ])('%j says what to do', (error, port, expected) => {
    expect(listenProblem(error, '10.9.9.9', port)).toBe(expected);
  });

  it('teamchat serve on a port in use: exit 2 and one line saying what to do', { timeout: 60_000 }, async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const dir = await mkdtemp(`${tmpdir()}/teamchat-cli-`);
    try {
      const child = spawnSync(process.execPath, [...SOURCE_CLI, 'serve', '--in-memory', '--port', String(port), '--zuliprc-dir', dir], {
        encoding: 'utf8',
        timeout: 55_000,
      });
      expect(child.status).toBe(2);
      expect(child.stderr).toBe(
        `teamchat serve: port ${port} is in use: stop the other server or pass --port N (--port 0 picks a free one)\n`,
      );
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the process', () => {
  /** Runs `teamchat` with its stdout closed before it writes anything (what `| head -0` does). */
  function closedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [...SOURCE_CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
  }

  it.each(['conform --help', 'serve --help', 'proxy --help', '--help'])(
    'teamchat %s into a closed pipe: no stack trace, exit 0',
    async (line) => {
      expect(await closedPipe(line.split(' '))).toEqual({ code: 0, stderr: '' });
    },
  );
});

describe('the request log of a serve process', () => {
  /**
   * Starts `teamchat serve` with the options, sends one bad request once the banner is out, stops it with SIGTERM
   * once `logged` (the output so far) says the request's line is out.
   */
  async function serveOnce(
    options: string[],
    logged: (stdout: string) => boolean,
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const dir = await mkdtemp(`${tmpdir()}/teamchat-log-`);
    const child = spawn(process.execPath, [...SOURCE_CLI, 'serve', '--in-memory', '--port', '0', '--zuliprc-dir', dir, ...options], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    try {
      while (!stdout.includes('zuliprc files for stock clients:')) {
        if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}: ${stdout}${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const url = /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
      const answer = await fetch(`${url}/api/v1/users/me`, {
        headers: { authorization: `Basic ${Buffer.from('who@nowhere:nope').toString('base64')}` },
      });
      expect(answer.status).toBe(401);
      await answer.text();
      // The line follows the answer by at most a moment (written when the connection is done with it); a level that
      // writes none waits that moment, so that a line would have had the time to come.
      for (let waited = 0; !logged(stdout) && waited < 300; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      child.kill('SIGTERM');
      return { code: await closed, stdout, stderr };
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  }

  const jsonLines = (stdout: string) =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('json (the default off a terminal): the banner, a line per request, a line on shutdown', { timeout: 60_000 }, async () => {
    const { code, stdout, stderr } = await serveOnce([], (out) => out.includes('"/api/v1/users/me"'));
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^teamchat-kit mock server listening on http:\/\/127\.0\.0\.1:\d+\n/);
    const [request, shutdown, ...rest] = jsonLines(stdout);
    expect(request).toMatchObject({ method: 'GET', path: '/api/v1/users/me', status: 401, user: null, error: { code: 'INVALID_API_KEY' } });
    expect(shutdown).toMatchObject({ signal: 'SIGTERM', state: 'memory', msg: 'teamchat serve: stopped on SIGTERM; state: memory' });
    expect(rest).toEqual([]);
  });

  it('silent: the banner and the shutdown line, no request line', { timeout: 60_000 }, async () => {
    const { code, stdout } = await serveOnce(['--log-level', 'silent'], () => false);
    expect(code).toBe(0);
    expect(stdout).toContain('zuliprc files for stock clients:');
    expect(jsonLines(stdout)).toEqual([]);
    expect(stdout).not.toContain('/api/v1/users/me');
    // The shutdown line is a plain line, like the banner: a script sees the state was saved at any level.
    expect(stdout).toMatch(/\ntry: curl [^\n]+\nteamchat serve: stopped on SIGTERM; state: memory\n$/);
  });

  it('--log-format pretty off a terminal: human lines, no JSON', { timeout: 60_000 }, async () => {
    const { code, stdout } = await serveOnce(['--log-format', 'pretty'], (out) => out.includes('GET /api/v1/users/me 401'));
    expect(code).toBe(0);
    expect(jsonLines(stdout)).toEqual([]);
    expect(stdout).toMatch(/\] INFO: - - GET \/api\/v1\/users\/me 401 [\d.]+ms INVALID_API_KEY: Malformed API key/);
    expect(stdout).toMatch(/\] INFO: teamchat serve: stopped on SIGTERM; state: memory\n$/);
  });
});
