import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { redirect, sendFile } from '../../src/http/web-answers.js';

// What express's res.sendFile and res.redirect did, on node's own objects (http/web-answers.ts).

let server: Server | undefined;
let dir: string | undefined;
afterEach(async () => {
  await new Promise((done) => (server ? server.close(done) : done(undefined)));
  server = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('sendFile', () => {
  it('serves a file under a directory whose name holds `%`, without an ETag, and a missing one as a 404 error', async () => {
    dir = await mkdtemp(join(tmpdir(), 'web-answers-'));
    const odd = join(dir, '100% a%20b');
    await mkdir(odd);
    await writeFile(join(odd, 'page.txt'), 'hello');
    const errors: (number | undefined)[] = [];
    const url = await serve((req, res) => {
      const name = req.url === '/missing' ? 'missing.txt' : 'page.txt';
      sendFile(req, res, join(odd, name), {}, (error) => {
        errors.push(error?.status);
        if (error) res.end(`error ${error.status}`);
      });
    });
    const found = await request(`${url}/`);
    expect(found.statusCode).toBe(200);
    expect(await found.body.text()).toBe('hello');
    expect(found.headers.etag).toBeUndefined();
    expect(found.headers['last-modified']).toBeDefined();
    const missing = await request(`${url}/missing`);
    expect(await missing.body.text()).toBe('error 404');
    expect(errors).toEqual([undefined, 404]);
  });
});

describe('redirect', () => {
  it.each<[string, string | undefined, string]>([
    ['text/html,application/xhtml+xml,*/*;q=0.8', 'text/html; charset=utf-8', '<p>See Other. Redirecting to /</p>'],
    ['text/plain', 'text/plain; charset=utf-8', 'See Other. Redirecting to /'],
    ['application/json', undefined, ''],
  ])('answers Accept %j with %j', async (accept, type, body) => {
    const url = await serve((req, res) => redirect(req, res, 303, '/'));
    const answer = await request(`${url}/x`, { headers: { accept } });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/');
    expect(answer.headers.vary).toBe('Accept');
    expect(answer.headers['content-type']).toBe(type);
    const text = await answer.body.text();
    if (body === '') expect(text).toBe('');
    else expect(text).toContain(body);
  });
});
