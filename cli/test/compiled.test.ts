import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDist } from './helpers/build.js';
import { processTools } from './helpers/processes.js';
import { proxySignalTests } from './proxy-signals.js';

/**
 * The compiled program (issue 16, item 4): bin/teamchat.js and the npm scripts run dist/, never TypeScript.
 * Every other test runs the sources (vitest, or `node --import tsx`), so none depends on a stale dist/; this
 * file alone builds dist/ first (an incremental tsc, quick when dist/ is current) and is the only reader of it.
 * Each program here runs with a loader hook that fails on tsx or any .ts file, from a directory outside
 * the checkout, so the files read at run time must be found from the package root.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin/teamchat.js');
const noTypeScript = fileURLToPath(new URL('./fixtures/no-typescript.mjs', import.meta.url));
const env = { ...process.env, NODE_OPTIONS: `--import ${noTypeScript}` };

let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  // Serialised with the other files that run the compiled build (cli/test/helpers/build.ts).
  const build = buildDist();
  expect(build.output).toBe('');
  expect(build.status).toBe(0);
  dir = await mkdtemp(join(tmpdir(), 'teamchat-compiled-'));
}, 240_000);

afterAll(async () => {
  // Each child leads its own process group: a failed test must not leave npm's server behind, even
  // where npm itself has gone.
  for (const child of children) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // ESRCH: the whole group has exited.
    }
  }
  await rm(dir, { recursive: true, force: true });
});

const { freePort, listening, started, exited } = processTools(children, () => ({ cwd: dir, env }));

describe('bin/teamchat.js runs dist/', () => {
  it('sends `conform` to the conformance CLI with its exit code, `serve` to the mock server CLI', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: dir, env, encoding: 'utf8' });
    const conformHelp = run('conform', '--help');
    expect(conformHelp.stdout).toContain('Usage: teamchat conform [options]');
    expect(conformHelp.status).toBe(0);
    const bad = run('conform', '--workers', 'x');
    expect(bad.stderr).toContain("teamchat conform: option '--workers <n>' argument 'x' is invalid.");
    expect(bad.status).toBe(2);
    const serveHelp = run('serve', '--help');
    expect(serveHelp.stdout).toContain('Usage: teamchat serve [options]');
    expect(serveHelp.status).toBe(0);
  });

  it('without dist/ it says to build, exit 2 (a copy of bin/ with nothing beside it)', async () => {
    const bare = join(dir, 'bare');
    await mkdir(join(bare, 'bin'), { recursive: true });
    await copyFile(bin, join(bare, 'bin/teamchat.js'));
    const run = spawnSync(process.execPath, [join(bare, 'bin/teamchat.js'), 'serve'], { cwd: dir, env, encoding: 'utf8' });
    expect(run.stderr).toBe('teamchat: dist/ is missing: run npm run build (npm install runs it too)\n');
    expect(run.status).toBe(2);
  });

  it(
    'serves from another directory, and `conform` passes against it with the catalogue, the document and the demo world found',
    { timeout: 180_000 },
    async () => {
      const port = await freePort();
      const reports = join(dir, 'reports');
      const server = await started(
        process.execPath,
        [bin, 'serve', '--port', String(port), '--in-memory', '--zuliprc-dir', join(dir, 'rc'), '--report-dir', reports],
        port,
      );
      expect(await readFile(join(dir, 'rc/zuliprc-owner'), 'utf8')).toContain(`site=http://127.0.0.1:${port}`);
      const conform = spawnSync(
        process.execPath,
        [bin, 'conform', '--target', `http://127.0.0.1:${port}`, '--grep', '^conventions/', '--reporter', 'json', '--report-dir', reports],
        { cwd: dir, env, encoding: 'utf8' },
      );
      expect(conform.stderr).toBe('');
      expect(conform.status).toBe(0);
      const report = JSON.parse(await readFile(join(reports, 'report.json'), 'utf8')) as {
        totals: Record<string, number>;
        scenarios: { id: string }[];
      };
      expect(report.totals).toEqual({ passed: 2, failed: 0, error: 0, skipped: 0 });
      expect(report.scenarios.map((s) => s.id).sort()).toEqual(['conventions/error-envelope', 'conventions/success-envelope']);
      // serve's --report-dir: the inspector page links (and serves) the report conform just wrote there.
      const linked = await fetch(`http://127.0.0.1:${port}/__inspector/report/report.json`);
      expect(linked.status).toBe(200);
      expect(((await linked.json()) as { totals: unknown }).totals).toEqual(report.totals);
      server.child.kill('SIGTERM');
      expect(await exited(server.child)).toBe(0);
    },
  );
});

describe('the products the build ships (dist/prepared/, read-only, keyed by their inputs)', () => {
  /** A shipped entry's lines (mock-server/src/config/cache.ts: header, the product's lines, trailer). */
  const shipped = async (prefix: string) => {
    const [name] = (await readdir(join(root, 'dist/prepared'))).filter((f) => f.startsWith(prefix));
    return (await readFile(join(root, 'dist/prepared', name!), 'utf8')).trimEnd().split('\n').slice(1, -1);
  };

  it('the OpenAPI document: the one the sources prepare from the YAML', async () => {
    const { DEFAULT_OPENAPI_PATH, prepareDocument } = await import('../../mock-server/src/http/openapi.js');
    const runTime = await prepareDocument(await readFile(DEFAULT_OPENAPI_PATH, 'utf8'));
    expect((await shipped('openapi-')).map((line) => JSON.parse(line) as unknown)).toEqual([JSON.parse(JSON.stringify(runTime))]);
  });

  it('`serve` starts on them: no YAML parser, reference resolver or realm generator is imported', { timeout: 60_000 }, async () => {
    const preparedOnly = fileURLToPath(new URL('./fixtures/prepared-only.mjs', import.meta.url));
    const port = await freePort();
    const server = await started(
      process.execPath,
      [bin, 'serve', '--port', String(port), '--in-memory', '--no-cache', '--zuliprc-dir', join(dir, 'rc-prepared')],
      port,
      dir,
      {
        ...env,
        NODE_OPTIONS: `${env.NODE_OPTIONS} --import ${preparedOnly}`,
      },
    );
    // A request whose parameters are validated, and a realm of another name made from the same template.
    const rc = await readFile(join(dir, 'rc-prepared/zuliprc-member'), 'utf8');
    const [email, key] = [/^email=(.*)$/m.exec(rc)![1], /^key=(.*)$/m.exec(rc)![1]];
    const streams = await fetch(`http://127.0.0.1:${port}/api/v1/streams?include_public=1`, {
      headers: { authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` },
    });
    expect(await streams.json()).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'include_public is not a boolean' });
    const created = await fetch(`http://127.0.0.1:${port}/__mock/realms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ realm_id: 'other' }),
    });
    expect(created.status).toBe(201);
    server.child.kill('SIGTERM');
    expect(await exited(server.child)).toBe(0);
    expect(server.output()).not.toContain('imported');
  });

  it('a demo realm of another seed is generated once, then read from the cache directory (--cache-dir)', { timeout: 60_000 }, async () => {
    const cache = join(dir, 'cache-seed-7');
    const serve = async (environment: NodeJS.ProcessEnv) => {
      const port = await freePort();
      const args = [
        bin,
        'serve',
        '--port',
        String(port),
        '--in-memory',
        '--seed',
        '7',
        '--cache-dir',
        cache,
        '--zuliprc-dir',
        join(dir, 'rc-seed-7'),
      ];
      const server = await started(process.execPath, args, port, dir, environment);
      server.child.kill('SIGTERM');
      expect(await exited(server.child)).toBe(0);
      return server.output();
    };
    expect(await serve(env)).toContain("realm 'demo' (demo, seed 7)");
    expect((await readdir(cache)).filter((f) => f.startsWith('demo-realm-'))).toHaveLength(1);
    const preparedOnly = fileURLToPath(new URL('./fixtures/prepared-only.mjs', import.meta.url));
    expect(await serve({ ...env, NODE_OPTIONS: `${env.NODE_OPTIONS} --import ${preparedOnly}` })).toContain("realm 'demo' (demo, seed 7)");
  });

  it(
    "`serve` starts from the start-up bundle (dist/bundle/), and from dist/'s modules once a later tsc made it stale",
    { timeout: 60_000 },
    async () => {
      const bundleOnly = fileURLToPath(new URL('./fixtures/bundle-only.mjs', import.meta.url));
      const strict = { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS} --import ${bundleOnly}` };
      const port = await freePort();
      const server = await started(
        process.execPath,
        [bin, 'serve', '--port', String(port), '--in-memory', '--zuliprc-dir', join(dir, 'rc-bundle')],
        port,
        dir,
        strict,
      );
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/server_settings`)).status).toBe(200);
      server.child.kill('SIGTERM');
      expect(await exited(server.child)).toBe(0);
      expect(server.output()).not.toContain('outside the start-up bundle');
      const later = new Date(Date.now() + 60_000);
      await utimes(join(root, 'dist/.tsbuildinfo'), later, later);
      try {
        const run = spawnSync(process.execPath, [bin, 'serve', '--help'], { cwd: dir, env: strict, encoding: 'utf8', timeout: 30_000 });
        expect(run.stderr).toMatch(/dist\/cli\/common\.js outside the start-up bundle/);
      } finally {
        expect(spawnSync(process.execPath, [join(root, 'dist/tools/prepare-build.js')], { cwd: root }).status).toBe(0);
      }
    },
  );

  it("the default seed's demo realm template: the one the sources generate", async () => {
    const { generateTemplate } = await import('../../mock-server/src/fixtures/demo-cache.js');
    const { DEFAULT_CONFIG } = await import('../../mock-server/src/config/config.js');
    const tables: Record<string, Record<string, unknown>> = {};
    for (const line of await shipped('demo-realm-')) {
      const [table, id, row] = JSON.parse(line) as [string, string?, unknown?];
      if (id === undefined) tables[table] = {};
      else tables[table]![id] = row;
    }
    expect(tables).toEqual(JSON.parse(await generateTemplate({ seed: DEFAULT_CONFIG.seed })));
  });

  it(
    'a grown realm through the cache directory (written a row a line, read back): the realm the sources generate',
    { timeout: 60_000 },
    async () => {
      const options = {
        realmId: 'x-1',
        seed: 7,
        featureLevel: 300,
        epoch: 1_800_000_001,
        size: { messages: 3000, users: 60, channels: 30 },
      };
      const script = [
        `const { demoRealm } = await import(${JSON.stringify(join(root, 'dist/mock-server/src/fixtures/demo-cache.js'))});`,
        `process.stdout.write(JSON.stringify(await demoRealm(${JSON.stringify(options)})));`,
      ].join('\n');
      const { generateDemoRealm } = await import('../../mock-server/src/fixtures/demo-realm.js');
      const expected = JSON.stringify(generateDemoRealm(options));
      const cache = join(dir, 'cache-grown');
      // The first process generates and caches the template, the second finds it in the cache.
      for (const run of ['generates', 'reads']) {
        const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
          cwd: dir,
          env: { ...env, TEAMCHAT_CACHE_DIR: cache },
          encoding: 'utf8',
          maxBuffer: 1 << 26,
        });
        expect(child.stderr, run).toBe('');
        expect(child.stdout === expected, run).toBe(true);
        expect((await readdir(cache)).length, run).toBe(1);
      }
    },
  );
});

