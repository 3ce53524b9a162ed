import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { MockServer } from '../../src/app.js';
import { originOf } from '../../src/http/served-contract.js';
import { spawnServer, stop } from '../helpers/spawn-server.js';
import { call, startTestServer } from '../helpers/test-server.js';

/**
 * The server serves the document it validates with (JSON and YAML, `servers` pointing at
 * the URL the request reached) and a reference page whose script comes from the installed redoc package.
 */
const docPath = fileURLToPath(new URL('../../../openapi/team-chat.openapi.yaml', import.meta.url));
const docText = await readFile(docPath, 'utf8');
const SERVERS_BLOCK = /^servers:\n(?: {2}.*\n)*/m;

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** A GET with a Host header of our choosing (fetch would not send one). */
async function get(path: string, host?: string) {
  const res = await request(server.url + path, { headers: host === undefined ? {} : { host } });
  const policy = res.headers['content-security-policy'];
  return { status: res.statusCode, type: String(res.headers['content-type']), policy, text: await res.body.text() };
}

const withoutServers = (doc: Record<string, unknown>) => ({ ...doc, servers: undefined });

describe('GET /openapi.json and /openapi.yaml', () => {
  it('/openapi.json is the document as JSON, its servers the URL the request reached', async () => {
    const res = await get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^application\/json\b/);
    const served = JSON.parse(res.text) as Record<string, unknown>;
    expect(served.servers).toEqual([{ url: server.url, description: expect.any(String) as string }]);
    expect(withoutServers(served)).toEqual(withoutServers(parse(docText) as Record<string, unknown>));
  });

  it('/openapi.yaml is the file itself, comments and layout kept, with only the servers block replaced', async () => {
    const res = await get('/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^application\/yaml\b/);
    expect((parse(res.text) as { servers: unknown }).servers).toEqual([{ url: server.url, description: expect.any(String) as string }]);
    const original = SERVERS_BLOCK.exec(docText)![0];
    expect(res.text.replace(SERVERS_BLOCK, original)).toBe(docText);
  });

  it('names the host the client used: a Host header of another name or port is followed', async () => {
    const port = new URL(server.url).port;
    const json = JSON.parse((await get('/openapi.json', `localhost:${port}`)).text) as { servers: { url: string }[] };
    expect(json.servers[0]!.url).toBe(`http://localhost:${port}`);
    const yaml = parse((await get('/openapi.yaml', `[::1]:${port}`)).text) as { servers: { url: string }[] };
    expect(yaml.servers[0]!.url).toBe(`http://[::1]:${port}`);
  });

  it('falls back to the server URL when the Host header is more than a host and port', async () => {
    for (const host of ['evil.test/path', 'user@evil.test', 'evil.test?x=1', 'a b']) {
      const res = await get('/openapi.json', host);
      expect(res.status, host).toBe(200);
      expect((JSON.parse(res.text) as { servers: { url: string }[] }).servers[0]!.url, host).toBe(server.url);
    }
    expect(originOf('Example.TEST:80')).toBe('http://example.test');
    expect(originOf(undefined)).toBeNull();
  });

  it('is open without the control token, and with the control API off', async () => {
    const guarded = await startTestServer({ controlToken: 'contract-test-token' });
    const noControl = await startTestServer({ control: false });
    try {
      expect((await call(guarded, 'GET', '/__mock/realms')).status).toBe(401);
      for (const s of [guarded, noControl]) {
        for (const path of ['/openapi.json', '/openapi.yaml', '/docs', '/docs/redoc.standalone.js']) {
          expect((await call(s, 'GET', path)).status, `${s.url}${path}`).toBe(200);
        }
      }
    } finally {
      await guarded.close();
      await noControl.close();
    }
  });

  it('serves the document the server was started with (config openapiPath), adding servers when it has none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tc-contract-'));
    const path = join(dir, 'custom.openapi.yaml');
    const custom = docText.replace(SERVERS_BLOCK, '').replace('title: Team Chat REST API', 'title: A custom contract');
    await writeFile(path, custom);
    const other = await startTestServer({ openapiPath: path });
    try {
      const yaml = await call(other, 'GET', '/openapi.yaml');
      expect(yaml.text.startsWith(custom)).toBe(true);
      const served = parse(yaml.text) as { info: { title: string }; servers: { url: string }[] };
      expect(served.info.title).toBe('A custom contract');
      expect(served.servers).toEqual([{ url: other.url, description: expect.any(String) as string }]);
      expect((JSON.parse((await call(other, 'GET', '/openapi.json')).text) as typeof served).info.title).toBe('A custom contract');
    } finally {
      await other.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('GET /docs', () => {
  it('is an HTML page whose only script and document come from this server', async () => {
    const res = await get('/docs');
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/html\b/);
    expect(res.text).toContain('<script src="/docs/redoc.standalone.js"></script>');
    expect(res.text).toContain('spec-url="/openapi.json"');
    // The browser enforces it too: the page may load from this server only.
    expect(res.policy).toMatch(/(^|; )default-src 'self'(;|$)/);
    expect(res.policy).toMatch(/(^|; )img-src 'self' data:(;|$)/);
    // Nothing from another host: every src and href is a path on this server.
    const urls = [...res.text.matchAll(/\b(?:src|href|spec-url)="([^"]*)"/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url, url).toMatch(/^\/[^/]/);
  });

  it('serves redoc’s standalone bundle from the installed package, byte for byte', async () => {
    const file = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
    const res = await request(`${server.url}/docs/redoc.standalone.js`);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/javascript/);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(sha(Buffer.from(await res.body.arrayBuffer()))).toBe(sha(await readFile(file)));
    const licence = await call(server, 'GET', '/docs/redoc.standalone.js.LICENSE.txt');
    expect(licence.status).toBe(200);
  });

  it('answers other paths under /docs with the JSON 404 envelope', async () => {
    for (const path of ['/docs/package.json', '/docs/..%2Fpackage.json', '/docs/redoc.lib.js']) {
      const res = await call(server, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Not Found' });
    }
  });

  it('is named in the banner of teamchat serve, and answers there (the inspector page too)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tc-contract-rc-'));
    const spawned = await spawnServer(['--in-memory', '--zuliprc-dir', dir]);
    try {
      expect(spawned.output()).toContain(`API reference: ${spawned.url}/docs (the contract: ${spawned.url}/openapi.yaml, /openapi.json)`);
      expect(spawned.output()).toContain(`inspector: ${spawned.url}/ in a browser\n`);
      const page = await request(`${spawned.url}/`, { headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(await page.body.text()).toContain('<title>teamchat-kit inspector</title>');
      const docs = await request(`${spawned.url}/docs`);
      expect(docs.statusCode).toBe(200);
      expect(await docs.body.text()).toContain('/docs/redoc.standalone.js');
    } finally {
      await stop(spawned);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is listed on GET /', async () => {
    const res = await call(server, 'GET', '/');
    expect(res.body).toMatchObject({ openapi: '/openapi.json', docs: '/docs' });
  });
});
