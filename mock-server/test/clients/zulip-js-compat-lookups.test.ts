import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useZulipJsServer, type ZulipJsBase } from '../helpers/zulip-js.js';

type Answer = Record<string, unknown>;
interface ZulipClient extends ZulipJsBase {
  server: { settings(): Promise<Answer> };
  emojis: { retrieve(): Promise<Answer> };
  filters: { retrieve(): Promise<Answer> };
  users: { me: { alertWords: { retrieve(): Promise<Answer> } } };
}
const js = useZulipJsServer<ZulipClient>();

const client = (role: string) => js.client(role);

describe('zulip-js: compat-lookups (companion tier)', () => {
  it('server.settings names zulip_version, zulip_feature_level and zulip_merge_base', async () => {
    const settings = await (await client('member')).server.settings();
    expect(settings).toMatchObject({ result: 'success', zulip_feature_level: settings.service_feature_level });
    expect(settings.zulip_merge_base).toBe(settings.service_version);
  });

  it('register answers zulip_version beside service_version', async () => {
    const res = await (await client('member')).callEndpoint('/register', 'POST', { fetch_event_types: ['realm_emoji'] });
    expect(res).toMatchObject({ result: 'success', zulip_version: res.service_version });
    expect(res.realm_emoji).toBeTypeOf('object');
  });

  it('emojis.retrieve gets the realm emoji map', async () => {
    const res = await (await client('member')).emojis.retrieve();
    expect(res.result).toBe('success');
    const emoji = Object.values(res.emoji as Record<string, { id: string; name: string }>);
    expect(emoji.length).toBeGreaterThan(0);
    for (const e of emoji) expect(e.id).toMatch(/^[0-9]+$/);
  });

  it('filters.retrieve gets the legacy [pattern, url_template, id] list, like GET /realm/linkifiers', async () => {
    const c = await client('member');
    const linkifiers = (await c.callEndpoint('/realm/linkifiers', 'GET')).linkifiers as {
      id: number;
      pattern: string;
      url_template: string;
    }[];
    const res = await c.filters.retrieve();
    expect(res).toEqual({ result: 'success', msg: '', filters: linkifiers.map((l) => [l.pattern, l.url_template, l.id]) });
  });

  it('gets a user by email through callEndpoint', async () => {
    const rc = await readFile(join(js.dir, 'zuliprc-owner'), 'utf8');
    const email = /email=(.*)/.exec(rc)![1]!.trim();
    const res = await (await client('member')).callEndpoint(`/users/${email}`, 'GET');
    expect(res).toMatchObject({ result: 'success', user: { email } });
    const missing = await (await client('member')).callEndpoint('/users/nobody@demo.teamchat.test', 'GET');
    expect(missing).toEqual({ result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
  });

  it('lists user groups through callEndpoint, and a guest gets the refusal as JSON', async () => {
    const res = await (await client('member')).callEndpoint('/user_groups', 'GET');
    expect(res.result).toBe('success');
    expect((res.user_groups as unknown[]).length).toBeGreaterThan(0);
    const guest = await (await client('guest')).callEndpoint('/user_groups', 'GET');
    expect(guest).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Not allowed for guest users' });
  });

  it('adds (multipart POST), lists (users.me.alertWords) and removes (DELETE, query string) alert words', async () => {
    const c = await client('member_2');
    expect(await c.callEndpoint('/users/me/alert_words', 'POST', { alert_words: ['castle', 'Moat'] })).toEqual({
      result: 'success',
      msg: '',
      alert_words: ['castle', 'Moat'],
    });
    expect((await c.users.me.alertWords.retrieve()).alert_words).toEqual(['castle', 'Moat']);
    const removed = await c.callEndpoint('/users/me/alert_words', 'DELETE', { alert_words: JSON.stringify(['MOAT']) });
    expect(removed.alert_words).toEqual(['castle']);
  });

  it('mutes and clears a topic with POST /user_topics (multipart), seen in register', async () => {
    const c = await client('member_3');
    const streams = (await c.callEndpoint('/users/me/subscriptions', 'GET')).subscriptions as { stream_id: number; name: string }[];
    const channel = streams[0]!;
    expect(
      await c.callEndpoint('/user_topics', 'POST', { stream_id: channel.stream_id, topic: 'zulip-js topic', visibility_policy: 1 }),
    ).toEqual({
      result: 'success',
      msg: '',
    });
    const snap = await c.callEndpoint('/register', 'POST', { fetch_event_types: ['muted_topics'] });
    expect((snap.muted_topics as unknown[][]).map((t) => t.slice(0, 2))).toEqual([[channel.name, 'zulip-js topic']]);
    await c.callEndpoint('/user_topics', 'POST', { stream_id: channel.stream_id, topic: 'zulip-js topic', visibility_policy: 0 });
    expect((await c.callEndpoint('/register', 'POST', { fetch_event_types: ['muted_topics'] })).muted_topics).toEqual([]);
  });

  it('keeps a bot’s state: PUT, GET and DELETE /bot_storage as the bots framework uses it', async () => {
    const c = await client('bot');
    expect(await c.callEndpoint('/bot_storage', 'PUT', { storage: JSON.stringify({ counter: '1' }) })).toEqual({
      result: 'success',
      msg: '',
    });
    expect(await c.callEndpoint('/bot_storage', 'GET', { keys: JSON.stringify(['counter']) })).toEqual({
      result: 'success',
      msg: '',
      storage: { counter: '1' },
    });
    expect(await c.callEndpoint('/bot_storage', 'DELETE', { keys: JSON.stringify(['counter']) })).toEqual({ result: 'success', msg: '' });
    expect(await c.callEndpoint('/bot_storage', 'GET', { keys: JSON.stringify(['counter']) })).toEqual({
      result: 'error',
      msg: 'Key does not exist.',
      code: 'BAD_REQUEST',
    });
  });
});
