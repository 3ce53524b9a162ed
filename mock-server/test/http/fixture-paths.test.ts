import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, open, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { MAX_FIXTURE_BYTES } from '../../src/control/fixture-file.js';
import { call, startTestServer } from '../helpers/test-server.js';

/**
 * `fixture` of POST /__mock/realms reads only `demo` or a regular realm export file under the fixtures
 * directory: devices, other directories' files, `..`, symbolic links leading out, directories, pipes and
 * oversized files are refused from their path and `stat` alone, and no answer quotes a file's bytes.
 * The operator's own `--fixture FILE` is read wherever it lies.
 */

let root: string;
let dir: string;
let outsideExport: string;
let server: MockServer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'teamchat-fixtures-'));
  dir = join(root, 'fixtures');
  await mkdir(join(dir, 'sub'), { recursive: true });
  const maker = await startTestServer();
  const { result: _r, msg: _m, ...exported } = (await call(maker, 'GET', '/__mock/realms/demo/export')).body;
  await maker.close();
  const text = JSON.stringify(exported);
  outsideExport = join(root, 'outside.json');
  await writeFile(outsideExport, text);
  await writeFile(join(dir, 'sub', 'inside.json'), text);
  await writeFile(join(dir, 'secret.txt'), 'root:x:0:0:root:/root:/bin/bash\n');
  await symlink(outsideExport, join(dir, 'leads-out.json'));
  await symlink('/dev/zero', join(dir, 'zero.json'));
  await symlink(join(dir, 'sub', 'inside.json'), join(dir, 'stays-in.json'));
  // Sparse: larger than the limit on disk's say-so, without writing 64 MiB.
  const big = await open(join(dir, 'big.json'), 'w');
  await big.truncate(MAX_FIXTURE_BYTES + 1);
  await big.close();
  expect(spawnSync('mkfifo', [join(dir, 'pipe.json')]).status).toBe(0);
  server = await startTestServer({ fixturesDir: dir, fixture: outsideExport });
});

afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

/** Control calls as JSON: what every mutating control call accepts, whatever else it may refuse cross-site. */
const json = (on: MockServer, method: string, path: string, body: Record<string, unknown> = {}) =>
  call(on, method, `/__mock${path}`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const create = (fixture: string) => json(server, 'POST', '/realms', { fixture });
const OUTSIDE = /not a file under the fixtures directory \(--fixtures-dir\)/;

describe('fixture of POST /__mock/realms', () => {
  it.each([
    ['/dev/zero', OUTSIDE],
    ['/etc/passwd', OUTSIDE],
    ['../outside.json', OUTSIDE],
    ['sub/../../outside.json', OUTSIDE],
    ['leads-out.json', OUTSIDE],
    ['zero.json', OUTSIDE],
    ['sub', /is not a regular file/],
    ['.', OUTSIDE],
    ['pipe.json', /is not a regular file/],
    ['missing.json', /no such file in the fixtures directory/],
    ['big.json', /is larger than 64 MiB/],
    ['secret.txt', /is not a realm export/],
  ])('%s: a 400 naming the problem, no file content, no realm', async (fixture, problem) => {
    const before = server.control.listRealms().length;
    const res = await create(fixture);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect(String(res.body.msg)).toMatch(problem);
    expect(res.text).not.toMatch(/root:|\\u0000/);
    expect(server.control.listRealms().length).toBe(before);
  });

  it('reads a realm export under the directory, by relative name, absolute path or a link that stays inside', async () => {
    for (const fixture of ['sub/inside.json', join(dir, 'sub', 'inside.json'), 'stays-in.json']) {
      const res = await create(fixture);
      expect(res.status, fixture).toBe(201);
      const id = res.body.realm_id as string;
      expect((await json(server, 'POST', `/realms/${id}/reset`)).status, fixture).toBe(200);
      expect((await json(server, 'DELETE', `/realms/${id}`)).status).toBe(200);
    }
  });

  it("the operator's --fixture is read where it lies: the default realm, its reset, and a request naming it", async () => {
    expect(server.control.summary('demo').fixture).toBe(outsideExport);
    expect((await json(server, 'POST', '/realms/demo/reset')).status).toBe(200);
    const res = await create(outsideExport);
    expect(res.status).toBe(201);
    expect((await json(server, 'DELETE', `/realms/${res.body.realm_id as string}`)).status).toBe(200);
  });

  it('a missing fixtures directory is said so', async () => {
    const other = await startTestServer({ fixturesDir: join(root, 'none') });
    try {
      const res = await json(other, 'POST', '/realms', { fixture: 'a.json' });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(`The fixtures directory ${join(root, 'none')} does not exist; start the server with --fixtures-dir <dir>.`);
    } finally {
      await other.close();
    }
  });
});
