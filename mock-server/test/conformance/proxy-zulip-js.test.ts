import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The stock JavaScript client, unmodified (npm zulip-js): a client developer's run, through the proxy.
import zulip from 'zulip-js';
import type { RunResult } from '../../../conformance/src/model.js';
import { startProxy, type RunningProxy } from '../../../conformance/src/proxy/proxy.js';
import { FILE_REPORTERS } from '../../../conformance/src/report/index.js';
import type { MockServer } from '../../src/app.js';
import { credentials, startTestServer } from '../helpers/test-server.js';

/**
 * `teamchat proxy` with the mock as its target: a realistic session of the stock
 * JavaScript client through the proxy (settings, register, a long-poll woken by a message, sending,
 * reading, editing, reactions, flags, drafts, subscriptions, the errors a client meets) must find no
 * violation, since the mock is built from the same contract. Here because conformance/ tests may not
 * import the mock server (dependency-cruiser).
 */
type Answer = Record<string, unknown>;
interface Client {
  callEndpoint(endpoint: string, method?: string, params?: Record<string, unknown>): Promise<Answer>;
  server: { settings(): Promise<Answer> };
  queues: { register(p: Record<string, unknown>): Promise<Answer>; deregister(p: Record<string, unknown>): Promise<Answer> };
  events: { retrieve(p: Record<string, unknown>): Promise<Answer> };
  streams: {
    retrieve(p?: Record<string, unknown>): Promise<Answer>;
    getStreamId(name: string): Promise<Answer>;
    subscriptions: { retrieve(p?: Record<string, unknown>): Promise<Answer> };
    topics: { retrieve(p: Record<string, unknown>): Promise<Answer> };
  };
  messages: {
    send(p: Record<string, unknown>): Promise<Answer>;
    retrieve(p: Record<string, unknown>): Promise<Answer>;
    render(p: Record<string, unknown>): Promise<Answer>;
    update(p: Record<string, unknown>): Promise<Answer>;
    getById(p: Record<string, unknown>): Promise<Answer>;
    getHistoryById(p: Record<string, unknown>): Promise<Answer>;
    flags: { add(p: Record<string, unknown>): Promise<Answer> };
  };
  reactions: { add(p: Record<string, unknown>): Promise<Answer>; remove(p: Record<string, unknown>): Promise<Answer> };
  users: { retrieve(p?: Record<string, unknown>): Promise<Answer>; me: { getProfile(): Promise<Answer> } };
  typing: { send(p: Record<string, unknown>): Promise<Answer> };
}
const connect = zulip as unknown as (config: Record<string, unknown>) => Promise<Client>;

let server: MockServer;
let proxy: RunningProxy;
let run: RunResult;
let key: string;
const output: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  proxy = await startProxy({ target: server.url, out: { write: (s: string) => output.push(s) }, verbose: true });
  const who = credentials(server).member!;
  key = who.api_key;
  const member = await connect({ username: who.email, apiKey: who.api_key, realm: proxy.url });
  await session(member, credentials(server).owner!.user_id);
  const stranger = await connect({ username: who.email, apiKey: 'x'.repeat(32), realm: proxy.url });
  expect(await stranger.messages.render({ content: 'x' })).toMatchObject({ code: 'INVALID_API_KEY', msg: 'Invalid API key' });
  run = await proxy.stop();
}, 60_000);
afterAll(async () => {
  await proxy?.stop();
  await server?.close();
});

