import { get, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  basic,
  deepArray,
  describeAnswer,
  exchange,
  form,
  FORM_TYPE,
  health,
  httpRequest,
  isErrorEnvelope,
  isJson,
  JSON_TYPE,
  searchNarrow,
  TRUNCATED_MULTIPART,
  type RawAnswer,
} from '../../../bench/hostile-requests.js';
import { demoAccounts, type FuzzAccounts } from '../../../bench/wire-fuzz.js';
import { built, cleanUp, serve, serving, type Program } from './spawned.js';

/**
 * What one hostile client did to the compiled `teamchat serve`, each as a test: the process must stay up and
 * keep answering others, and every refusal is the JSON error envelope with a 4xx status. The exact code of a
 * refusal is the server's choice, except where the API fixes it (401 for missing credentials).
 *
 * BUDGET_MS is a hang detector, not a speed target: on an idle machine these answers take milliseconds, and a
 * 2-core CI running other test files beside this one stays well under a second; a request that waits longer
 * sat behind work one hostile request bought.
 */
const BUDGET_MS = 1_000;
/** Longest a refused request itself may take before it counts as hung (far above its milliseconds when refused early). */
const ANSWER_MS = 3_000;

let server: Program;
let accounts: FuzzAccounts;

beforeAll(async () => {
  built();
  server = await serve();
  accounts = await demoAccounts(server.url);
}, 240_000);
beforeEach(async () => {
  const before = server;
  server = await serving(server, [], BUDGET_MS);
  if (server !== before) accounts = await demoAccounts(server.url);
});
afterAll(cleanUp);

/** A refusal as the API makes them: answered, 4xx, the `{result: 'error', code, msg}` envelope. */
function expectRefused(answer: RawAnswer, what: string): void {
  expect(answer.outcome, `${what}: ${describeAnswer(answer)}`).toBe('answered');
  expect(answer.status, `${what}: ${describeAnswer(answer)}`).toBeGreaterThanOrEqual(400);
  expect(answer.status, `${what}: ${describeAnswer(answer)}`).toBeLessThan(500);
  expect(isErrorEnvelope(answer), `${what}: ${describeAnswer(answer)}`).toBe(true);
}

/** The server is up, and a request of nobody in particular gets its answer within the budget. */
async function expectHealthy(): Promise<void> {
  const answer = await health(server.url, BUDGET_MS);
  expect(server.alive(), server.output().slice(-2000)).toBe(true);
  expect(answer.status, describeAnswer(answer)).toBe(200);
}

const post = (path: string, headers: [string, string][], body: string | Buffer) =>
  exchange(server.url, [httpRequest(server.url, { method: 'POST', path, headers, body })], { timeoutMs: ANSWER_MS });

describe('a multipart body cut before its closing boundary', () => {
  for (const path of [
    '/api/v1/server_settings',
    '/api/v1/messages',
    '/api/v1/user_uploads',
    '/__mock/realms',
    '/__mock/realms/demo/events',
  ]) {
    it(`is refused on POST ${path} without credentials, and the server stays up`, async () => {
      expectRefused(await post(path, [TRUNCATED_MULTIPART.type], TRUNCATED_MULTIPART.body), path);
      await expectHealthy();
    });
  }

  it('is refused with a member’s credentials too (the body is read after them)', async () => {
    for (const path of ['/api/v1/messages', '/api/v1/user_uploads']) {
      expectRefused(await post(path, [TRUNCATED_MULTIPART.type, basic(accounts.member)], TRUNCATED_MULTIPART.body), path);
    }
    await expectHealthy();
  });
});

