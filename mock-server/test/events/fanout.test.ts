import { afterEach, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { features } from '../../src/config/features.js';
import { CAPABILITIES } from '../../src/contract/client-view.js';
import { jsonTextsOf } from '../../src/contract/json-text.js';
import { dispatch, endQueuesOfDeactivated } from '../../src/events/dispatcher.js';
import { accepts } from '../../src/events/filters.js';
import type { QueueDescriptor, QueuedEvent } from '../../src/events/queue.js';
import { shapeFor } from '../../src/events/shape.js';
import { pruneForLevel } from '../../src/http/level-fields.js';
import type { PendingEvent } from '../../src/store/store.js';
import type { RealmState } from '../../src/store/state.js';
import { call, credentials, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * The shared fan-out (events/fanout.ts: shaping and JSON made once per class of alike queues, recipients
 * found by index) answers every queue exactly as the per-recipient build does: the dispatcher as it was,
 * which walks every queue of the realm and shapes each event for each queue, runs beside it on the same
 * commits, and each answer's bytes must equal that build's JSON. A mixed population (capabilities,
 * apply_markdown, client_gravatar, narrows, event types, all_public_streams; owner to guest and a bot)
 * after seeded random sends, edits, reactions and role changes, at the current feature level
 * and at an older one (whose answers are pruned).
 */
const ROLES = ['owner', 'administrator', 'moderator', 'member', 'member_2', 'member_3', 'guest', 'bot'] as const;
const QUEUES_PER_ROLE = 4;
const ROUNDS = 3;
const OPERATIONS_PER_ROUND = 12;

const CAPABILITY_SETS: readonly (readonly string[])[] = [
  [],
  CAPABILITIES,
  ['empty_topic_name', 'bulk_message_deletion', 'user_settings_object'],
  ['user_avatar_url_field_optional', 'include_deactivated_groups'],
];

interface Reference {
  queueId: string;
  userId: number;
  who: Who;
  descriptor: QueueDescriptor;
  snapshotSeq: number;
  events: QueuedEvent[];
  nextId: number;
  last: number;
}

/** The dispatcher before the shared fan-out: every queue of the realm, shaped one by one. */
function referenceDispatch(queues: Reference[], tables: RealmState | undefined, pending: readonly PendingEvent[], seq: number): void {
  for (const { event, userIds, shape } of pending) {
    const audience = new Set(userIds);
    for (const queue of queues) {
      if (queue.snapshotSeq >= seq) continue;
      const viewer = tables?.users[String(queue.userId)] ?? null;
      const watches =
        queue.descriptor.allPublicStreams &&
        event.type === 'message' &&
        event._public_channel === true &&
        viewer !== null &&
        !viewer.is_bot;
      if (!audience.has(queue.userId) && !watches) continue;
      if (!accepts(queue.descriptor, event, tables)) continue;
      const own = shape ? shape(queue.descriptor.client) : event;
      const events = own === null ? [] : Array.isArray(own) ? own : [own];
      for (const one of events)
        for (const shaped of shapeFor(one, queue.descriptor, viewer)) queue.events.push({ ...shaped, id: queue.nextId++ });
    }
  }
}

/** mulberry32: the same sequence every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let server: MockServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function compareAfterRandomWrites(featureLevel: number | undefined, seed: number): Promise<{ compared: number; shared: number }> {
  server = await startTestServer(featureLevel === undefined ? {} : { featureLevel });
  const app = server;
  const { store, queues } = app.context;
  const who = credentials(app);
  const random = seeded(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const references: Reference[] = [];
  store.onCommit((realmId, events, seq) => {
    dispatch(queues, store.realm(realmId), realmId, events, seq);
    endQueuesOfDeactivated(queues, realmId, events);
    if (realmId === 'demo') referenceDispatch(references, store.realm(realmId), events, seq);
  });

  // Gravatar users whose real email only some readers may see (administrators; moderators and up; nobody),
  // set in the state (no operation changes it), before the queues are registered.
  await store.transact('demo', (tx) => {
    for (const [role, visibility] of [
      ['member_2', 3],
      ['moderator', 5],
      ['administrator', 4],
    ] as const) {
      const user = tx.tables.users[String(who[role]!.user_id)]!;
      tx.put('users', user.user_id, { ...user, settings: { ...user.settings, email_address_visibility: visibility } });
    }
  });
  for (const role of ROLES) {
    for (let i = 0; i < QUEUES_PER_ROLE; i++) {
      // A few capability sets, so that queues share classes (and a wrong class key would show).
      const capabilities = Object.fromEntries(pick(CAPABILITY_SETS).map((c) => [c, true]));
      const form: Record<string, string> = {
        client_capabilities: JSON.stringify(capabilities),
        apply_markdown: String(random() < 0.5),
        client_gravatar: String(random() < 0.5),
        fetch_event_types: '[]',
      };
      const types = pick([null, '["message"]', '["message","update_message","reaction","realm_user"]']);
      if (types) form.event_types = types;
      const narrow = pick([null, null, '[["channel","home"]]', '[["is","mentioned"]]', '[["is","dm"]]']);
      if (narrow) form.narrow = narrow;
      if (role !== 'guest' && random() < 0.3) form.all_public_streams = 'true';
      // One queue of every reader alike in its options: only who reads (the avatar and email they may see) differs.
      if (i === 0) Object.assign(form, { client_capabilities: '{}', apply_markdown: 'false', client_gravatar: 'true' });
      const res = await call(app, 'POST', '/api/v1/register', { as: who[role]!, form });
      expect(res.status, res.text).toBe(200);
      const userId = who[role]!.user_id;
      const queue = queues.get(String(res.body.queue_id), 'demo', userId);
      references.push({
        queueId: queue.id,
        userId,
        who: who[role]!,
        descriptor: queue.descriptor,
        snapshotSeq: queue.snapshotSeq,
        events: [],
        nextId: 0,
        last: -1,
      });
    }
  }

  const humans = ROLES.filter((r) => r !== 'bot');
  const sent: { id: number; sender: Who }[] = [];
  const operations: (() => Promise<unknown>)[] = [
    async () => {
      const sender = who[pick(ROLES)]!;
      const res = await call(app, 'POST', '/api/v1/messages', {
        as: sender,
        form: {
          type: 'stream',
          to: pick(['51', '52', '53', '54']),
          topic: pick(['', 'alpha', 'Beta']),
          content: pick(['plain words', '**bold** @**Andrew Bergnaum**', '@**all** hello', 'see #**home**', ':smile: `code`']),
        },
      });
      if (res.status === 200) sent.push({ id: Number(res.body.id), sender });
    },
    async () => {
      const sender = who[pick(humans)]!;
      const to = JSON.stringify([who[pick(ROLES)]!.email, ...(random() < 0.5 ? [who[pick(ROLES)]!.email] : [])]);
      const res = await call(app, 'POST', '/api/v1/messages', { as: sender, form: { type: 'direct', to, content: 'a *direct* word' } });
      if (res.status === 200) sent.push({ id: Number(res.body.id), sender });
    },
    async () => {
      if (sent.length === 0) return;
      const { id, sender } = pick(sent);
      const form: Record<string, string> =
        random() < 0.5 ? { content: `edited **${Math.floor(random() * 100)}**` } : { topic: pick(['', 'gamma', 'alpha']) };
      await call(app, 'PATCH', `/api/v1/messages/${id}`, { as: sender, form });
    },
    async () => {
      if (sent.length === 0) return;
      const path = `/api/v1/messages/${pick(sent).id}/reactions`;
      await call(app, random() < 0.7 ? 'POST' : 'DELETE', path, {
        as: who[pick(ROLES)]!,
        form: { emoji_name: pick(['smile', 'octopus']) },
      });
    },
    async () => {
      // A role change moves whose real email the user may see (realm_user events shaped per reader).
      const form = { role: String(pick([200, 300, 400])) };
      await call(app, 'PATCH', `/api/v1/users/${who[pick(['member', 'member_3'] as const)]!.user_id}`, { as: who.owner!, form });
    },
  ];

  const getEvents = app.context.operations.find((op) => op.operationId === 'get-events')!;
  const level = features(store.realm('demo')!.realm.realm.feature_level);
  let compared = 0;
  let shared = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < OPERATIONS_PER_ROUND; i++) await pick(operations)();
    for (const reference of references) {
      const queue = queues.get(reference.queueId, 'demo', reference.userId);
      queue.acknowledge(reference.last);
      if (jsonTextsOf(queue.pending()) !== undefined) shared++;
      const query = { queue_id: reference.queueId, last_event_id: String(reference.last), dont_block: 'true' };
      const answer = await call(app, 'GET', '/api/v1/events', { as: reference.who, query });
      reference.events = reference.events.filter((e) => e.id > reference.last);
      const expected = pruneForLevel({ result: 'success', msg: '', events: reference.events }, getEvents.levelFields, level);
      expect(answer.text).toBe(JSON.stringify(expected));
      reference.last = reference.events.at(-1)?.id ?? reference.last;
      compared += reference.events.length;
    }
  }
  return { compared, shared };
}

describe('the shared fan-out answers as the per-recipient build', () => {
  it('at the current feature level, byte for byte', async () => {
    const { compared, shared } = await compareAfterRandomWrites(undefined, 29);
    // The comparison saw events, and answers that took the shared texts.
    expect(compared).toBeGreaterThan(50);
    expect(shared).toBeGreaterThan(0);
  });

  it('at an older feature level (answers pruned), byte for byte', async () => {
    const { compared } = await compareAfterRandomWrites(406, 7);
    expect(compared).toBeGreaterThan(50);
  });
});