/** What a client does in a session; each answer is asserted loosely, the proxy judges it strictly. */
async function session(c: Client, ownerId: number): Promise<void> {
  expect(await c.server.settings()).toMatchObject({ result: 'success' });
  const queue = await c.queues.register({ event_types: ['message', 'reaction'] });
  expect(queue).toMatchObject({ result: 'success' });
  const full = await c.queues.register({ fetch_event_types: ['realm_user', 'subscription', 'message'] });
  expect(full).toMatchObject({ result: 'success' });
  const streams = (await c.streams.retrieve()).streams as { name: string; stream_id: number }[];
  const subs = (await c.streams.subscriptions.retrieve()).subscriptions as { name: string; stream_id: number }[];
  const channel = subs[0]!;
  expect(await c.streams.getStreamId(channel.name)).toMatchObject({ stream_id: channel.stream_id });
  expect(streams.length).toBeGreaterThan(0);
  await c.users.retrieve();
  await c.users.me.getProfile();

  // A long-poll through the proxy, woken by a message sent meanwhile.
  const polled = c.events.retrieve({ queue_id: queue.queue_id, last_event_id: -1 });
  await new Promise((r) => setTimeout(r, 200));
  const sent = await c.messages.send({ to: channel.stream_id, type: 'stream', topic: 'proxy check', content: 'through the **proxy**' });
  expect(sent).toMatchObject({ result: 'success' });
  expect(((await polled).events as { type: string }[]).some((e) => e.type === 'message')).toBe(true);

  const id = sent.id as number;
  await c.messages.send({ to: [ownerId], type: 'direct', content: 'a direct one' });
  await c.messages.retrieve({ anchor: 'newest', num_before: 20, num_after: 0, narrow: [{ operator: 'channel', operand: channel.name }] });
  await c.messages.retrieve({ anchor: 'newest', num_before: 5, num_after: 0, allow_empty_topic_name: true });
  await c.messages.getById({ message_id: id });
  await c.messages.update({ message_id: id, content: 'edited through the proxy' });
  await c.messages.getHistoryById({ message_id: id });
  await c.messages.render({ content: '**bold** and `code`' });
  await c.messages.flags.add({ messages: [id], flag: 'starred' });
  await c.reactions.add({ message_id: id, emoji_name: 'octopus' });
  await c.reactions.remove({ message_id: id, emoji_name: 'octopus' });
  await c.streams.topics.retrieve({ stream_id: channel.stream_id });
  await c.typing.send({ to: [ownerId], op: 'start' });
  await c.callEndpoint('/drafts', 'POST', {
    drafts: JSON.stringify([{ type: 'stream', to: [channel.stream_id], topic: 't', content: 'd' }]),
  });
  await c.callEndpoint('/drafts', 'GET');
  await c.callEndpoint('/users/me/status', 'POST', { status_text: 'proxied' });
  // An unknown parameter, which the answer must list as ignored.
  await c.callEndpoint('/streams', 'GET', { colour: 'red' });
  await c.events.retrieve({ queue_id: full.queue_id, last_event_id: -1, dont_block: true });
  await c.queues.deregister({ queue_id: full.queue_id });

  // The errors a client meets: each must be the documented code, status and message.
  expect(await c.messages.getById({ message_id: 99_999_999 })).toMatchObject({ code: 'BAD_REQUEST' });
  expect(await c.messages.render({})).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING' });
  expect(await c.callEndpoint('/navigation_views/narrow/is/nowhere', 'PATCH', { is_pinned: true })).toMatchObject({ code: 'NOT_FOUND' });
  expect(await c.events.retrieve({ queue_id: 'no-such-queue', last_event_id: -1, dont_block: true })).toMatchObject({
    code: 'BAD_EVENT_QUEUE_ID',
  });
  expect(await c.callEndpoint('/users/me/subscriptions', 'DELETE', { subscriptions: JSON.stringify(['no such channel']) })).toMatchObject({
    result: expect.any(String),
  });
}

describe('teamchat proxy with the mock as target', () => {
  it('finds no violation in a stock client session', () => {
    const violations = run.scenarios.flatMap((s) => s.checks.filter((c) => !c.ok).map((c) => `${s.id} [${c.rule}] ${c.message}`));
    expect(violations).toEqual([]);
    expect(run.totals).toMatchObject({ failed: 0, error: 0 });
  });

  it('judged the whole session, with its rules covered', () => {
    // Every request of the session above, the stranger's included.
    expect(proxy.recorder.exchanges).toBe(34);
    const ops = run.scenarios.map((s) => s.id);
    for (const op of [
      'register-queue',
      'get-events',
      'send-message',
      'get-messages',
      'update-message',
      'add-reaction',
      'edit-navigation-view',
    ])
      expect(ops).toContain(op);
    const covered = run.rules.filter((r) => r.passed.length > 0).map((r) => r.id);
    for (const rule of ['R1-2', 'R1-3', 'R1-4', 'R1-8', 'R4.21-17', 'R7-1', 'R7-4']) expect(covered).toContain(rule);
    expect(run.featureLevel).toBe(412);
    expect(output.join('')).toContain('feature level 412 announced');
  });

  it('keeps the API key out of its output and of every report', () => {
    expect(output.join('')).not.toContain(key);
    for (const { render } of Object.values(FILE_REPORTERS)) expect(render(run)).not.toContain(key);
    // The basic-auth header itself is never recorded either.
    expect(JSON.stringify(run)).not.toMatch(/Basic [A-Za-z0-9+/=]{20,}/);
  });
});
