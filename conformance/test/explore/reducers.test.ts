import { describe, expect, it } from 'vitest';
import { applyEvents, comparable, type PolledEvent, type Snapshot } from '../../src/explore/reducers/index.js';

/**
 * The reducers on the shapes the mock's invariant test does not produce: the legacy forms other servers
 * send (one stream_id / user_id per peer event, `streams` only in stream / delete, `operation` for op) and
 * the unread bookkeeping across leaving and joining a channel. Each expectation is what a fresh register
 * would show.
 */
function base(): Snapshot {
  return {
    user_id: 7,
    max_message_id: 40,
    streams: [{ stream_id: 12, name: 'lunch', subscriber_count: 2 }],
    subscriptions: [{ stream_id: 12, name: 'lunch', subscriber_count: 2, subscribers: [7, 8], is_muted: false, first_message_id: 20 }],
    unsubscribed: [],
    never_subscribed: [{ stream_id: 14, name: 'ops', subscriber_count: 1, subscribers: [9], first_message_id: 30 }],
    starred_messages: [21, 40],
    recent_private_conversations: [{ max_message_id: 35, user_ids: [8] }],
    unread_msgs: {
      count: 3,
      pms: [{ other_user_id: 8, sender_id: 8, unread_message_ids: [35] }],
      huddles: [],
      streams: [{ stream_id: 12, topic: 'soup', unread_message_ids: [21, 22] }],
      mentions: [22],
      old_unreads_missing: false,
    },
  };
}

let nextId = 0;
/** The events as a queue gives them: each with its `id`. */
const apply = (s: Snapshot, ...events: PolledEvent[]) =>
  applyEvents(
    s,
    events.map((e) => ({ ...e, id: nextId++ })),
  );
const unread = (s: Snapshot) => s.unread_msgs as { count: number; streams: unknown[]; pms: unknown[]; mentions: number[] };

describe('legacy shapes', () => {
  it('peer events with one stream_id and user_id', () => {
    const s = apply(base(), { type: 'subscription', op: 'peer_add', stream_id: 12, user_id: 9 });
    expect(s.subscriptions).toMatchObject([{ subscribers: [7, 8, 9], subscriber_count: 3 }]);
    expect(s.streams).toMatchObject([{ subscriber_count: 3 }]);
  });

  it('stream / delete naming the channels only in `streams`', () => {
    const s = apply(base(), { type: 'stream', op: 'delete', streams: [{ stream_id: 14 }] });
    expect(s.never_subscribed).toEqual([]);
  });

  it('update_message_flags with `operation` instead of `op`, and delete_message with one message_id', () => {
    const s = apply(
      base(),
      { type: 'update_message_flags', operation: 'add', flag: 'read', messages: [21], all: false },
      { type: 'delete_message', message_type: 'stream', message_id: 40 },
    );
    expect(unread(s).streams).toEqual([{ stream_id: 12, topic: 'soup', unread_message_ids: [22] }]);
    expect(s.starred_messages).toEqual([21]);
    expect(s).not.toHaveProperty('max_message_id');
  });

  it('a channel archived for a client without archived_channels (stream / delete) leaves every list', () => {
    const s = apply(base(), { type: 'stream', op: 'delete', stream_ids: [12], streams: [{ stream_id: 12 }] });
    expect([s.streams, s.subscriptions]).toEqual([[], []]);
    expect(unread(s)).toMatchObject({ count: 1, streams: [], mentions: [] });
  });

  it('a channel the user left comes back (stream / create) to the unsubscribed list, not as never subscribed', () => {
    const left = apply(base(), { type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 12, name: 'lunch' }] });
    const gone = apply(left, { type: 'stream', op: 'delete', stream_ids: [12] });
    expect(gone.unsubscribed).toEqual([]);
    const back = apply(gone, { type: 'stream', op: 'create', streams: [{ stream_id: 12, name: 'lunch', subscriber_count: 1 }] });
    expect(back.unsubscribed).toMatchObject([{ stream_id: 12, name: 'lunch', subscriber_count: 1, is_muted: false }]);
    expect(back.never_subscribed).toHaveLength(1);
  });

  it('a private channel the user left, made public: a create counting no one, then peer_add for each subscriber', () => {
    const left = apply(base(), { type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 12, name: 'lunch' }] });
    const gone = apply(left, { type: 'stream', op: 'delete', stream_ids: [12] });
    const back = apply(
      gone,
      { type: 'stream', op: 'create', streams: [{ stream_id: 12, name: 'lunch', subscriber_count: 0 }] },
      { type: 'subscription', op: 'peer_add', stream_ids: [12], user_ids: [8] },
    );
    // As a fresh register lists it: the one subscriber left, counted once.
    expect(back.unsubscribed).toMatchObject([{ stream_id: 12, subscriber_count: 1, subscribers: [8] }]);
  });
});

