import { describe, expect, it } from 'vitest';
import { comparable, snapshotDiff, type Snapshot } from '../../src/explore/reducers/index.js';

/** A register answer whose channel rows carry the traffic statistics comparable() leaves out. */
function registered(): Snapshot {
  return {
    queue_id: 'q-1',
    subscriptions: [
      { stream_id: 14, name: 'ops', is_recently_active: true, stream_weekly_traffic: 4, subscribers: [7, 8] },
      { stream_id: 12, name: 'lunch', is_recently_active: false, stream_weekly_traffic: null, subscribers: [7] },
    ],
    user_status: { '7': { status_text: 'away', emoji_name: 'palm_tree' } },
  };
}

describe('comparable', () => {
  it('leaves the snapshot it reads as it was', () => {
    const s = registered();
    const out = comparable(s);
    expect(out.subscriptions).toEqual([
      { stream_id: 12, name: 'lunch', subscribers: [7] },
      { stream_id: 14, name: 'ops', subscribers: [7, 8] },
    ]);
    expect(out).not.toHaveProperty('queue_id');
    expect(s).toEqual(registered());
  });
});

describe('snapshotDiff', () => {
  it('finds no difference between rows whose keys come in another order, at any depth', () => {
    const reduced = comparable({
      subscriptions: [
        { subscribers: [7], name: 'lunch', stream_id: 12 },
        { name: 'ops', stream_id: 14, subscribers: [7, 8] },
      ],
      user_status: { '7': { emoji_name: 'palm_tree', status_text: 'away' } },
    });
    expect(snapshotDiff(comparable(registered()), reduced)).toEqual([]);
  });

  it('names a difference below rows whose keys come in another order', () => {
    const reduced = comparable({
      subscriptions: [
        { subscribers: [7], name: 'lunch', stream_id: 12 },
        { name: 'ops', stream_id: 14, subscribers: [8, 7] },
      ],
      user_status: { '7': { emoji_name: 'palm_tree', status_text: 'away' } },
    });
    expect(snapshotDiff(comparable(registered()), reduced)).toEqual([
      { path: 'subscriptions[stream_id=14].subscribers[0]', expected: 7, actual: 8 },
      { path: 'subscriptions[stream_id=14].subscribers[1]', expected: 8, actual: 7 },
    ]);
  });

  it('counts a member set to undefined as absent', () => {
    const reduced = {
      ...comparable(registered()),
      user_status: { '7': { emoji_name: 'palm_tree', status_text: 'away', away: undefined } },
    };
    expect(snapshotDiff(comparable(registered()), reduced)).toEqual([]);
  });
});
