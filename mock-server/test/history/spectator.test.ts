import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { channelId, error, freshRealm, messages, putRow, tables, useDemo, type Json } from '../messages/support.js';
import { sized } from './support.js';

/**
 * GET /messages without credentials (reference web-public access): only with a `channels:web-public`
 * narrow of impersonal operators, only web-public channels' messages, all read, avatars as URLs; a
 * realm without spectator access answers 401 before anything else.
 */

const env = useDemo();
const WEB_PUBLIC = { operator: 'channels', operand: 'web-public' };
const NOT_LOGGED_IN = error('Not logged in: API authentication or user session required', 'UNAUTHORIZED');

function anonymous(query: Record<string, unknown>, headers: Record<string, string> = {}) {
  const q = Object.fromEntries(Object.entries(sized(query)).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  return call(env.server, 'GET', '/api/v1/messages', { query: q, headers });
}

describe('GET /messages for spectators', () => {
  it('reads the web-public channels, every message read, avatars as URLs', async () => {
    expect(env.t.realm.realm.enable_spectator_access && env.t.realm.realm.web_public_streams_enabled).toBe(true);
    const res = await anonymous({ anchor: 'newest', num_before: 5000, narrow: [WEB_PUBLIC], client_gravatar: true });
    expect(res.status).toBe(200);
    const webPublic = new Set(
      Object.values(env.t.channels)
        .filter((c) => c.is_web_public)
        .map((c) => c.stream_id),
    );
    const expected = messages(env.t).filter((m) => m.stream_id !== null && webPublic.has(m.stream_id));
    expect(expected.length).toBeGreaterThan(0);
    expect((res.body.messages as Json[]).map((m) => m.id)).toEqual(expected.map((m) => m.id));
    for (const m of res.body.messages as Json[]) {
      expect(m.flags).toEqual(['read']);
      expect(m.avatar_url).not.toBeNull();
    }
    const narrowed = await anonymous({
      anchor: 'newest',
      num_before: 5,
      narrow: [WEB_PUBLIC, { operator: 'channel', operand: channelId('web_public') }, { operator: 'in', operand: 'home' }],
    });
    expect(narrowed.status).toBe(200);
    // The channel's five newest messages exactly (an empty answer would pass an `every` check).
    const inChannel = expected.filter((m) => m.stream_id === channelId('web_public')).map((m) => m.id);
    expect(inChannel.length).toBeGreaterThan(0);
    expect((narrowed.body.messages as Json[]).map((m) => m.id)).toEqual(inChannel.slice(-5));
  });

  it.each([
    ['no narrow', []],
    ['a public (not web-public) channels narrow', [{ operator: 'channels', operand: 'public' }]],
    ['a personal operator', [WEB_PUBLIC, { operator: 'is', operand: 'starred' }]],
    ['a negated web-public term', [{ ...WEB_PUBLIC, negated: true }]],
  ])('is refused as unauthenticated with %s', async (_what, narrow) => {
    const res = await anonymous({ anchor: 'newest', num_before: 5, narrow });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(NOT_LOGGED_IN);
  });

  it('names a channel that is not web-public as unknown', async () => {
    const res = await anonymous({ anchor: 'newest', narrow: [WEB_PUBLIC, { operator: 'channel', operand: channelId('public') }] });
    const desc = `unknown web-public channel ${channelId('public')}`;
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(`Invalid narrow operator: ${desc}`, 'BAD_NARROW', { desc }));
  });

  it('answers 401 in a realm without spectator access, whatever the narrow', async () => {
    const { realm } = await freshRealm(env.server);
    const host = { host: `${realm}.localhost` };
    // The Host header selects that realm: open to spectators as created, then closed.
    expect((await anonymous({ anchor: 'newest', narrow: [WEB_PUBLIC] }, host)).status).toBe(200);
    const row = tables(env.server, realm).realm.realm;
    await putRow(env.server, realm, 'realm', 'realm', { ...row, enable_spectator_access: false });
    const res = await anonymous({ anchor: 'newest', narrow: [WEB_PUBLIC] }, host);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(NOT_LOGGED_IN);
  });
});
