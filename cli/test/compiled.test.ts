import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDist } from './helpers/build.js';
import { loopbackRegistry } from './helpers/loopback-registry.js';
import { processTools } from './helpers/processes.js';
import { proxySignalTests } from './proxy-signals.js';

/**
 * A smoke test of the artefact (tools/build.ts), built once: what only the built program can show. Every other
 * test runs the sources in-process. Programs here run with a loader hook that fails on tsx or any TypeScript
 * file, from a directory outside the checkout, so whatever they read at run time is found from the package
 * root; the tarball is packed from the same build and installed into a fresh project.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin/teamchat.js');
const noTypeScript = fileURLToPath(new URL('./fixtures/no-typescript.mjs', import.meta.url));
const preparedOnly = fileURLToPath(new URL('./fixtures/prepared-only.mjs', import.meta.url));
const env = { ...process.env, NODE_OPTIONS: `--import ${noTypeScript}`, NO_COLOR: '1' };
const VERSION = (JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string }).version;

let dir: string;
const children: ChildProcess[] = [];
/** The tarball and the project it is installed into (`pack`, then `install`), made beside the first tests. */
let packing: Promise<Packed>;
let installing: Promise<{ packed: Packed; consumer: string }>;

beforeAll(async () => {
  // Serialised with the other files that run the build (cli/test/helpers/build.ts).
  const build = buildDist();
  expect(build.output).toBe('');
  expect(build.status).toBe(0);
  dir = await mkdtemp(join(tmpdir(), 'teamchat-compiled-'));
  packing = pack();
  installing = packing.then(install);
  // Awaited by the tests of the tarball; a rejection before then is theirs to report, not an unhandled one.
  installing.catch(() => undefined);
}, 300_000);

afterAll(async () => {
  // Each child leads its own process group: a failed test must not leave a server behind.
  for (const child of children) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // ESRCH: the whole group has exited.
    }
  }
  // The install writes under `dir`: it ends (or is killed by its 240 s time-out) before `dir` goes.
  await installing?.catch(() => undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
}, 300_000);

const { freePort, listening, started, exited } = processTools(children, () => ({ cwd: dir, env }));
/**
 * A program run to its end, its output and exit status. Not spawnSync: this process must go on answering while it
 * runs (the loopback registry of the install made beside these tests), and its children time out the same way.
 */
function run(
  command: string,
  args: string[],
  cwd = dir,
  environment: NodeJS.ProcessEnv = env,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: environment, stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => resolve({ status: null, stdout, stderr: `${stderr}${error.message}` }));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Every file under dist/ with its size and modification time. */
async function distListing(): Promise<string[]> {
  const listing: string[] = [];
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) await walk(path);
      else {
        const info = await stat(path);
        listing.push(`${relative(root, path)} ${info.size} ${info.mtimeMs}`);
      }
    }
  };
  await walk(join(root, 'dist'));
  return listing.sort();
}