describe('messages and moves', () => {
  it('a topic move takes unread messages and their mention along', () => {
    const s = apply(base(), {
      type: 'update_message',
      message_id: 22,
      message_ids: [21, 22],
      stream_id: 12,
      orig_subject: 'soup',
      subject: 'stew',
      propagate_mode: 'change_all',
      flags: [],
    });
    expect(unread(s).streams).toEqual([{ stream_id: 12, topic: 'stew', unread_message_ids: [21, 22] }]);
    expect(unread(s).mentions).toEqual([22]);
  });

  it('a move into a channel the user is not subscribed to hides the messages until they subscribe', () => {
    const moved = apply(base(), {
      type: 'update_message',
      message_id: 21,
      message_ids: [21],
      stream_id: 12,
      new_stream_id: 14,
      orig_subject: 'soup',
      propagate_mode: 'change_one',
      flags: [],
    });
    expect(unread(moved)).toMatchObject({ count: 2, streams: [{ topic: 'soup', unread_message_ids: [22] }] });
    const joined = apply(moved, {
      type: 'subscription',
      op: 'add',
      subscriptions: [{ stream_id: 14, name: 'ops', subscriber_count: 2, subscribers: [7, 9], is_muted: false, first_message_id: 21 }],
    });
    expect(unread(joined).streams).toContainEqual({ stream_id: 14, topic: 'soup', unread_message_ids: [21] });
    expect(joined.never_subscribed).toEqual([]);
  });

  it('a content edit that removes a mention', () => {
    const s = apply(base(), {
      type: 'update_message',
      message_id: 22,
      message_ids: [22],
      content: 'hi',
      rendered_content: '<p>hi</p>',
      flags: [],
    });
    expect(unread(s).mentions).toEqual([]);
  });

  it('leaving and joining a channel again brings its unread messages back', () => {
    const left = apply(base(), { type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 12, name: 'lunch' }] });
    expect(unread(left)).toMatchObject({ count: 1, streams: [], mentions: [] });
    expect(left.unsubscribed).toMatchObject([{ stream_id: 12, subscribers: [8], subscriber_count: 1 }]);
    const back = apply(left, {
      type: 'subscription',
      op: 'add',
      subscriptions: [{ stream_id: 12, name: 'lunch', subscriber_count: 2, subscribers: [7, 8], is_muted: false, first_message_id: 20 }],
    });
    expect(comparable(back)).toEqual(comparable(base()));
  });

  it('joining a channel with history the client never watched leaves unread_msgs unknown', () => {
    const s = apply(base(), { type: 'stream', op: 'create', streams: [{ stream_id: 16, name: 'new to me', first_message_id: 3 }] });
    const joined = apply(s, {
      type: 'subscription',
      op: 'add',
      subscriptions: [{ stream_id: 16, name: 'new to me', subscriber_count: 1, subscribers: [7], first_message_id: 3 }],
    });
    expect(joined).not.toHaveProperty('unread_msgs');
    // A new message cannot bring back what is unknown.
    const later = apply(joined, { type: 'message', message: { id: 41, type: 'stream', stream_id: 16, subject: 'x' }, flags: [] });
    expect(later).not.toHaveProperty('unread_msgs');
    expect(later.max_message_id).toBe(41);
  });

  it('a new message the user holds makes max_message_id known again after a deletion', () => {
    const deleted = apply(base(), { type: 'delete_message', message_type: 'stream', message_ids: [40] });
    expect(deleted).not.toHaveProperty('max_message_id');
    const message = (id: number, streamId: number, senderId: number) => ({
      type: 'message',
      message: { id, type: 'stream', stream_id: streamId, subject: 'x', sender_id: senderId },
      flags: [],
    });
    // One in a channel the user is not subscribed to, which an all_public_streams queue hears of: no copy.
    expect(apply(deleted, message(41, 14, 9))).not.toHaveProperty('max_message_id');
    expect(apply(deleted, message(41, 14, 9), message(42, 12, 8)).max_message_id).toBe(42);
    expect(apply(deleted, message(43, 14, 7)).max_message_id).toBe(43);
  });

  it('deleting the newest message of a direct conversation leaves recent_private_conversations unknown', () => {
    const s = apply(base(), { type: 'delete_message', message_type: 'private', message_ids: [35] });
    expect(s).not.toHaveProperty('recent_private_conversations');
    expect(unread(s).pms).toEqual([]);
    expect(s.max_message_id).toBe(40);
  });

  it('is pure: the snapshot given is not changed', () => {
    const given = base();
    apply(given, { type: 'delete_message', message_type: 'private', message_ids: [35, 40] });
    expect(given).toEqual(base());
  });
});

describe('mentions and muting', () => {
  const mute = (value: boolean): PolledEvent => ({ type: 'subscription', op: 'update', stream_id: 12, property: 'is_muted', value });

  it('a wildcard mention the events told of leaves the list when its channel is muted, and comes back', () => {
    const told = apply(base(), {
      type: 'message',
      message: { id: 41, type: 'stream', stream_id: 12, subject: 'soup' },
      flags: ['wildcard_mentioned'],
    });
    // Message 22 was listed before the client watched: direct or wildcard, it cannot tell; so it is read first.
    const muted = apply(told, { type: 'update_message_flags', op: 'add', flag: 'read', messages: [22], all: false }, mute(true));
    expect(unread(muted)).toMatchObject({ count: 1, mentions: [] });
    expect(unread(apply(muted, mute(false)))).toMatchObject({ count: 3, mentions: [41] });
  });

  it('muting a channel with a listed mention of unknown kind leaves unread_msgs unknown', () => {
    expect(apply(base(), mute(true))).not.toHaveProperty('unread_msgs');
  });

  it('a direct mention stays listed in a muted channel', () => {
    const told = apply(base(), { type: 'update_message', message_id: 22, message_ids: [22], content: 'x', flags: ['mentioned'] });
    expect(unread(apply(told, mute(true)))).toMatchObject({ count: 1, mentions: [22] });
  });
});
