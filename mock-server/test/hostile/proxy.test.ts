import { mkdir, readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  basic,
  describeAnswer,
  exchange,
  health,
  httpRequest,
  isJson,
  TRUNCATED_MULTIPART,
  type RequestParts,
} from '../../../bench/hostile-requests.js';
import { demoAccounts, type FuzzAccounts } from '../../../bench/wire-fuzz.js';
import { built, cleanUp, proxy, scratch, serve, serving, type Program } from './spawned.js';

/**
 * The compiled `teamchat proxy` under hostile input: in front of the compiled mock, and in front of a target that
 * answers everything with success (so what is tested is the proxy, whatever the mock does). The proxy stays up,
 * answers JSON, writes its reports on SIGTERM (exit 0 or 1, as documented) and keeps API keys out of them.
 */
const ANSWER_MS = 3_000;

let mock: Program;
let accounts: FuzzAccounts;
let stub: Server;
let stubUrl: string;

beforeAll(async () => {
  built();
  mock = await serve();
  accounts = await demoAccounts(mock.url);
  stub = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"success","msg":""}'));
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
}, 240_000);
beforeEach(async () => {
  const before = mock;
  mock = await serving(mock, [], ANSWER_MS);
  if (mock !== before) accounts = await demoAccounts(mock.url);
});
afterAll(async () => {
  await cleanUp();
  stub.closeAllConnections();
  await new Promise((resolve) => stub.close(resolve));
});

const send = (url: string, parts: RequestParts) => exchange(url, [httpRequest(url, parts)], { timeoutMs: ANSWER_MS });

/** Every report file's text, read after the proxy stopped. */
async function reports(dir: string): Promise<string> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const texts = await Promise.all(names.map((name) => readFile(join(dir, name), 'utf8').catch(() => '')));
  return texts.join('\n');
}

async function started(target: string): Promise<{ program: Program; dir: string }> {
  const dir = join(await scratch(), 'reports');
  await mkdir(dir, { recursive: true });
  return { program: await proxy(target, dir), dir };
}

describe('teamchat proxy', () => {
  for (const [name, target] of [
    ['the compiled mock', () => mock.url],
    ['a target that answers everything', () => stubUrl],
  ] as const) {
    it(`in front of ${name}: a multipart body cut before its closing boundary leaves it up, and SIGTERM writes its reports`, async () => {
      const { program, dir } = await started(target());
      const answer = await send(program.url, {
        method: 'POST',
        path: '/api/v1/server_settings',
        headers: [TRUNCATED_MULTIPART.type],
        body: TRUNCATED_MULTIPART.body,
      });
      expect(answer.outcome, describeAnswer(answer)).toBe('answered');
      expect(answer.status, describeAnswer(answer)).toBeLessThan(500);
      expect(isJson(answer), describeAnswer(answer)).toBe(true);
      const after = await health(program.url, ANSWER_MS);
      expect(program.alive(), program.output()).toBe(true);
      expect(after.status, describeAnswer(after)).toBe(200);
      expect([0, 1]).toContain(await program.stop());
      expect(await readdir(dir)).toContain('report.json');
    });
  }

  it('keeps every spelling of an API key out of its reports', async () => {
    const { program, dir } = await started(mock.url);
    const key = accounts.member.api_key;
    const spellings = ['api_key', 'apiKey', 'APIKEY', 'Api-Key', 'API_KEY'];
    for (const name of spellings) {
      await send(program.url, { method: 'GET', path: `/api/v1/users/me?${name}=${key}`, headers: [basic(accounts.member)] });
    }
    expect([0, 1]).toContain(await program.stop());
    const text = await reports(dir);
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain(key);
  });

  it('answers a header block the mock accepts (20 KiB), or refuses it with a JSON envelope, never a bare 431', async () => {
    const { program } = await started(mock.url);
    const answer = await send(program.url, {
      method: 'GET',
      path: '/api/v1/server_settings',
      headers: [['X-Padding', 'p'.repeat(20 * 1024)]],
    });
    expect(answer.outcome, describeAnswer(answer)).toBe('answered');
    expect(answer.status, describeAnswer(answer)).toBeLessThan(500);
    expect(isJson(answer), describeAnswer(answer)).toBe(true);
    expect(program.alive()).toBe(true);
  });
});
