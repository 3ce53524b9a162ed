import { describe, expect, it } from 'vitest';
import type { Who } from '../helpers/test-server.js';
import { HISTORICAL, ROLES, WORLD, channelId, expectedListable, messages, receivedFlags, useDemo, type Json } from '../messages/support.js';
import { NEWEST, getMessages, ids, receivedIds as receivedOf, uid, type Query } from './support.js';

/**
 * GET /messages over HTTP (companion tier, reference get-messages): anchors and windows, the answer's
 * found_* fields, per-message flags, access by role and the view parameters (errors and schemas:
 * get-messages-errors.test.ts).
 */

const env = useDemo();
const world = WORLD as unknown as {
  messages: { protected_history: { stream_id: number; role: string; hidden_id: number; visible_id: number } };
};
const get = (as: Who, query: Query) => getMessages(env, as, query);
const receivedIds = (role: string) => receivedOf(env, role);

describe('GET /messages windows', () => {
  it('newest: the last num_before received messages, anchor 10^16, found_newest', async () => {
    const mine = receivedIds('member');
    const res = await get(env.who.member!, { anchor: 'newest', num_before: 5, num_after: 3 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: 'success',
      anchor: NEWEST,
      found_anchor: false,
      found_newest: true,
      found_oldest: false,
      history_limited: false,
    });
    expect(ids(res.body)).toEqual(mine.slice(-5));
  });

  it('oldest: the first num_after, found_oldest; asking for more than exist finds both ends', async () => {
    const mine = receivedIds('member');
    const first = await get(env.who.member!, { anchor: 'oldest', num_before: 3, num_after: 4 });
    expect(first.body).toMatchObject({ anchor: 0, found_oldest: true, found_newest: false, found_anchor: false });
    expect(ids(first.body)).toEqual(mine.slice(0, 4));
    const all = await get(env.who.member!, { anchor: 'oldest', num_after: mine.length + 1 });
    expect(ids(all.body)).toEqual(mine);
    expect(all.body).toMatchObject({ found_oldest: true, found_newest: true });
  });

  it('an ID anchor: before, the anchor, after; include_anchor false leaves it out at an end', async () => {
    const mine = receivedIds('member');
    const i = Math.floor(mine.length / 2);
    const anchor = mine[i]!;
    const both = await get(env.who.member!, { anchor: String(anchor), num_before: 2, num_after: 2 });
    expect(ids(both.body)).toEqual(mine.slice(i - 2, i + 3));
    expect(both.body).toMatchObject({ anchor, found_anchor: true, found_oldest: false, found_newest: false });
    const excluded = await get(env.who.member!, { anchor: ` ${anchor} `, num_before: 2, include_anchor: false });
    expect(ids(excluded.body)).toEqual(mine.slice(i - 2, i));
    expect(excluded.body).toMatchObject({ found_anchor: false });
    const alone = await get(env.who.member!, { anchor: String(anchor) });
    expect(ids(alone.body)).toEqual([anchor]);
  });

  it('an anchor that is no message of the narrow: found_anchor false, neighbours still found', async () => {
    const mine = receivedIds('member');
    const i = mine.findIndex((id, k) => k + 1 < mine.length && mine[k + 1]! > id + 1);
    expect(i).toBeGreaterThanOrEqual(0);
    const res = await get(env.who.member!, { anchor: String(mine[i]! + 1), num_before: 1, num_after: 1 });
    expect(ids(res.body)).toEqual([mine[i], mine[i + 1]]);
    expect(res.body.found_anchor).toBe(false);
  });

  it('negative and huge anchors mean oldest and newest', async () => {
    expect((await get(env.who.member!, { anchor: '-5', num_after: 1 })).body).toMatchObject({ anchor: 0, found_oldest: true });
    expect((await get(env.who.member!, { anchor: '99999999999999999999', num_before: 1 })).body).toMatchObject({
      anchor: NEWEST,
      found_newest: true,
    });
  });

  it('first_unread (and use_first_unread_anchor) starts at the oldest unread message', async () => {
    const unread = messages(env.t).filter((m) => {
      const f = receivedFlags(env.t, uid('member'), m.id);
      return f !== undefined && !f.includes('read') && !env.t.subscriptions[`${uid('member')}:${m.stream_id}`]?.is_muted;
    });
    expect(unread.length).toBeGreaterThan(0);
    const res = await get(env.who.member!, { anchor: 'first_unread', num_after: 1 });
    expect(res.body).toMatchObject({ anchor: unread[0]!.id, found_anchor: true });
    const mine = receivedIds('member');
    expect(ids(res.body)).toEqual(mine.slice(mine.indexOf(unread[0]!.id), mine.indexOf(unread[0]!.id) + 2));
    const legacy = await get(env.who.member!, { anchor: 'oldest', use_first_unread_anchor: true });
    expect(legacy.body.anchor).toBe(unread[0]!.id);
  });

  it('first_unread without unread messages in the narrow is newest', async () => {
    const res = await get(env.who.member!, { anchor: 'first_unread', num_before: 1, narrow: [{ operator: 'id', operand: 999999 }] });
    expect(res.body).toMatchObject({ anchor: NEWEST, found_newest: true, messages: [] });
  });
});

