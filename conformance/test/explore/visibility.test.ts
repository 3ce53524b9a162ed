import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client.js';
import { ExploreActor } from '../../src/explore/actors.js';
import { Knowledge, type KnownMessage } from '../../src/explore/knowledge.js';
import { mayHoldMessage, maySeeMessage } from '../../src/explore/visibility.js';

/**
 * Explore's two sight rules for an actor that received a message and then left its channel: access by ID
 * (maySeeMessage, what reads and most events are judged by) follows the channel as it is now; the actor's
 * own copy (mayHoldMessage, what its flag events are judged by) stays.
 */

const client = {} as ApiClient;

function actor(name: string, userId: number, channels: number[], guest = false): ExploreActor {
  const a = new ExploreActor(client, name, { role: name, email: `${name}@x.test`, api_key: 'k' }, userId, guest, false);
  a.state = { subscriptions: channels.map((id) => ({ stream_id: id })) };
  return a;
}

/** A public channel (100) and a private one (101), and one message received by `receivedBy` in each. */
function world(receivedBy: string[]) {
  const k = new Knowledge();
  for (const [i, priv] of [false, true].entries())
    k.channels.push({ key: k.bind('c', 100 + i), id: 100 + i, name: `ch${i}`, private: priv, webPublic: false, archived: false });
  const message = (channel: string): KnownMessage => {
    const id = 1000 + k.messages.length;
    const m: KnownMessage = {
      key: k.bind('m', id),
      id,
      sender: 'administrator',
      channel,
      topic: 't',
      participants: [],
      content: 'x',
      deleted: false,
      reactions: new Set(),
      receivedBy: new Set(receivedBy),
    };
    k.messages.push(m);
    return m;
  };
  return { k, inPublic: message('c1'), inPrivate: message('c2') };
}

describe('explore sight after leaving a channel', () => {
  it('a member who left the private channel may no longer see its received message, but still holds it', () => {
    const { k, inPrivate } = world(['member']);
    const stayed = actor('member', 2, [100, 101]);
    const left = actor('member', 2, [100]);
    expect(maySeeMessage(stayed, inPrivate, k)).toBe(true);
    expect(maySeeMessage(left, inPrivate, k)).toBe(false);
    expect(mayHoldMessage(left, inPrivate, k)).toBe(true);
  });

  it('a guest who left the public channel loses it too; a member who left it keeps access', () => {
    const { k, inPublic } = world(['guest', 'member']);
    expect(maySeeMessage(actor('guest', 4, [], true), inPublic, k)).toBe(false);
    expect(mayHoldMessage(actor('guest', 4, [], true), inPublic, k)).toBe(true);
    expect(maySeeMessage(actor('member', 2, []), inPublic, k)).toBe(true);
  });

  it('an actor that never received the message holds nothing of a channel it is not in', () => {
    const { k, inPrivate } = world([]);
    expect(mayHoldMessage(actor('member_2', 3, [100]), inPrivate, k)).toBe(false);
  });
});
