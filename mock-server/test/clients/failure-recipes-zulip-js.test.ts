import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
// The stock JavaScript client, unmodified (npm zulip-js 2.1.0): what client developers point at the mock.
import zulip from 'zulip-js';
import type { MockServer } from '../../src/app.js';
import { until, useClientProcesses } from '../helpers/client-process.js';
import { call, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * Recipes (README "Testing your client's failure handling"): zulip-js against the mock's fault rules, rate limits
 * and restarts, with the journal showing what the client sent. What zulip-js itself does on a bad day, found in
 * its sources and asserted here: it hands every JSON answer to the app (errors included: no retry, no
 * Retry-After); a non-JSON answer (a proxy's HTML page) and a dropped connection reject with node-fetch's
 * FetchError (isomorphic-fetch); its callOnEachEvent never re-registers after BAD_EVENT_QUEUE_ID (it keeps
 * polling the dropped queue once a second), so an app that must survive a restart writes its own loop.
 */
type Answer = Record<string, unknown>;
interface ZulipJs {
  messages: { send(params: Record<string, unknown>): Promise<Answer> };
  queues: { register(params: Record<string, unknown>): Promise<Answer> };
  events: { retrieve(params: Record<string, unknown>): Promise<Answer> };
  users: { me: { getProfile(): Promise<Answer> } };
}
const connect = zulip as unknown as (config: Record<string, unknown>) => Promise<ZulipJs>;

let mock: MockServer;
let realm: string;
let member: Who & { user_id: number };
let owner: Who & { user_id: number };
let channel: string;
beforeAll(async () => void (mock = await startTestServer()));
afterAll(() => mock.close());
beforeEach(async () => {
  // A realm per test: its own rules, queues and journal.
  const created = await mock.control.createRealm({});
  realm = created.realm_id;
  member = created.world.credentials.member;
  owner = created.world.credentials.owner;
  channel = created.world.channels.public.name;
});

const login = (who: Who) => connect({ username: who.email, apiKey: who.api_key, realm: mock.url });
const journal = (filter: Parameters<MockServer['requests']>[0]) => mock.requests(filter, realm);
const directMessage = (to: { user_id: number }, content: string) =>
  call(mock, 'POST', '/api/v1/messages', { as: owner, form: { type: 'private', to: JSON.stringify([to.user_id]), content } });

/** The app's sending code: on RATE_LIMIT_HIT it waits the answer's `retry-after` and tries again (bounded). */
async function sendWithRetry(client: ZulipJs, params: Record<string, unknown>, wait: (seconds: number) => Promise<void>) {
  for (let attempt = 1; ; attempt++) {
    const answer = await client.messages.send(params);
    if (answer.code !== 'RATE_LIMIT_HIT' || attempt === 3) return answer;
    await wait(answer['retry-after'] as number);
  }
}

/**
 * The app's event loop on zulip-js's own calls (queues.register, events.retrieve): unlike callOnEachEvent it
 * registers again when the queue is gone (BAD_EVENT_QUEUE_ID, as after a server restart), and polls again after a
 * dropped connection. Returns the first message event `wanted` accepts; at most `rounds` polls.
 */
async function nextMessage(client: ZulipJs, wanted: (event: Answer) => boolean, rounds = 20): Promise<Answer> {
  let queue: { id: unknown; last: number } | null = null;
  for (let round = 0; round < rounds; round++) {
    if (!queue) {
      const registered = await client.queues.register({ event_types: ['message'] });
      queue = { id: registered.queue_id, last: registered.last_event_id as number };
    }
    const answer = await client.events.retrieve({ queue_id: queue.id, last_event_id: queue.last }).catch((error: Error) => ({ error }));
    if ('error' in answer) continue; // the connection dropped: poll the same queue again (a real app backs off first)
    if (answer.code === 'BAD_EVENT_QUEUE_ID') queue = null;
    for (const event of (answer.events as Answer[] | undefined) ?? []) {
      queue!.last = Math.max(queue!.last, event.id as number);
      if (event.type === 'message' && wanted(event)) return event;
    }
  }
  throw new Error(`no message after ${rounds} polls`);
}

describe('zulip-js on a bad day', () => {
  it('a rate_limit rule: the app sees RATE_LIMIT_HIT with retry-after, waits it, and the retry goes through', async () => {
    await mock.faults.add({ operation: 'send-message', times: 1, effect: { type: 'preset', preset: 'rate_limit', retry_after: 3 } }, realm);
    const client = await login(member);
    const waited: number[] = [];
    const params = { type: 'stream', to: channel, topic: 'retries', content: 'sent once it may' };
    const answer = await sendWithRetry(client, params, async (seconds) => void waited.push(seconds));
    expect(answer).toMatchObject({ result: 'success' });
    expect(waited).toEqual([3]);
    const sent = journal({ operation: 'send-message' });
    expect(sent.map((r) => [r.status, r.injected])).toEqual([
      [429, 'rate_limit'],
      [200, null],
    ]);
    for (const request of sent) {
      expect(request.params).toMatchObject({ topic: 'retries', content: 'sent once it may' });
      expect(request.headers['user-agent']).toMatch(/^node-fetch\//); // zulip-js sends no User-Agent of its own
      expect(request.headers).not.toHaveProperty('authorization');
    }
  });

  it("the realm's own rate limit (3 per 60 s): the 4th send gets retry-after; the realm clock moved on by it, the retry goes through", async () => {
    mock.control.setRateLimit(realm, { requests: 3, seconds: 60 });
    const client = await login(member);
    const waited: number[] = [];
    // The app's wait, in realm time: the test moves the realm's clock instead of sleeping.
    const wait = async (seconds: number) => void (waited.push(seconds), await mock.control.advanceRealm(realm, seconds));
    for (const content of ['one', 'two', 'three', 'four']) {
      expect(await sendWithRetry(client, { type: 'stream', to: channel, topic: 'budget', content }, wait)).toMatchObject({
        result: 'success',
      });
    }
    expect(waited).toHaveLength(1);
    expect(waited[0]).toBeGreaterThan(0);
    expect(waited[0]).toBeLessThanOrEqual(60);
    const sent = journal({ operation: 'send-message' });
    expect(sent.map((r) => [r.params.content, r.status, r.injected])).toEqual([
      ['one', 200, null],
      ['two', 200, null],
      ['three', 200, null],
      ['four', 429, null],
      ['four', 200, null],
    ]);
  });

  it('a restart: an app loop on queues.register/events.retrieve registers again and receives the next message', async () => {
    const client = await login(member);
    const received = nextMessage(client, (event) => (event.message as Answer).content === 'after the restart');
    await until(() => mock.control.queues(realm).some((q) => q.user_id === member.user_id && q.waiting), 'the first long-poll');
    mock.control.restartQueues(realm, { user_id: member.user_id });
    const registers = () => journal({ operation: 'register-queue', user: member.email }).filter((r) => r.status === 200);
    await until(() => registers().length === 2 || undefined, 'the second register');
    await directMessage(member, 'after the restart');
    expect(await received).toMatchObject({ type: 'message', message: { content: 'after the restart' } });
    // The dropped queue's next poll was refused (400 BAD_EVENT_QUEUE_ID); every poll after it is on the new queue.
    const polls = journal({ operation: 'get-events', user: member.email });
    const refused = polls.findIndex((r) => r.status === 400);
    expect(polls[refused]!.params.queue_id).toBe(polls[0]!.params.queue_id);
    const later = polls.slice(refused + 1).map((r) => r.params.queue_id);
    expect(later).not.toHaveLength(0);
    expect(later).not.toContain(polls[0]!.params.queue_id);
  });

  // A child process that starts and loads zulip-js: generous bounds for a busy machine.
  it(
    "zulip-js's own callOnEachEvent does not register again: it keeps polling the dropped queue and misses the next message",
    { timeout: 30_000 },
    async () => {
      const client = runCallOnEachEvent(member);
      await until(() => mock.control.queues(realm).some((q) => q.user_id === member.user_id && q.waiting), 'the first long-poll', 15_000);
      await directMessage(member, 'before the restart');
      await until(() => client.lines.length === 1 || undefined, 'the first message');
      mock.control.restartQueues(realm, { user_id: member.user_id });
      const refused = () => journal({ operation: 'get-events', user: member.email }).filter((r) => r.status === 400);
      await until(() => refused().length >= 1 || undefined, 'a poll of the dropped queue');
      await directMessage(member, 'after the restart');
      // One more refused poll after the message was sent (they come a second apart): the client had its chance.
      const count = refused().length;
      await until(() => refused().length > count || undefined, 'one more poll of the dropped queue', 5_000);
      expect(client.lines.map((e) => ((e as Answer).message as Answer).content)).toEqual(['before the restart']);
      expect(journal({ operation: 'register-queue', user: member.email })).toHaveLength(1);
      const queues = new Set(journal({ operation: 'get-events', user: member.email }).map((r) => r.params.queue_id));
      expect(queues.size).toBe(1);
    },
  );

  it('a 502 HTML page from the proxy: zulip-js rejects with FetchError invalid-json; the next call goes through', async () => {
    await mock.faults.add({ operation: 'get-own-user', times: 1, effect: { type: 'preset', preset: 'bad_gateway' } }, realm);
    const client = await login(member);
    const failure = (await client.users.me.getProfile().catch((error: unknown) => error)) as Error & { type?: string };
    expect(failure.name).toBe('FetchError');
    expect(failure.type).toBe('invalid-json');
    expect(failure.message).toMatch(
      /^invalid json response body at http:\/\/127\.0\.0\.1:\d+\/api\/v1\/users\/me reason: Unexpected token '<'/,
    );
    expect(await client.users.me.getProfile()).toMatchObject({ result: 'success', user_id: member.user_id });
    expect(journal({ operation: 'get-own-user' }).map((r) => [r.status, r.injected])).toEqual([
      [502, 'bad_gateway'],
      [200, null],
    ]);
  });

  it('a connection reset: zulip-js rejects with FetchError system ECONNRESET; the next call goes through', async () => {
    await mock.faults.add({ operation: 'get-own-user', times: 1, effect: { type: 'reset' } }, realm);
    const client = await login(member);
    const failure = (await client.users.me.getProfile().catch((error: unknown) => error)) as Error & { type?: string; code?: string };
    expect({ name: failure.name, type: failure.type, code: failure.code }).toEqual({
      name: 'FetchError',
      type: 'system',
      code: 'ECONNRESET',
    });
    expect(failure.message).toMatch(/^request to http:\/\/127\.0\.0\.1:\d+\/api\/v1\/users\/me failed, reason: /);
    expect(await client.users.me.getProfile()).toMatchObject({ result: 'success' });
    expect(journal({ operation: 'get-own-user' }).map((r) => r.injected)).toEqual(['reset', null]);
  });
});

const spawnClient = useClientProcesses();
const root = fileURLToPath(new URL('../../..', import.meta.url));

/** zulip-js's callOnEachEvent in a child process (it loops forever; the child is killed after the test), events printed as JSON lines. */
function runCallOnEachEvent(who: Who) {
  const program = [
    "const zulip = require('zulip-js');",
    'const { SITE, EMAIL, API_KEY } = process.env;',
    "zulip({ realm: SITE, username: EMAIL, apiKey: API_KEY }).then((z) => z.callOnEachEvent((e) => e.type === 'message' && console.log(JSON.stringify(e)), ['message']));",
  ].join('\n');
  return spawnClient(process.execPath, ['-e', program], { ...process.env, SITE: mock.url, EMAIL: who.email, API_KEY: who.api_key }, root);
}
