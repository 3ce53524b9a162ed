import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { features } from '../../src/config/features.js';
import { doUpdateMessage } from '../../src/domain/actions/messages.js';
import { doDeleteMessage } from '../../src/domain/edit-delete/delete.js';
import type { EmitContext } from '../../src/domain/channels/events.js';
import { markRead } from '../../src/domain/messages/flags.js';
import { sendMessage } from '../../src/domain/messages/send.js';
import { doMarkTopicAsRead } from '../../src/domain/messages/topic-ops.js';
import { addSubscribers, removeSubscribers } from '../../src/domain/subscriptions/membership.js';
import { keptIndex, ownedRows, RealmIndex, topicMessages } from '../../src/store/indexes.js';
import { memoryPersistence } from '../../src/store/persistence.js';
import type { RealmState, UserRow } from '../../src/store/state.js';
import { Store, type Tx } from '../../src/store/store.js';
import { userRow } from '../../src/store/user-row.js';
import { startTestServer } from '../helpers/test-server.js';
import { OWNED, ownerField, randomOwnedWrite, recomputeOwned } from './index-owned-writes.js';

/**
 * Property test of the store's indexes (store/indexes.ts): after seeded random sequences of writes
 * through the real domain functions and plain row writes (sending, reading, subscribing, accounts,
 * moves and deletions of update-message and delete-message and raw ones, the companion tier's per-user rows (bot
 * storage, topic policies, uploads, presence; raw rows handed to another owner), transactions that fail and roll
 * back, realm replacement and a reload), every index equals a recomputation from the rows by plain scans.
 */

/** mulberry32: a small seeded generator, so a failure names the seed that reproduces it. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const byNumber = (a: number, b: number) => a - b;
const sortedRecord = <T>(entries: [string | number, T][]) =>
  Object.fromEntries(entries.sort(([a], [b]) => (String(a) < String(b) ? -1 : 1)));

/** The facts every index holds, computed the slow way: one scan of the rows. */
function recompute(tables: RealmState) {
  type Channel = { ids: number[]; timestamps: number[]; topics: Map<string, number[]> };
  const channels = new Map<number, Channel>();
  const conversations = new Map<number, Map<string, number[]>>();
  const senders = new Map<number, number[]>();
  for (const m of Object.values(tables.messages)) {
    senders.set(m.sender_id, [...(senders.get(m.sender_id) ?? []), m.id]);
    if (m.stream_id !== null) {
      const c: Channel = channels.get(m.stream_id) ?? { ids: [], timestamps: [], topics: new Map() };
      channels.set(m.stream_id, c);
      c.ids.push(m.id);
      c.timestamps.push(m.timestamp);
      const key = m.subject.toLowerCase();
      c.topics.set(key, [...(c.topics.get(key) ?? []), m.id]);
    }
    if (m.type === 'private' && m.dm_user_ids) {
      for (const u of m.dm_user_ids) {
        const mine = conversations.get(u) ?? new Map<string, number[]>();
        conversations.set(u, mine);
        const key = m.dm_user_ids
          .filter((x) => x !== u)
          .sort(byNumber)
          .join(',');
        mine.set(key, [...(mine.get(key) ?? []), m.id]);
      }
    }
  }
  const receipts = new Map<number, { received: number[]; unread: number[]; starred: number[] }>();
  for (const row of Object.values(tables.user_messages)) {
    for (const [user, flags] of Object.entries(row.flags)) {
      const r = receipts.get(Number(user)) ?? { received: [], unread: [], starred: [] };
      receipts.set(Number(user), r);
      r.received.push(row.message_id);
      if (!flags.includes('read')) r.unread.push(row.message_id);
      if (flags.includes('starred')) r.starred.push(row.message_id);
    }
  }
  const subscribers = new Map<number, number[]>();
  const subscribed = new Map<number, number[]>();
  for (const s of Object.values(tables.subscriptions)) {
    if (!s.active) continue;
    subscribed.set(s.user_id, [...(subscribed.get(s.user_id) ?? []), s.stream_id]);
    if (tables.users[String(s.user_id)]?.is_active) subscribers.set(s.stream_id, [...(subscribers.get(s.stream_id) ?? []), s.user_id]);
  }
  const byEmail = new Map<string, number[]>();
  const byDeliveryEmail = new Map<string, number[]>();
  for (const u of Object.values(tables.users)) {
    byEmail.set(u.email.toLowerCase(), [...(byEmail.get(u.email.toLowerCase()) ?? []), u.user_id]);
    const delivery = u.delivery_email.toLowerCase();
    byDeliveryEmail.set(delivery, [...(byDeliveryEmail.get(delivery) ?? []), u.user_id]);
  }
  const plain = (map: Map<string | number, number[]>) =>
    sortedRecord([...map].map(([k, ids]) => [String(k), [...ids].sort(byNumber)] as [string, number[]]));
  return {
    messages: {
      channels: sortedRecord(
        [...channels].map(([id, c]) => [
          id,
          {
            ids: c.ids.sort(byNumber),
            timestamps: c.timestamps.sort(byNumber),
            topics: sortedRecord([...c.topics].map(([k, ids]) => [k, ids.sort(byNumber)] as [string, number[]])),
          },
        ]),
      ),
      conversations: sortedRecord(
        [...conversations].map(([u, mine]) => [
          u,
          sortedRecord([...mine].map(([k, ids]) => [k, ids.sort(byNumber)] as [string, number[]])),
        ]),
      ),
      senders: sortedRecord([...senders].map(([u, ids]) => [u, ids.sort(byNumber)] as [number, number[]])),
    },
    receipts: sortedRecord(
      [...receipts].map(([u, r]) => [
        u,
        { received: r.received.sort(byNumber), unread: r.unread.sort(byNumber), starred: r.starred.sort(byNumber) },
      ]),
    ),
    people: {
      subscribers: plain(subscribers),
      subscribed: plain(subscribed),
      byEmail: plain(byEmail),
      byDeliveryEmail: plain(byDeliveryEmail),
    },
    owned: recomputeOwned(tables),
  };
}