describe('an injected event nested 20,000 deep while the inspector page is open', () => {
  it('leaves the server up, and its queue listing and the user’s events answer without a 5xx', async () => {
    const register = await post('/api/v1/register', [FORM_TYPE, basic(accounts.member)], form({ event_types: '["custom"]' }));
    expect(register.status, describeAnswer(register)).toBe(200);
    const queueId = (JSON.parse(register.body) as { queue_id: string }).queue_id;
    // The inspector page's feed: its state push (after each request) walks what the queues hold.
    let feed: ClientRequest | undefined;
    const opened = new Promise<void>((resolve, reject) => {
      feed = get(`${server.url}/__inspector/feed`, { headers: { accept: 'text/event-stream' } }, (res) => {
        res.resume();
        resolve();
      });
      feed.on('error', reject);
    });
    try {
      await opened;
      const event = `{"event":{"type":"custom","payload":${deepArray(20_000)}}}`;
      const injected = await post('/__mock/realms/demo/events', [JSON_TYPE], event);
      expect(injected.outcome, describeAnswer(injected)).toBe('answered');
      expect(injected.status, describeAnswer(injected)).toBeLessThan(500);
      expect(isJson(injected), describeAnswer(injected)).toBe(true);
      // Past the feed's state delay: the push that once overflowed the stack inside a timer has run.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await expectHealthy();
      const queues = await exchange(server.url, [httpRequest(server.url, { method: 'GET', path: '/__mock/realms/demo/queues' })], {
        timeoutMs: ANSWER_MS,
      });
      expect(queues.status, describeAnswer(queues)).toBeLessThan(500);
      expect(isJson(queues), describeAnswer(queues)).toBe(true);
      const events = await exchange(
        server.url,
        [
          httpRequest(server.url, {
            method: 'GET',
            path: `/api/v1/events?${form({ queue_id: queueId, last_event_id: '-1', dont_block: 'true' })}`,
            headers: [basic(accounts.member)],
          }),
        ],
        { timeoutMs: ANSWER_MS },
      );
      expect(events.status, describeAnswer(events)).toBeLessThan(500);
      expect(isJson(events), describeAnswer(events)).toBe(true);
    } finally {
      feed?.destroy();
    }
  });
});

describe('a guest’s search narrow', () => {
  /** The narrow sent with an unrelated request right behind it: both answers. */
  async function narrowWithNeighbour(narrow: string): Promise<{ answer: RawAnswer; neighbour: RawAnswer }> {
    const body = form({ narrow, anchor: 'newest', num_before: '20', num_after: '0' });
    const sent = exchange(
      server.url,
      [httpRequest(server.url, { method: 'GET', path: '/api/v1/messages', headers: [FORM_TYPE, basic(accounts.guest)], body })],
      {
        timeoutMs: ANSWER_MS,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    const neighbour = await health(server.url, BUDGET_MS);
    return { answer: await sent, neighbour };
  }

  it('of 50,000 words is refused, and an unrelated request sent meanwhile is answered within the budget', async () => {
    const { answer, neighbour } = await narrowWithNeighbour(searchNarrow(50_000));
    expectRefused(answer, '50,000 words');
    expect(neighbour.status, `unrelated request: ${describeAnswer(neighbour)}`).toBe(200);
    await expectHealthy();
  });

  it('of one 20,000-character word is refused without the word reaching the server’s output', async () => {
    const narrow = searchNarrow(1, 20_000);
    const word = (JSON.parse(narrow) as { operand: string }[])[0]!.operand;
    const { answer, neighbour } = await narrowWithNeighbour(narrow);
    expectRefused(answer, '20,000-character word');
    expect(neighbour.status, `unrelated request: ${describeAnswer(neighbour)}`).toBe(200);
    expect(server.output()).not.toContain(word.slice(0, 1_000));
    await expectHealthy();
  });
});

describe('upload bodies that stop arriving', () => {
  it('an upload without credentials is answered 401 before its body is sent', async () => {
    const head = httpRequest(server.url, {
      method: 'POST',
      path: '/api/v1/user_uploads',
      headers: [['Content-Type', 'multipart/form-data; boundary=X']],
      contentLength: 25 * 1024 * 1024,
    });
    const answer = await exchange(server.url, [head, '--X\r\nContent-Disposition: form-data; name="f"; filename="a"\r\n\r\n'], {
      timeoutMs: ANSWER_MS,
    });
    expectRefused(answer, 'unauthenticated upload');
    expect(answer.status).toBe(401);
    await expectHealthy();
  });

  it('four members’ uploads stopped after 1 MiB of 24 MiB leave the server answering others', async () => {
    const MiB = 1024 * 1024;
    const head = httpRequest(server.url, {
      method: 'POST',
      path: '/api/v1/user_uploads',
      headers: [['Content-Type', 'multipart/form-data; boundary=X'], basic(accounts.member)],
      contentLength: 24 * MiB,
    });
    const part = Buffer.concat([
      Buffer.from('--X\r\nContent-Disposition: form-data; name="f"; filename="big.bin"\r\n\r\n'),
      Buffer.alloc(MiB, 0x61),
    ]);
    // Each is given up (its socket destroyed) by this side after a second, unless the server cuts it first.
    const stalled = Array.from({ length: 4 }, () => exchange(server.url, [head, part], { timeoutMs: 1_000 }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expectHealthy();
    for (const answer of await Promise.all(stalled)) {
      // A server that cuts a stopped body may say so; whatever it says is a 4xx envelope.
      if (answer.outcome === 'answered') expectRefused(answer, 'stalled upload');
    }
    await expectHealthy();
  });
});
