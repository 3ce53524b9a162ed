import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processTools } from './helpers/processes.js';

/**
 * The installable package (issue 19 item 1): `npm pack`, the tarball installed into a fresh project, and there
 * the `teamchat` command and the typed programmatic API, as a user of the package meets them. The checkout's
 * files are copied to a temporary directory and packed there (npm runs `prepare`, a full build, in the copy), so
 * this file never touches the dist/ that compiled.test.ts builds in the checkout at the same time. Dependencies
 * come from npm's cache where it has them (`--prefer-offline`); the servers listen on loopback only.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const TYPES_NODE_VERSION = (JSON.parse(await readFile(join(root, 'node_modules/@types/node/package.json'), 'utf8')) as { version: string })
  .version;

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string }[];
}

let dir: string;
let packed: Packed;
let consumer: string;
const children: ChildProcess[] = [];

function run(command: string, args: string[], cwd: string, timeout = 240_000) {
  return spawnSync(command, args, { cwd, encoding: 'utf8', timeout, maxBuffer: 1 << 26, env: { ...process.env, NO_COLOR: '1' } });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamchat-pack-'));
  const checkout = join(dir, 'checkout');
  // What git would commit (tracked and new files, not the ignored dist/, reports, node_modules).
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  for (const file of listed.split('\0').filter(Boolean)) {
    await cp(join(root, file), join(checkout, file), { force: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error; // deleted in the work tree, not yet in git
    });
  }
  await symlink(await realpath(join(root, 'node_modules')), join(checkout, 'node_modules'), 'dir');
  const pack = run('npm', ['pack', '--json', '--pack-destination', dir], checkout);
  expect(pack.status, pack.stderr).toBe(0);
  packed = (JSON.parse(pack.stdout) as Packed[])[0]!;

  consumer = join(dir, 'consumer');
  await mkdir(consumer);
  await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // No TypeScript here: were npm to run the package's `prepare` (a build) on this install, it would fail.
  const install = run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, packed.filename), `@types/node@${TYPES_NODE_VERSION}`],
    consumer,
  );
  expect(install.status, install.stderr).toBe(0);
}, 600_000);

afterAll(async () => {
  // Each server leads its own process group (npx's child included): none may outlive a failed test.
  for (const child of children) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // ESRCH: the whole group has exited.
    }
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

const { freePort, listening, started, exited } = processTools(children, () => ({ cwd: consumer, env: process.env }));

describe('the tarball', () => {
  it('holds what runs: bin/, the compiled code with declarations, and the data files it reads', () => {
    const paths = packed.files.map((f) => f.path);
    const outside = paths.filter(
      (p) =>
        !/^(bin\/teamchat\.js|dist\/.+\.(js|d\.ts|json)|openapi\/team-chat\.openapi\.yaml|conformance\/rules\/(catalogue|companion\/[a-z-]+)\.json|fixtures\/world\.(schema|demo)\.json|fixtures\/README\.md|mock-server\/src\/inspector\/assets\/[a-z-]+\.(html|js|css)|README\.md|LICENSE|package\.json)$/.test(
          p,
        ),
    );
    expect(outside).toEqual([]);
    expect(paths.filter((p) => /\.map$|\.tsbuildinfo$|(^|\/)test\/|\.test\.|^dist\/tools\//.test(p))).toEqual([]);
    for (const entry of [
      'bin/teamchat.js',
      'dist/cli/teamchat.js',
      'dist/mock-server/src/index.js',
      'dist/mock-server/src/index.d.ts',
      'dist/conformance/src/api.js',
      'dist/conformance/src/api.d.ts',
      'dist/mock-server/src/control/client.js',
      'dist/mock-server/src/control/client.d.ts',
      'LICENSE',
    ]) {
      expect(paths).toContain(entry);
    }
    // The shipped products (mock-server/src/config/cache.ts), named by their keys.
    expect(paths.filter((p) => /^dist\/prepared\/(openapi|demo-realm)-[0-9a-f]{32}\.jsonl$/.test(p))).toHaveLength(2);
    expect(paths.filter((p) => p.startsWith('conformance/rules/companion/')).length).toBeGreaterThan(0);
  });

  it('has an MIT LICENSE, and a control client entry that loads nothing of the server (type imports only)', async () => {
    const installed = join(consumer, 'node_modules/teamchat-kit');
    expect(await readFile(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 teamchat-kit contributors\n/);
    const client = await readFile(join(installed, 'dist/mock-server/src/control/client.js'), 'utf8');
    expect(client).toContain('class ControlClient');
    expect(client.match(/^\s*(import|export)\b.*\bfrom\b.*$/gm) ?? []).toEqual([]);
    expect(client).not.toMatch(/\bimport\s*\(|\brequire\s*\(/);
  });

  it('holds every file the compiled code reads from the package root (packagePath in cli/package-root.ts)', async () => {
    const installed = join(consumer, 'node_modules/teamchat-kit');
    const read = new Set<string>();
    const walk = async (at: string): Promise<void> => {
      for (const entry of await readdir(at, { withFileTypes: true })) {
        const path = join(at, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (entry.name.endsWith('.js'))
          for (const m of (await readFile(path, 'utf8')).matchAll(/packagePath\('([^']+)'\)/g)) read.add(m[1]!);
      }
    };
    await walk(join(installed, 'dist'));
    expect(read.size).toBeGreaterThan(3);
    const missing: string[] = [];
    for (const path of read) {
      const found = await readdir(join(installed, path)).then(
        (entries) => entries.length > 0, // a directory of files (the companion rules)
        (error: NodeJS.ErrnoException) => error.code === 'ENOTDIR' || (error.code !== 'ENOENT' && Promise.reject(error)),
      );
      if (!found) missing.push(path);
    }
    expect(missing).toEqual([]);
  });

  it('is not private, and its entries point into the tarball', async () => {
    const manifest = JSON.parse(await readFile(join(consumer, 'node_modules/teamchat-kit/package.json'), 'utf8')) as {
      private?: boolean;
      bin: Record<string, string>;
      exports: Record<string, string | Record<string, string>>;
    };
    expect(manifest.private).toBeUndefined();
    const targets = [
      ...Object.values(manifest.bin),
      ...Object.values(manifest.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e))),
    ];
    const paths = new Set(packed.files.map((f) => f.path));
    expect(targets.map((t) => t.replace(/^\.\//, '')).filter((t) => !paths.has(t))).toEqual([]);
  });
});

describe('installed in a fresh project', () => {
  it(
    '`npx teamchat serve` answers, serves its contract and reference page, and `npx teamchat conform` passes against it',
    { timeout: 600_000 },
    async () => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const server = await started('npx', ['teamchat', 'serve', '--port', String(port), '--in-memory', '--zuliprc-dir', 'rc'], port);
      const document = (await (await fetch(`${url}/openapi.json`)).json()) as { openapi: string; servers: { url: string }[] };
      expect(document.openapi).toMatch(/^3\./);
      expect(document.servers.map((s) => s.url).join(' ')).toContain(url);
      // The page's script comes from the installed redoc dependency, not a CDN.
      const redoc = await fetch(`${url}/docs/redoc.standalone.js`);
      expect(redoc.status).toBe(200);
      expect((await redoc.text()).length).toBeGreaterThan(100_000);
      // The inspector page (GET / for a browser) and its script come from the package's files too.
      const inspector = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
      expect(inspector.status).toBe(200);
      expect(await inspector.text()).toContain('<script type="module" src="/__inspector/inspector.js">');
      expect((await fetch(`${url}/__inspector/inspector.js`)).status).toBe(200);

      const conform = run(
        'npx',
        ['teamchat', 'conform', '--target', url, '--reporter', 'json', '--report-dir', 'reports'],
        consumer,
        540_000,
      );
      expect(conform.stderr).toBe('');
      expect(conform.status).toBe(0);
      const report = JSON.parse(await readFile(join(consumer, 'reports/report.json'), 'utf8')) as { totals: Record<string, number> };
      expect(report.totals.failed).toBe(0);
      expect(report.totals.error).toBe(0);
      expect(report.totals.passed).toBeGreaterThan(50);
      console.log(
        `pack.test: ${packed.filename} ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${packed.entryCount} files; conform totals ${JSON.stringify(report.totals)}`,
      );

      // npx does not pass signals on, so the whole group gets it: npx ends by the signal, the server stops cleanly.
      process.kill(-server.child.pid!, 'SIGTERM');
      expect(await exited(server.child)).not.toBe('running');
      const deadline = Date.now() + 10_000;
      while (!server.output().includes('stopped on SIGTERM') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(server.output()).toContain('teamchat serve: stopped on SIGTERM');
      expect(await listening(port)).toBe(false);
    },
  );

  it('a TypeScript file importing the API type-checks against the declarations and runs', { timeout: 180_000 }, async () => {
    await mkdir(join(consumer, 'src'), { recursive: true });
    await writeFile(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          types: ['node'],
          // The package's declarations are checked too: they need no @types/express and import no JSON
          // (README "Programmatic API").
          skipLibCheck: false,
          outDir: 'out',
        },
        include: ['src'],
      }),
    );
    await writeFile(
      join(consumer, 'src/use.ts'),
      [
        "import { createMockServer, type MockServer, type RealmSummary } from 'teamchat-kit';",
        "import { renderJUnit, runConformance, type RunResult } from 'teamchat-kit/conformance';",
        "import { ControlClient, ControlError, type RealmClock } from 'teamchat-kit/control';",
        '',
        'const mock: MockServer = await createMockServer({ port: 0, statePath: null });',
        'try {',
        '  const realm: RealmSummary = await mock.control.createRealm({ feature_level: 333 });',
        '  const answer = await fetch(`${mock.url}/api/v1/server_settings`);',
        '  const settings = (await answer.json()) as { result: string };',
        '  const run: RunResult = await runConformance({ target: mock.url, grep: /^conventions\\//, workers: 1 });',
        '  const junit: string = renderJUnit(run);',
        '  const control = new ControlClient(mock.url);',
        '  const before: RealmClock = await control.clock(realm.realm_id);',
        '  const after = await control.advanceRealm(realm.realm_id, 600);',
        '  const missing = await control.describe("no-such-realm").catch((e: unknown) => (e instanceof ControlError ? `${e.status} ${e.code}` : e));',
        '  console.log(JSON.stringify({ level: realm.feature_level, settings: settings.result, totals: run.totals, junit: junit.includes("<testsuites"), advanced: after.now - before.now, missing }));',
        '} finally {',
        '  await mock.close();',
        '}',
        '',
      ].join('\n'),
    );
    // The README's programmatic examples, as one file: they import the package by name and type-check too.
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('\n## Programmatic API\n'),
      readme.indexOf('\n## ', readme.indexOf('\n## Programmatic API\n') + 1),
    );
    const examples = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(examples.length).toBeGreaterThanOrEqual(2);
    const imported = examples.join('').match(/from '[^']+'/g);
    expect(imported).toEqual(["from 'teamchat-kit'", "from 'teamchat-kit/conformance'", "from 'teamchat-kit/control'"]);
    await writeFile(join(consumer, 'src/readme.ts'), examples.join('\n'));
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const compiled = run(process.execPath, [tsc, '-p', '.'], consumer);
    expect(compiled.stdout + compiled.stderr).toBe('');
    expect(compiled.status).toBe(0);
    const used = run(process.execPath, ['out/use.js'], consumer);
    expect(used.stderr).toBe('');
    expect(JSON.parse(used.stdout)).toEqual({
      level: 333,
      settings: 'success',
      totals: { passed: 2, failed: 0, error: 0, skipped: 0 },
      junit: true,
      advanced: 600,
      missing: '404 NOT_FOUND',
    });

    // The declarations are what is checked (not `any`): a wrong option type is an error.
    await writeFile(
      join(consumer, 'src/wrong.ts'),
      [
        "import { createMockServer } from 'teamchat-kit';",
        "import { ControlClient } from 'teamchat-kit/control';",
        "await createMockServer({ port: 'x' });",
        "await new ControlClient('http://127.0.0.1:9').advanceRealm('demo', '600');",
        '',
      ].join('\n'),
    );
    const wrong = run(process.execPath, [tsc, '-p', '.', '--noEmit'], consumer);
    expect(wrong.stdout).toMatch(/src\/wrong\.ts\(3,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
    expect(wrong.stdout).toMatch(
      /src\/wrong\.ts\(4,\d+\): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'/,
    );
    expect(wrong.status).not.toBe(0);
    await rm(join(consumer, 'src/wrong.ts'));
  });
});