function describeIndex(index: RealmIndex) {
  return {
    messages: index.messages.describe(),
    receipts: index.receipts.describe(),
    people: index.people.describe(),
    owned: index.owned.describe(),
  };
}

/** The index the store keeps, every facet built, so later writes reach them incrementally. */
function touched(tables: RealmState): RealmIndex {
  const index = keptIndex(tables);
  if (!index) throw new Error('the store keeps no index for this realm');
  describeIndex(index);
  return index;
}

const TOPICS = ['Castle', 'castle', 'bench', 'Bench', '', 'moat'];

class Rollback extends Error {}

/** One random write (or a few) inside transaction `tx`. */
function randomWrite(tx: Tx, rnd: () => number, now: number): void {
  const pick = <T>(list: T[]): T => list[Math.floor(rnd() * list.length)]!;
  const tables = tx.tables;
  const users = Object.values(tables.users).filter((u) => !u.is_system_bot);
  const active = users.filter((u) => u.is_active);
  const channels = Object.values(tables.channels);
  const feats = features(tables.realm.realm.feature_level);
  const ctx: EmitContext = { tx, features: feats, now };
  const sendCtx = { realm: tables.realm.realm, features: feats, now };
  const messages = Object.values(tables.messages);
  const r = rnd();
  if (r < 0.25) {
    const channel = pick(channels);
    const wildcard = rnd() < 0.2 ? '@**topic** ' : '';
    sendMessage(tx, sendCtx, {
      sender: pick(active),
      recipient: { type: 'stream', channel: tables.channels[String(channel.stream_id)]!, topic: pick(TOPICS) },
      content: `${wildcard}hello ${Math.floor(rnd() * 1000)}`,
      client: 'test',
      readBySender: rnd() < 0.7,
    });
  } else if (r < 0.35) {
    const others = [pick(active), pick(active)].slice(0, 1 + Math.floor(rnd() * 2));
    sendMessage(tx, sendCtx, {
      sender: pick(active),
      recipient: { type: 'private', users: others },
      content: 'psst',
      client: 'test',
      readBySender: true,
    });
  } else if (r < 0.45) {
    const user = pick(users);
    const mine = Object.values(tables.user_messages).filter((row) => row.flags[String(user.user_id)] !== undefined);
    const chosen = mine.filter(() => rnd() < 0.5).map((row) => row.message_id);
    markRead(tx, user.user_id, chosen);
    // Star or unstar the first of them too (register's starred_messages), without another draw, so the
    // random sequence of every other step stays as it was.
    const row = chosen.length > 0 ? tables.user_messages[String(chosen[0])] : undefined;
    const flags = row?.flags[String(user.user_id)];
    if (row && flags) {
      const next = flags.includes('starred') ? flags.filter((f) => f !== 'starred') : [...flags, 'starred'];
      tx.put('user_messages', row.message_id, { ...row, flags: { ...row.flags, [String(user.user_id)]: next } });
    }
  } else if (r < 0.5) {
    const m = pick(messages.filter((x) => x.stream_id !== null));
    const user = pick(active);
    if (tables.subscriptions[`${user.user_id}:${m.stream_id}`]?.active)
      doMarkTopicAsRead(
        tx,
        { realm: tables.realm.realm, user, features: feats, now, userAgent: 'test' },
        { stream_id: m.stream_id!, topic_name: m.subject.toUpperCase() },
      );
  } else if (r < 0.6) {
    const channel = pick(channels);
    const user = pick(active);
    const sub = tables.subscriptions[`${user.user_id}:${channel.stream_id}`];
    if (sub?.active) removeSubscribers(ctx, channel, [user]);
    else addSubscribers(ctx, channel, [user], false);
  } else if (r < 0.68) {
    // Deactivate or reactivate an account, sometimes with a new address in another letter case.
    // Never below a few active accounts, whatever the seed: every other write needs someone to act.
    const user = pick(active.length > 5 ? users : users.filter((u) => !u.is_active));
    if (!user) return;
    const email = rnd() < 0.5 ? user.email : user.email.toUpperCase();
    tx.put('users', user.user_id, {
      ...user,
      is_active: !user.is_active,
      email,
      delivery_email: rnd() < 0.5 ? email : user.delivery_email,
    });
  } else if (r < 0.72) {
    const id = tx.nextId('users');
    const twin = pick(users);
    const row: UserRow = userRow({
      user_id: id,
      email: rnd() < 0.3 ? twin.email : `new${id}@example.com`,
      full_name: `New ${id}`,
      api_key: `k${id}`.padEnd(32, 'x'),
      recipient_id: tx.nextId('recipients'),
      date_joined: now,
    });
    tx.put('users', id, row);
  } else if (r < 0.82) {
    // A move: through update-message (receipts, notices, first_message_id follow), or a raw row write
    // to another channel or topic, keeping its time, or a time change.
    const m = pick(messages.filter((x) => x.stream_id !== null));
    const to = rnd() < 0.5 ? pick(channels).stream_id : m.stream_id;
    const actor = { realm: tables.realm.realm, user: pick(active), features: feats, now, userAgent: 'test' };
    const notify = { send_notification_to_old_thread: rnd() < 0.5, send_notification_to_new_thread: rnd() < 0.5 };
    const mode = pick(['change_one', 'change_later', 'change_all'] as const);
    if (rnd() < 0.5) doUpdateMessage(tx, actor, { message_id: m.id, stream_id: to!, topic: pick(TOPICS), propagate_mode: mode, ...notify });
    else
      tx.put('messages', m.id, { ...m, stream_id: to, subject: pick(TOPICS), timestamp: rnd() < 0.2 ? m.timestamp - 1000 : m.timestamp });
  } else if (r < 0.9) {
    // A deletion: through delete-message, or the message and its receipts, sometimes a receipt row alone.
    const m = pick(messages);
    if (rnd() < 0.5)
      doDeleteMessage(tx, { realm: tables.realm.realm, user: pick(active), features: feats, now, userAgent: 'test' }, { message_id: m.id });
    else if (rnd() < 0.8) tx.delete('messages', m.id);
    tx.delete('user_messages', m.id);
  } else if (r < 0.95) {
    const sub = pick(Object.values(tables.subscriptions));
    if (rnd() < 0.5) tx.delete('subscriptions', `${sub.user_id}:${sub.stream_id}`);
    else tx.put('subscriptions', `${sub.user_id}:${sub.stream_id}`, { ...sub, active: !sub.active });
  } else if (active.length > 5) {
    tx.delete('users', pick(users).user_id);
  }
}