describe('GET /messages access and flags', () => {
  it('a public channel narrow finds history the caller never received, flagged read + historical', async () => {
    const pub = channelId('public_2');
    const missed = messages(env.t).filter((m) => m.stream_id === pub && receivedFlags(env.t, uid('member_3'), m.id) === undefined);
    expect(missed.length).toBeGreaterThan(0);
    const res = await get(env.who.member_3!, { anchor: 'oldest', num_after: 5000, narrow: [{ operator: 'channel', operand: pub }] });
    const all = messages(env.t).filter((m) => m.stream_id === pub);
    expect(ids(res.body)).toEqual(all.map((m) => m.id));
    const byId = new Map((res.body.messages as Json[]).map((m) => [m.id, m.flags]));
    for (const m of missed) expect(byId.get(m.id)).toEqual(HISTORICAL);
    // Without the channel narrow, only what they received.
    const plain = await get(env.who.member_3!, { anchor: 'oldest', num_after: 5000 });
    expect(ids(plain.body)).toEqual(receivedIds('member_3'));
  });

  it('protected history: a subscriber sees only what they received, even narrowed to the channel', async () => {
    const p = world.messages.protected_history;
    const res = await get(env.who[p.role]!, {
      anchor: 'oldest',
      num_after: 5000,
      narrow: [['stream', WORLD.channels.private_protected!.name]],
    });
    expect(ids(res.body)).toContain(p.visible_id);
    expect(ids(res.body)).not.toContain(p.hidden_id);
    expect(
      (await get(env.who[p.role]!, { anchor: String(p.hidden_id), narrow: [{ operator: 'channel', operand: p.stream_id }] })).body
        .found_anchor,
    ).toBe(false);
  });

  it('a guest reads the history of channels they are subscribed to only; the non-subscriber of a private channel nothing', async () => {
    // Subscribed (reference can_access_stream_history: shared history and channel access): all of it.
    const home = channelId('public');
    const subscribed = await get(env.who.guest!, { anchor: 'oldest', num_after: 5000, narrow: [{ operator: 'channel', operand: home }] });
    expect(ids(subscribed.body)).toEqual(
      messages(env.t)
        .filter((m) => m.stream_id === home)
        .map((m) => m.id),
    );
    expect((subscribed.body.messages as Json[]).some((m) => JSON.stringify(m.flags) === JSON.stringify(HISTORICAL))).toBe(true);
    // A public channel they are not subscribed to: only what they received (guests see no public channel).
    const other = channelId('public_2');
    expect(env.t.subscriptions[`${uid('guest')}:${other}`]?.active).not.toBe(true);
    const unsubscribed = await get(env.who.guest!, {
      anchor: 'oldest',
      num_after: 5000,
      narrow: [{ operator: 'channel', operand: other }],
    });
    const received = messages(env.t).filter((m) => m.stream_id === other && receivedFlags(env.t, uid('guest'), m.id) !== undefined);
    expect(ids(unsubscribed.body)).toEqual(received.map((m) => m.id));
    const priv = await get(env.who.member_3!, {
      anchor: 'oldest',
      num_after: 5000,
      narrow: [{ operator: 'channel', operand: channelId('private_protected') }],
    });
    expect(ids(priv.body)).toEqual([]);
  });

  it('every returned message carries the caller own flags, and other people direct messages never show', async () => {
    const res = await get(env.who.member!, { anchor: 'newest', num_before: 5000 });
    // Exactly what the member received, so the checks below cannot pass on an empty answer.
    expect(ids(res.body)).toEqual(receivedIds('member'));
    expect(ids(res.body).length).toBeGreaterThan(0);
    for (const m of res.body.messages as Json[]) expect(m.flags).toEqual(receivedFlags(env.t, uid('member'), m.id as number));
    const notMine = messages(env.t).filter((m) => m.type === 'private' && !m.dm_user_ids!.includes(uid('member')));
    expect(notMine.length).toBeGreaterThan(0);
    for (const m of notMine) expect(ids(res.body)).not.toContain(m.id);
  });
});

describe('GET /messages by role', () => {
  it.each(ROLES)('%s: without a narrow what they received; narrowed to each world channel, its readable history', async (role) => {
    const plain = await get(env.who[role]!, { anchor: 'oldest', num_after: 5000 });
    expect(ids(plain.body)).toEqual(receivedIds(role));
    for (const kind of Object.keys(WORLD.channels)) {
      const id = channelId(kind);
      const res = await get(env.who[role]!, { anchor: 'newest', num_before: 5000, narrow: [{ operator: 'channel', operand: id }] });
      const expected = messages(env.t).filter((m) => m.stream_id === id && expectedListable(env.t, uid(role), m));
      expect(ids(res.body), `${role} in ${kind}`).toEqual(expected.map((m) => m.id));
    }
  });
});

describe('GET /messages view parameters', () => {
  it('apply_markdown false gives the Markdown source; search highlights matches', async () => {
    const m = messages(env.t).find((x) => x.stream_id === channelId('public') && /\b[a-z]{6,}\b/.test(x.content))!;
    const raw = await get(env.who.owner!, {
      anchor: String(m.id),
      apply_markdown: false,
      narrow: [{ operator: 'channel', operand: m.stream_id }],
    });
    expect((raw.body.messages as Json[])[0]).toMatchObject({ id: m.id, content: m.content, content_type: 'text/x-markdown' });
    const word = m.content.match(/\b[a-z]{6,}\b/)![0];
    const found = await get(env.who.owner!, {
      anchor: String(m.id),
      narrow: [
        { operator: 'channel', operand: m.stream_id },
        { operator: 'search', operand: word.toUpperCase() },
      ],
    });
    const hit = (found.body.messages as Json[])[0]!;
    expect(hit.id).toBe(m.id);
    expect(String(hit.match_content)).toMatch(new RegExp(`<span class="highlight">${word}[a-z]*</span>`, 'i'));
    expect(typeof hit.match_subject).toBe('string');
    const plain = await get(env.who.owner!, { anchor: String(m.id), narrow: [{ operator: 'channel', operand: m.stream_id }] });
    expect((plain.body.messages as Json[])[0]).not.toHaveProperty('match_content');
  });
});
