import { describe, expect, it } from 'vitest';
import { applyEvents, comparable, snapshotDiff, UnknownEvent, type Snapshot } from '../../src/explore/reducers/index.js';

/** A small register answer: two channels, unread messages in two topics, a queue of its own. */
function snapshot(): Snapshot {
  return {
    queue_id: 'q-1',
    last_event_id: -1,
    user_id: 7,
    max_message_id: 30,
    subscriptions: [
      { stream_id: 12, name: 'lunch', subscriber_count: 3, is_muted: false },
      { stream_id: 14, name: 'ops', subscriber_count: 2, is_muted: false },
    ],
    unread_msgs: {
      count: 3,
      pms: [],
      huddles: [],
      streams: [
        { stream_id: 12, topic: 'lunch', unread_message_ids: [21, 22] },
        { stream_id: 12, topic: 'tea', unread_message_ids: [23] },
      ],
      mentions: [],
      old_unreads_missing: false,
    },
  };
}

describe('snapshotDiff', () => {
  it('names a row of a list by the field that identifies it', () => {
    const actual = snapshot();
    (actual.subscriptions as { subscriber_count: number }[])[0]!.subscriber_count = 4;
    expect(snapshotDiff(snapshot(), actual)).toEqual([{ path: 'subscriptions[stream_id=12].subscriber_count', expected: 3, actual: 4 }]);
  });

  it('names unread topics by channel and topic, and a row on one side only once', () => {
    const actual = snapshot();
    const unread = actual.unread_msgs as { streams: { stream_id: number; topic: string; unread_message_ids: number[] }[] };
    unread.streams[0]!.unread_message_ids = [21];
    unread.streams.pop();
    expect(snapshotDiff(snapshot(), actual).map((d) => d.path)).toEqual([
      'unread_msgs.streams[stream_id=12,topic=lunch].unread_message_ids',
      'unread_msgs.streams[stream_id=12,topic=tea]',
    ]);
    expect(snapshotDiff(snapshot(), actual)[1]).toMatchObject({ actual: undefined, expected: { topic: 'tea' } });
  });

  it('reports the same rows in another order as one difference of order', () => {
    const actual = snapshot();
    (actual.subscriptions as unknown[]).reverse();
    expect(snapshotDiff(snapshot(), actual)).toEqual([
      { path: 'subscriptions (order)', expected: ['stream_id=12', 'stream_id=14'], actual: ['stream_id=14', 'stream_id=12'] },
    ]);
  });

  it('finds nothing between equal snapshots, whatever the order of their keys', () => {
    const reordered = Object.fromEntries(Object.entries(snapshot()).reverse());
    expect(snapshotDiff(snapshot(), reordered)).toEqual([]);
  });

  it('stops at the limit, and names keys that are not identifiers', () => {
    const expected = { presences: { '11': { idle_timestamp: 1 } }, a: 1, b: 2, c: 3 };
    const actual = { presences: { '11': { idle_timestamp: 2 } }, a: 0, b: 0, c: 0 };
    expect(snapshotDiff(expected, actual, 2).map((d) => d.path)).toEqual(['presences["11"].idle_timestamp', 'a']);
  });
});

describe('comparable', () => {
  it('drops what differs between two registers of the same state', () => {
    const out = comparable({ ...snapshot(), server_timestamp: 5, presence_last_update_id: 9, result: 'success', msg: '' });
    expect(Object.keys(out)).not.toContain('queue_id');
    expect(Object.keys(out)).not.toContain('last_event_id');
    expect(Object.keys(out)).not.toContain('server_timestamp');
    expect(out.max_message_id).toBe(30);
  });

  it('leaves out, with the reduced snapshot, the keys the events could not tell', () => {
    // Deleting the newest message: which message is the newest now, no event says.
    const reduced = applyEvents(snapshot(), [{ type: 'delete_message', id: 0, message_type: 'stream', message_ids: [30] }]);
    expect(reduced).not.toHaveProperty('max_message_id');
    const fresh = { ...snapshot(), max_message_id: 29 };
    expect(comparable(fresh, reduced)).not.toHaveProperty('max_message_id');
    expect(comparable(fresh)).toHaveProperty('max_message_id', 29);
    // What the reducers keep for themselves never reaches a comparison.
    expect(Object.keys(comparable(reduced)).filter((k) => k.startsWith('_'))).toEqual([]);
  });
});

describe('UnknownEvent', () => {
  it('is thrown for an event type no reducer follows', () => {
    const apply = () => applyEvents(snapshot(), [{ type: 'hologram', id: 0, op: 'add' }]);
    expect(apply).toThrow(UnknownEvent);
    expect(apply).toThrow(/type 'hologram'/);
  });

  it('is thrown for an op of a known type that no reducer follows, with the type and op', () => {
    let caught: unknown;
    try {
      applyEvents(snapshot(), [{ type: 'stream', id: 0, op: 'explode', stream_id: 12 }]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UnknownEvent);
    expect(caught).toMatchObject({ eventType: 'stream', op: 'explode' });
  });

  it('is not thrown for events that carry no register state', () => {
    const events = [
      { type: 'heartbeat', id: 0 },
      { type: 'typing', id: 1, op: 'start' },
      { type: 'reaction', id: 2, op: 'add' },
    ];
    expect(comparable(applyEvents(snapshot(), events))).toEqual(comparable(snapshot()));
  });
});