describe('the package entries', () => {
  it(
    "`teamchat-kit` and `teamchat-kit/conformance` resolve to dist/ (package.json exports): a mock started by one passes the other's run",
    { timeout: 120_000 },
    () => {
      const script = [
        "import { createMockServer } from 'teamchat-kit';",
        "import { runConformance, renderJUnit } from 'teamchat-kit/conformance';",
        'const mock = await createMockServer({ port: 0, statePath: null });',
        'const run = await runConformance({ target: mock.url, grep: /^conventions\\//, workers: 1 });',
        'await mock.close();',
        "console.log(import.meta.resolve('teamchat-kit'));",
        "console.log(import.meta.resolve('teamchat-kit/conformance'));",
        "console.log(JSON.stringify({ kind: run.targetKind, totals: run.totals, junit: renderJUnit(run).includes('<testsuites') }));",
      ].join('\n');
      // The package refers to itself by name from its own directory (Node's self-reference through exports).
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.stdout.trim().split('\n')).toEqual([
        `file://${join(root, 'dist/mock-server/src/index.js')}`,
        `file://${join(root, 'dist/conformance/src/api.js')}`,
        JSON.stringify({ kind: 'mock', totals: { passed: 2, failed: 0, error: 0, skipped: 0 }, junit: true }),
      ]);
    },
  );

  it('runConformance rejects a selection that matches nothing', { timeout: 60_000 }, () => {
    const script =
      "import { runConformance } from 'teamchat-kit/conformance';\nawait runConformance({ target: 'http://127.0.0.1:9', grep: /^no such scenario$/ }).catch((e) => console.log(e.message));";
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env, encoding: 'utf8' });
    expect(run.stdout).toMatch(/^no scenario matches the filters \(\d+ scenarios in all\)\n$/);
  });
});