describe('bin/teamchat.js runs the bundle', () => {
  it('`--version` and `-V` print the version; `conform` and `serve` get their own options', async () => {
    for (const flag of ['--version', '-V']) expect((await run(process.execPath, [bin, flag])).stdout).toBe(`${VERSION}\n`);
    const bad = await run(process.execPath, [bin, 'conform', '--workers', 'x']);
    expect(bad.stderr).toContain("teamchat conform: option '--workers <n>' argument 'x' is invalid.");
    expect(bad.status).toBe(2);
    expect((await run(process.execPath, [bin, 'serve', '--help'])).stdout).toContain('Usage: teamchat serve [options]');
  });

  it('without the build it says so in one line, exit 2 (a copy of bin/ with nothing beside it)', async () => {
    const bare = join(dir, 'bare');
    await mkdir(join(bare, 'bin'), { recursive: true });
    await copyFile(bin, join(bare, 'bin/teamchat.js'));
    const bareRun = await run(process.execPath, [join(bare, 'bin/teamchat.js'), 'serve']);
    expect(bareRun.stderr).toBe('teamchat: dist/teamchat.js is missing: run npm run build\n');
    expect(bareRun.status).toBe(2);
  });

  it(
    'serves from the shipped products (no YAML parser, resolver or generator loaded), conform passes, nothing written under dist/',
    { timeout: 120_000 },
    async () => {
      const before = await distListing();
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const reports = join(dir, 'reports');
      const server = await started(
        process.execPath,
        [bin, 'serve', '--port', String(port), '--in-memory', '--zuliprc-dir', join(dir, 'rc'), '--report-dir', reports],
        port,
        dir,
        { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS} --import ${preparedOnly}` },
      );
      const rc = await readFile(join(dir, 'rc/zuliprc-member'), 'utf8');
      expect(rc).toContain(`site=${url}`);
      // A request whose parameters are validated against the shipped document.
      const [email, key] = [/^email=(.*)$/m.exec(rc)![1], /^key=(.*)$/m.exec(rc)![1]];
      const streams = await fetch(`${url}/api/v1/streams?include_public=1`, {
        headers: { authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` },
      });
      expect(await streams.json()).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'include_public is not a boolean' });
      const conform = await run(process.execPath, [
        bin,
        'conform',
        '--target',
        url,
        '--grep',
        '^conventions/',
        '--reporter',
        'json',
        '--report-dir',
        reports,
      ]);
      expect(conform.stderr).toBe('');
      expect(conform.status).toBe(0);
      const report = JSON.parse(await readFile(join(reports, 'report.json'), 'utf8')) as { totals: Record<string, number> };
      expect(report.totals).toEqual({ passed: 2, failed: 0, error: 0, skipped: 0 });
      server.child.kill('SIGTERM');
      expect(await exited(server.child)).toBe(0);
      expect(server.output()).not.toContain('loaded code the build prepares for');
      expect(await distListing()).toEqual(before);
    },
  );

  it("a demo realm of another seed is generated once (the build's worker), then read from --cache-dir", { timeout: 120_000 }, async () => {
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
        join(dir, 'rc-7'),
      ];
      const server = await started(process.execPath, args, port, dir, environment);
      server.child.kill('SIGTERM');
      expect(await exited(server.child)).toBe(0);
      return server.output();
    };
    expect(await serve(env)).toContain("realm 'demo' (demo, seed 7)");
    expect((await readdir(cache)).filter((f) => f.startsWith('demo-realm-'))).toHaveLength(1);
    // The second start finds the template: it loads no generator (faker) at all.
    expect(await serve({ ...env, NODE_OPTIONS: `${env.NODE_OPTIONS} --import ${preparedOnly}` })).toContain("realm 'demo' (demo, seed 7)");
  });

  it('a bare `tsc -p tsconfig.json` emits nothing (noEmit): only `npm run build` writes dist/', async () => {
    const shown = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--showConfig'], root);
    expect((JSON.parse(shown.stdout) as { compilerOptions: { noEmit?: boolean } }).compilerOptions.noEmit).toBe(true);
  });
});

