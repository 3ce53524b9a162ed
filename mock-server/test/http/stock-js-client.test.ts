import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The stock JavaScript client, unmodified (npm zulip-js 2.1.0): what client developers point at the mock.
import zulip from 'zulip-js';
import { spawnServer, stop, type Spawned } from '../helpers/spawn-server.js';

interface ZulipClient {
  callEndpoint(endpoint: string, method?: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  server: { settings(): Promise<Record<string, unknown>> };
}
const connect = zulip as unknown as (config: Record<string, unknown>) => Promise<ZulipClient>;

let server: Spawned;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamchat-zuliprc-'));
  server = await spawnServer(['--in-memory', '--zuliprc-dir', dir]);
}, 30_000);
afterAll(async () => {
  await stop(server);
  await rm(dir, { recursive: true, force: true });
});

describe('the stock JavaScript client (zulip-js) against `teamchat serve`', () => {
  it('connects with the zuliprc file the server wrote and renders Markdown (multipart POST)', async () => {
    const client = await connect({ zuliprc: join(dir, 'zuliprc-member') });
    const res = await client.callEndpoint('/messages/render', 'POST', { content: '**hi**' });
    expect(res).toEqual({ result: 'success', msg: '', rendered: '<p><strong>hi</strong></p>' });
  });

  it('writes zuliprc files only their owner can read (they hold API keys; zulip-terminal refuses others)', async () => {
    const files = (await readdir(dir)).filter((f) => f.startsWith('zuliprc-'));
    expect(files).toContain('zuliprc-member');
    for (const f of files) expect(((await stat(join(dir, f))).mode & 0o777).toString(8), f).toBe('600');
  });

  it('gets a missing-parameter error, not a parser error, for an empty multipart POST', async () => {
    const client = await connect({ zuliprc: join(dir, 'zuliprc-member') });
    const res = await client.callEndpoint('/messages/render', 'POST', {});
    expect(res).toMatchObject({ result: 'error', code: 'REQUEST_VARIABLE_MISSING', var_name: 'content' });
  });

  it('works with a realm URL ending in a slash (request-target //api/v1/…)', async () => {
    const rc = await readFile(join(dir, 'zuliprc-owner'), 'utf8');
    const email = /email=(.*)/.exec(rc)![1]!;
    const key = /key=(.*)/.exec(rc)![1]!;
    const client = await connect({ username: email, apiKey: key, realm: `${server.url}/` });
    const res = await client.callEndpoint('/messages/render', 'POST', { content: 'slash' });
    expect(res).toMatchObject({ result: 'success', rendered: '<p>slash</p>' });
  });

  it('reads server settings with the spec names and the reference aliases', async () => {
    const client = await connect({ zuliprc: join(dir, 'zuliprc-member') });
    const settings = await client.server.settings();
    expect(settings).toMatchObject({ result: 'success', service_feature_level: 412, zulip_feature_level: 412 });
    expect(settings.zulip_version).toBe(settings.service_version);
  });

  it('receives JSON errors it can parse for bad credentials', async () => {
    const client = await connect({ username: 'nobody@demo.teamchat.test', apiKey: 'x'.repeat(32), realm: server.url });
    const res = await client.callEndpoint('/messages/render', 'POST', { content: 'x' });
    expect(res).toEqual({ result: 'error', code: 'INVALID_API_KEY', msg: 'Invalid API key' });
  });
});

describe('the stock JavaScript client on channels, subscriptions and sending', () => {
  interface Full extends ZulipClient {
    streams: {
      retrieve(p?: Record<string, unknown>): Promise<Record<string, unknown>>;
      getStreamId(name: string): Promise<Record<string, unknown>>;
      subscriptions: { retrieve(p?: Record<string, unknown>): Promise<Record<string, unknown>> };
      topics: { retrieve(p: Record<string, unknown>): Promise<Record<string, unknown>> };
    };
    users: {
      me: {
        subscriptions: {
          add(p: Record<string, unknown>): Promise<Record<string, unknown>>;
          remove(p: Record<string, unknown>): Promise<Record<string, unknown>>;
        };
      };
    };
    messages: { send(p: Record<string, unknown>): Promise<Record<string, unknown>> };
  }
  const member = () => connect({ zuliprc: join(dir, 'zuliprc-member') }) as Promise<Full>;

  it('lists channels and subscriptions, finds a channel by name and lists its topics', async () => {
    const client = await member();
    const streams = (await client.streams.retrieve()).streams as { name: string; stream_id: number }[];
    const home = streams.find((s) => s.name === 'home')!;
    expect(await client.streams.getStreamId('home')).toMatchObject({ result: 'success', stream_id: home.stream_id });
    const subs = (await client.streams.subscriptions.retrieve()).subscriptions as { stream_id: number }[];
    expect(subs.map((s) => s.stream_id)).toContain(home.stream_id);
    const topics = await client.streams.topics.retrieve({ stream_id: home.stream_id });
    expect((topics.topics as unknown[]).length).toBeGreaterThan(0);
  });

  it('sends to a channel by name (to=home, as the client sends it) and to a user by ID list', async () => {
    const client = await member();
    const sent = await client.messages.send({ type: 'stream', to: 'home', topic: 'from zulip-js', content: 'Hello' });
    expect(sent).toMatchObject({ result: 'success' });
    expect(typeof sent.id).toBe('number');
    const direct = await client.messages.send({ type: 'private', to: '[15]', content: 'Hi' });
    expect(direct).toMatchObject({ result: 'success' });
  });

  it('joins and leaves a channel with pre-encoded lists, and reports an unencoded list as malformed JSON', async () => {
    const client = await member();
    const joined = await client.users.me.subscriptions.add({ subscriptions: JSON.stringify([{ name: 'zulip-js room' }]) });
    expect(joined).toMatchObject({ result: 'success', subscribed: { '14': ['zulip-js room'] } });
    const left = await client.users.me.subscriptions.remove({ subscriptions: JSON.stringify(['zulip-js room']) });
    expect(left).toMatchObject({ result: 'success', removed: ['zulip-js room'], not_removed: [] });
    const unencoded = await client.users.me.subscriptions.remove({ subscriptions: 'home,alarm' });
    expect(unencoded).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'subscriptions is not valid JSON' });
  });
});