describe('store indexes', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('start from the rows of a loaded realm', () => {
    const tables = server.context.store.realm('demo')!;
    expect(describeIndex(touched(tables))).toEqual(recompute(tables));
    expect(Object.keys(tables.messages).length).toBeGreaterThan(50);
  });

  for (const seed of [1, 2, 3, 4]) {
    it(`equal a recomputation from the rows after random writes, rollbacks, replacement and reload (seed ${seed})`, async () => {
      const store = server.context.store;
      const realmId = `idx${seed}`;
      await store.replaceRealm(realmId, structuredClone(store.realm('demo')!));
      touched(store.realm(realmId)!);
      const rnd = random(seed);
      let now = store.realm(realmId)!.realm.realm.date_created + 400 * 86_400;
      let rollbacks = 0;
      for (let step = 1; step <= 300; step++) {
        now += Math.floor(rnd() * 600);
        const failing = rnd() < 0.2;
        await store
          .transact(realmId, (tx) => {
            const writes = 1 + Math.floor(rnd() * 3);
            for (let i = 0; i < writes; i++) randomWrite(tx, rnd, now);
            for (let i = 0; i < writes; i++) randomOwnedWrite(tx, rnd, now, TOPICS);
            if (failing) throw new Rollback();
          })
          .catch((error: unknown) => {
            // A refusal of a domain rule (e.g. "No such topic") rolls back just like our own failure.
            rollbacks++;
            if (!(error instanceof Rollback) && !(error instanceof Error && 'code' in error)) throw error;
          });
        if (step % 25 === 0)
          expect(describeIndex(keptIndex(store.realm(realmId)!)!), `seed ${seed} step ${step}`).toEqual(recompute(store.realm(realmId)!));
        if (step === 150) {
          // A reset or snapshot restore replaces the realm; its index starts again from the new rows.
          await store.replaceRealm(realmId, structuredClone(store.realm(realmId)!));
          touched(store.realm(realmId)!);
        }
      }
      expect(rollbacks).toBeGreaterThan(20);
      const tables = store.realm(realmId)!;
      // The writes happened: new messages, moves and deletions left the realm unlike the demo realm.
      expect(Object.keys(tables.messages).length).not.toBe(Object.keys(store.realm('demo')!.messages).length);
      expect(tables.counters.counters.messages).toBeGreaterThan(store.realm('demo')!.counters.counters.messages! + 40);
      // The per-user tables were written too: each differs from the demo realm's, and those the domain
      // writes above hold rows of more than one owner.
      for (const table of [...OWNED, 'presence'] as const) {
        expect(tables[table], table).not.toEqual(store.realm('demo')![table]);
        const field = table === 'presence' ? 'user_id' : ownerField(table);
        const owners = new Set(Object.values(tables[table]).map((row) => (row as unknown as Record<string, number>)[field]));
        if (['bot_storage', 'user_topics', 'attachments', 'presence'].includes(table)) expect(owners.size, table).toBeGreaterThan(1);
      }
      expect(describeIndex(keptIndex(tables)!)).toEqual(recompute(tables));

      // A reload (snapshot plus journal replay hand the rows to a new store) rebuilds the same facts.
      const reloaded = await Store.open(
        memoryPersistence(structuredClone({ format: 'teamchat-kit/state@1', realms: { [realmId]: tables } })),
      );
      expect(describeIndex(touched(reloaded.realm(realmId)!))).toEqual(recompute(tables));
      await reloaded.close();
      await store.replaceRealm(realmId, null);
    });
  }

  it('are rebuilt from the rows for tables the store does not hold', () => {
    const copy = structuredClone(server.context.store.realm('demo')!);
    expect(keptIndex(copy)).toBeUndefined();
    expect(describeIndex(new RealmIndex(copy))).toEqual(recompute(copy));
    // Realm generation's per-message lookup scans just the topic, with the same answer as the index.
    const kept = server.context.store.realm('demo')!;
    const topics = Object.values(kept.messages).filter((m) => m.stream_id !== null);
    expect(topics.length).toBeGreaterThan(10);
    for (const m of topics) {
      const name = m.subject.toUpperCase();
      expect(topicMessages(copy, m.stream_id!, name)?.toArray()).toEqual(topicMessages(kept, m.stream_id!, name)!.toArray());
    }
    expect(topicMessages(copy, topics[0]!.stream_id!, 'no such topic here')).toBeUndefined();
    // A user's rows of a per-user table: one scan of that table there, the same rows as the index's.
    const sortKeys = (rows: object[]) => rows.map((row) => JSON.stringify(row)).sort();
    let compared = 0;
    for (const table of OWNED)
      for (const user of Object.values(kept.users)) {
        const expected = sortKeys(ownedRows(kept, table, user.user_id));
        compared += expected.length;
        expect(sortKeys(ownedRows(copy, table, user.user_id)), `${table} of ${user.user_id}`).toEqual(expected);
      }
    expect(compared).toBeGreaterThan(5);
  });
});