describe('the package entries', () => {
  it(
    '`teamchat-kit` and `teamchat-kit/conformance` resolve to the bundles: a mock started by one passes the other, nothing written under dist/',
    { timeout: 120_000 },
    async () => {
      const before = await distListing();
      const script = [
        "import { createMockServer } from 'teamchat-kit';",
        "import { runConformance, renderJUnit } from 'teamchat-kit/conformance';",
        "import { ControlClient } from 'teamchat-kit/control';",
        'const mock = await createMockServer({ port: 0, statePath: null });',
        'const run = await runConformance({ target: mock.url, grep: /^conventions\\//, workers: 1 });',
        'const realms = await new ControlClient(mock.url).listRealms();',
        'await mock.close();',
        "for (const entry of ['teamchat-kit', 'teamchat-kit/conformance', 'teamchat-kit/control']) console.log(import.meta.resolve(entry));",
        "console.log(JSON.stringify({ totals: run.totals, junit: renderJUnit(run).includes('<testsuites'), realms: realms.length > 0 }));",
      ].join('\n');
      // The package refers to itself by name from its own directory (Node's self-reference through exports).
      const used = await run(process.execPath, ['--input-type=module', '-e', script], root);
      expect(used.stderr).toBe('');
      expect(used.stdout.trim().split('\n')).toEqual([
        `file://${join(root, 'dist/index.js')}`,
        `file://${join(root, 'dist/conformance.js')}`,
        `file://${join(root, 'dist/control.js')}`,
        JSON.stringify({ totals: { passed: 2, failed: 0, error: 0, skipped: 0 }, junit: true, realms: true }),
      ]);
      expect(await distListing()).toEqual(before);
    },
  );

  it('the control client entry loads none of the server: only the bundler’s helpers beside it', async () => {
    const client = await readFile(join(root, 'dist/control.js'), 'utf8');
    expect(client).toMatch(/\bControlClient\s*=\s*class\b|\bclass ControlClient\b/);
    const imported = [...client.matchAll(/\bimport\s*(?:[^'"]*from\s*)?["']([^"']+)["']/g)].map((m) => m[1]!);
    for (const path of imported.filter((p) => p.startsWith('.'))) {
      const chunk = await readFile(join(root, 'dist', path), 'utf8');
      expect(chunk.length, path).toBeLessThan(5_000);
      expect(chunk, path).not.toMatch(/createMockServer|express/);
    }
  });
});

describe('npm scripts run the bundle, rebuilt first', () => {
  // tsx runs the build first, so these run without the no-TypeScript hook.
  const npmEnv = { ...process.env, NO_COLOR: '1' };
  // These bundle again, writing dist/: not while `npm pack` reads it (its failure is reported by the tarball's tests).
  beforeAll(async () => {
    await packing?.catch(() => undefined);
  }, 120_000);

  it(
    '`npm start`, `npm run teamchat` and `npm run conform` bundle the sources, then run bin/teamchat.js',
    { timeout: 120_000 },
    async () => {
      const { scripts } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
      const first = 'tsx tools/build.ts --bundle-only && exec node bin/teamchat.js';
      expect([scripts.start, scripts.teamchat, scripts.conform]).toEqual([`${first} serve`, first, `${first} conform`]);
      const version = await run('npm', ['run', '--silent', 'teamchat', '--', '--version'], root, npmEnv);
      expect(version.stderr).toBe('');
      expect(version.stdout).toBe(`${VERSION}\n`);
    },
  );

  // The README's CI recipe starts the mock with `npm start &` and stops it with a signal to npm: the server
  // must go with it, or the next job finds the port taken (EADDRINUSE).
  it('SIGTERM to `npm start` stops the server: exit 0, the port free at once', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const npm = await started(
      'npm',
      ['start', '--', '--port', String(port), '--in-memory', '--zuliprc-dir', join(dir, 'rc-npm')],
      port,
      root,
      npmEnv,
    );
    npm.child.kill('SIGTERM');
    expect(await exited(npm.child)).toBe(0);
    const deadline = Date.now() + 2000;
    while ((await listening(port)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await listening(port)).toBe(false);
  });

  // A terminal's Ctrl-C goes to the whole process group: npm and node each get it, and npm forwards its copy.
  it(
    'Ctrl-C to the process group, through `npm start` then bin/teamchat.js twice: each time exit 0, the shutdown line, the messages kept',
    { timeout: 180_000 },
    async () => {
      const state = join(dir, 'ctrl-c', 'state.json');
      const rc = join(dir, 'ctrl-c', 'rc');
      for (let round = 1; round <= 3; round++) {
        const port = await freePort();
        const args = ['--port', String(port), '--state', state, '--zuliprc-dir', rc, '--log-level', 'silent'];
        const server =
          round === 1
            ? await started('npm', ['start', '--', ...args], port, root, npmEnv)
            : await started(process.execPath, [bin, 'serve', ...args], port);
        const [, email, key] = /email=(.+)\nkey=(.+)\n/.exec(await readFile(join(rc, 'zuliprc-member'), 'utf8'))!;
        const sent = await fetch(`http://127.0.0.1:${port}/api/v1/messages`, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` },
          body: new URLSearchParams({ type: 'stream', to: 'home', topic: 'ctrl-c', content: `kept-after-round-${round}` }),
        });
        expect(((await sent.json()) as { result: string }).result).toBe('success');
        process.kill(-server.child.pid!, 'SIGINT');
        expect(await exited(server.child), server.output()).toBe(0);
        expect(server.output()).toContain(`teamchat serve: stopped on SIGINT; state: file ${state}`);
        expect(server.output()).not.toContain('a third time');
        const saved = await readFile(state, 'utf8');
        for (let r = 1; r <= round; r++) expect(saved).toContain(`kept-after-round-${r}`);
      }
    },
  );
});

interface Manifest {
  dependencies: Record<string, string>;
}

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string }[];
}

/** Packed from the build above (no second build: --ignore-scripts skips `prepare`). */
async function pack(): Promise<Packed> {
  const packed = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], root);
  expect(packed.status, packed.stderr).toBe(0);
  return (JSON.parse(packed.stdout) as Packed[])[0]!;
}

/**
 * The tarball installed into a fresh project. A real `npm install`, from a registry on loopback serving the
 * dependencies as installed here (tests contact nothing beyond this machine), into an empty npm cache of its own.
 */
async function install(packed: Packed): Promise<{ packed: Packed; consumer: string }> {
  const consumer = join(dir, 'consumer');
  await mkdir(consumer);
  await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const typesNode = (JSON.parse(await readFile(join(root, 'node_modules/@types/node/package.json'), 'utf8')) as { version: string })
    .version;
  const dependencies = Object.keys((JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Manifest).dependencies);
  const registry = await loopbackRegistry(root, [...dependencies, '@types/node'], await mkdtemp(join(dir, 'registry-')));
  try {
    const args = ['install', '--registry', registry.url, '--cache', join(dir, 'npm-cache'), '--no-audit', '--no-fund'];
    const installed = await run('npm', [...args, join(dir, packed.filename), `@types/node@${typesNode}`], consumer, process.env);
    expect(installed.status, installed.stdout + installed.stderr).toBe(0);
  } finally {
    await registry.close();
  }
  return { packed, consumer };
}

describe('the tarball, installed into a fresh project', () => {
  let packed: Packed;
  let consumer: string;

  beforeAll(async () => {
    ({ packed, consumer } = await installing);
  }, 300_000);

  it('holds the bundles, their declarations and the data files they read; no source maps; ≤ 40 MB installed', () => {
    const paths = packed.files.map((f) => f.path);
    const outside = paths.filter(
      (p) =>
        !/^(bin\/teamchat\.js|dist\/[a-z-]+\.js|dist\/chunks\/[\w-]+\.(c?js|json)|dist\/types\/.+\.d\.ts|dist\/prepared\/(openapi|demo-realm)-[0-9a-f]+\.jsonl|dist\/redoc\/redoc\.standalone\.js(\.LICENSE\.txt)?|openapi\/team-chat\.openapi\.yaml|conformance\/rules\/(catalogue|companion\/[a-z-]+)\.json|fixtures\/world\.(schema|demo)\.json|fixtures\/README\.md|mock-server\/src\/inspector\/assets\/[a-z-]+\.(html|js|css)|README\.md|LICENSE|package\.json)$/.test(
          p,
        ),
    );
    expect(outside).toEqual([]);
    for (const entry of ['dist/teamchat.js', 'dist/index.js', 'dist/conformance.js', 'dist/control.js', 'dist/template-worker.js'])
      expect(paths).toContain(entry);
    // The installed project: the package, its few dependencies, and @types/node for the TypeScript check below.
    const du = execFileSync('du', ['-sk', join(consumer, 'node_modules')], { encoding: 'utf8' });
    const megabytes = Number(du.split('\t')[0]) / 1024;
    const packages = execFileSync('npm', ['ls', '--all', '--parseable'], { cwd: consumer, encoding: 'utf8' }).trim().split('\n').length - 1;
    console.log(
      `compiled.test: ${packed.filename} ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${packed.entryCount} files; installed ${megabytes.toFixed(1)} MB in ${packages} packages`,
    );
    expect(megabytes).toBeLessThanOrEqual(40);
  });

  it(
    '`npx teamchat` prints its version, serves, and `npx teamchat conform` passes a short run against it',
    { timeout: 180_000 },
    async () => {
      expect((await run('npx', ['teamchat', '--version'], consumer, process.env)).stdout).toBe(`${VERSION}\n`);
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const server = await started(
        'npx',
        ['teamchat', 'serve', '--port', String(port), '--in-memory', '--zuliprc-dir', 'rc'],
        port,
        consumer,
        process.env,
      );
      const document = (await (await fetch(`${url}/openapi.yaml`)).text()).split('\n');
      expect(document).toContain(`  - url: ${url}`);
      // The reference page's script is the build's copy of Redoc (no redoc package is installed), not a CDN's.
      const redoc = await fetch(`${url}/docs/redoc.standalone.js`);
      expect(redoc.status).toBe(200);
      expect((await redoc.text()).length).toBeGreaterThan(100_000);
      const inspector = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
      expect(await inspector.text()).toContain('<script type="module" src="/__inspector/inspector.js">');
      expect((await fetch(`${url}/__inspector/inspector.js`)).status).toBe(200);
      const conform = await run(
        'npx',
        ['teamchat', 'conform', '--target', url, '--grep', '^conventions/', '--report-dir', 'reports'],
        consumer,
        process.env,
      );
      expect(conform.stderr).toBe('');
      expect(conform.status).toBe(0);
      // npx does not pass signals on, so the whole group gets it.
      process.kill(-server.child.pid!, 'SIGTERM');
      expect(await exited(server.child)).not.toBe('running');
      const deadline = Date.now() + 10_000;
      while (!server.output().includes('stopped on SIGTERM') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(server.output()).toContain('teamchat serve: stopped on SIGTERM');
    },
  );

  it(
    'a TypeScript file importing the API type-checks against the declarations (libraries checked too) and runs',
    { timeout: 180_000 },
    async () => {
      await mkdir(join(consumer, 'src'), { recursive: true });
      await writeFile(
        join(consumer, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            ...{ target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'] },
            // The package's declarations are checked too: they need only what the package installs.
            ...{ skipLibCheck: false, outDir: 'out' },
          },
          include: ['src'],
        }),
      );
      await writeFile(
        join(consumer, 'src/use.ts'),
        [
          "import { createMockServer, type MockServer, type RealmSummary } from 'teamchat-kit';",
          "import { runConformance, type RunResult } from 'teamchat-kit/conformance';",
          "import { ControlClient, type RealmClock } from 'teamchat-kit/control';",
          'const mock: MockServer = await createMockServer({ port: 0, statePath: null });',
          'try {',
          '  const realm: RealmSummary = await mock.control.createRealm({ feature_level: 333 });',
          '  const run: RunResult = await runConformance({ target: mock.url, grep: /^conventions\\//, workers: 1 });',
          '  const clock: RealmClock = await new ControlClient(mock.url).clock(realm.realm_id);',
          '  console.log(JSON.stringify({ level: realm.feature_level, totals: run.totals, clock: typeof clock.now }));',
          '} finally {',
          '  await mock.close();',
          '}',
          // A wrong option type must be an error (else the directive is unused): the declarations are checked, not `any`.
          'export const wrong = () => createMockServer({ // @ts-expect-error port is a number',
          "  port: 'x' });",
          '',
        ].join('\n'),
      );
      // The README's programmatic examples, as one file: they import the package by name and type-check too.
      const readme = await readFile(join(root, 'README.md'), 'utf8');
      const start = readme.indexOf('\n## Programmatic API\n');
      const examples = [...readme.slice(start, readme.indexOf('\n## ', start + 1)).matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
      expect(examples.length).toBeGreaterThanOrEqual(2);
      await writeFile(join(consumer, 'src/readme.ts'), examples.join('\n'));
      const compiled = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'], consumer, process.env);
      expect(compiled.stdout + compiled.stderr).toBe('');
      const used = await run(process.execPath, ['out/use.js'], consumer, process.env);
      expect(JSON.parse(used.stdout.split('\n')[0]!)).toEqual({
        level: 333,
        totals: { passed: 2, failed: 0, error: 0, skipped: 0 },
        clock: 'number',
      });
    },
  );
});

proxySignalTests(root, children);