describe('npm scripts', () => {
  it('npm run teamchat dispatches like bin/teamchat.js', () => {
    const run = (...args: string[]) =>
      spawnSync('npm', ['run', '--silent', 'teamchat', '--', ...args], { cwd: root, env, encoding: 'utf8' });
    const conform = run('conform', '--help');
    expect(conform.stdout).toContain('Usage: teamchat conform [options]');
    expect(conform.status).toBe(0);
    const bad = run('serve', '--clock', 'x');
    expect(bad.stderr).toContain('Allowed choices are system, frozen.');
    expect(bad.status).toBe(2);
  });

  // The README's CI recipe starts the mock with `npm start &` and stops it with a signal to npm: the server
  // must go with it, or the next job finds the port taken (EADDRINUSE).
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s to `npm start` stops the server: exit 0, the port free at once',
    { timeout: 120_000 },
    async (signal) => {
      const port = await freePort();
      const npm = await started(
        'npm',
        ['start', '--', '--port', String(port), '--in-memory', '--zuliprc-dir', join(dir, `rc-${signal}`)],
        port,
        root,
      );
      npm.child.kill(signal);
      expect(await exited(npm.child)).toBe(0);
      const deadline = Date.now() + 2000;
      while ((await listening(port)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await listening(port)).toBe(false);
    },
  );

  // A terminal's Ctrl-C goes to the whole process group: npm and node each get it, and npm forwards its copy.
  it(
    'Ctrl-C to the process group of `npm start`, three times over: each time exit 0, the shutdown line, the message sent kept',
    {
      timeout: 180_000,
    },
    async () => {
      const state = join(dir, 'ctrl-c', 'state.json');
      const rc = join(dir, 'ctrl-c', 'rc');
      for (let round = 1; round <= 3; round++) {
        const port = await freePort();
        const args = ['start', '--', '--port', String(port), '--state', state, '--zuliprc-dir', rc, '--log-level', 'silent'];
        const npm = await started('npm', args, port, root);
        const [, email, key] = /email=(.+)\nkey=(.+)\n/.exec(await readFile(join(rc, 'zuliprc-member'), 'utf8'))!;
        const sent = await fetch(`http://127.0.0.1:${port}/api/v1/messages`, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` },
          body: new URLSearchParams({ type: 'stream', to: 'home', topic: 'ctrl-c', content: `kept-after-round-${round}` }),
        });
        expect(((await sent.json()) as { result: string }).result).toBe('success');
        process.kill(-npm.child.pid!, 'SIGINT');
        expect(await exited(npm.child), npm.output()).toBe(0);
        expect(npm.output()).toContain(`teamchat serve: stopped on SIGINT; state: file ${state}`);
        expect(npm.output()).not.toContain('a third time');
        const saved = await readFile(state, 'utf8');
        for (let r = 1; r <= round; r++) expect(saved).toContain(`kept-after-round-${r}`);
      }
    },
  );

  it(
    'Ctrl-C to the process group of `npm run conform`: the reports written, the run marked interrupted, exit 2',
    {
      timeout: 180_000,
    },
    async () => {
      const port = await freePort();
      const server = await started(
        process.execPath,
        [bin, 'serve', '--port', String(port), '--in-memory', '--zuliprc-dir', join(dir, 'rc-conform'), '--log-level', 'silent'],
        port,
      );
      const reports = join(dir, 'interrupted');
      const conform = spawn(
        'npm',
        ['run', 'conform', '--', '--target', `http://127.0.0.1:${port}`, '--report-dir', reports, '--workers', '1'],
        {
          cwd: root,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        },
      );
      children.push(conform);
      let output = '';
      conform.stdout!.on('data', (chunk: Buffer) => (output += chunk));
      conform.stderr!.on('data', (chunk: Buffer) => (output += chunk));
      // Interrupted once a few scenarios have ended (the console reporter prints a mark per scenario after its legend).
      const marks = () => /s skipped\)\n([.FEs]*)/.exec(output)?.[1]?.length ?? 0;
      for (let i = 0; i < 1200 && marks() < 5 && conform.exitCode === null; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      process.kill(-conform.pid!, 'SIGINT');
      expect(await exited(conform), output).toBe(2);
      expect(output).toMatch(/teamchat conform: interrupted by SIGINT; \d+ of \d+ scenarios not run/);
      const report = JSON.parse(await readFile(join(reports, 'report.json'), 'utf8')) as { stopped: unknown; totals: { skipped: number } };
      expect(report.stopped).toEqual({ kind: 'interrupted', message: 'interrupted by SIGINT' });
      expect(report.totals.skipped).toBeGreaterThan(0);
      server.child.kill('SIGTERM');
      expect(await exited(server.child)).toBe(0);
    },
  );
});

proxySignalTests(root, children);
