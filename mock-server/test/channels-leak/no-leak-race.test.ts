import { describe, expect, it } from 'vitest';
import { Clock } from '../../src/clock/clock.js';
import { features } from '../../src/config/features.js';
import { updateChannel } from '../../src/domain/channels/update.js';
import { sendMessage } from '../../src/domain/messages/send.js';
import { dispatch } from '../../src/events/dispatcher.js';
import { QueueRegistry } from '../../src/events/registry.js';
import { DEMO_REALM_EPOCH, generateDemoRealm } from '../../src/fixtures/demo-realm.js';
import { memoryPersistence, type Persistence } from '../../src/store/persistence.js';
import { Store } from '../../src/store/store.js';
import { hasMetadataAccess } from './model.js';
import { queueDescriptor } from '../helpers/queue-descriptor.js';

/**
 * The no-leak rule across a commit race. A message event is dispatched once its write is durable
 * (ARCHITECTURE "Events"); with file persistence another request can change the channel while that
 * write is pending (group commit). A message sent while the channel was private must not reach an
 * outsider's all_public_streams queue (§4.21 "message events from all public channels") because the
 * channel had become public by the time the write finished: who may see an event is decided by the
 * state it was sent in, as the reference server decides it when the message is sent.
 */

/** Memory persistence whose writes, once armed, stay pending until released, in call order. */
function gatedPersistence(): { persistence: Persistence; arm: () => void; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let armed = false;
  let last: Promise<void> = Promise.resolve();
  const persistence: Persistence = {
    ...memoryPersistence(),
    append: () => {
      const wait = armed ? gate : Promise.resolve();
      last = last.then(() => wait);
      return last;
    },
  };
  return { persistence, arm: () => (armed = true), release };
}

const descriptor = queueDescriptor({ allPublicStreams: true });

async function setUp() {
  const gated = gatedPersistence();
  const store = await Store.open(gated.persistence);
  await store.replaceRealm('r', generateDemoRealm({ realmId: 'r', seed: 42, featureLevel: 412, epoch: DEMO_REALM_EPOCH }));
  const registry = new QueueRegistry(new Clock('frozen', 0));
  store.onCommit((realmId, events, seq) => dispatch(registry, store.realm(realmId), realmId, events, seq));
  const tables = store.realm('r')!;
  const channel = tables.channels['54']!;
  const owner = tables.users['11']!;
  // An outsider of the private channel who watches every public channel.
  const outsider = Object.values(tables.users).find(
    (u) => u.is_active && !u.is_bot && u.role === 400 && !hasMetadataAccess(tables, u, channel),
  )!;
  const queue = registry.create('r', outsider.user_id, descriptor, store.appliedSeq);
  const actor = {
    realm: tables.realm.realm,
    user: owner,
    features: features(412),
    now: tables.realm.realm.date_created + 86_400,
    userAgent: 'test',
  };
  const send = (content: string) =>
    store.transact('r', (tx) =>
      sendMessage(tx, actor, {
        sender: owner,
        recipient: { type: 'stream', channel: tx.tables.channels['54']!, topic: 'race' },
        content,
        client: 'test',
        readBySender: false,
      }),
    );
  const publish = () => store.transact('r', (tx) => updateChannel(tx, actor, { stream_id: 54, is_private: false, groups: {} }));
  const contents = () => queue.events.filter((e) => e.type === 'message').map((e) => (e.message as { content: string }).content);
  return { ...gated, send, publish, contents, queue, outsider, channel };
}

describe('dispatch after a pending write: a private-era message stays private', () => {
  it('without a race, the outsider gets the channel when it turns public and only messages sent after', async () => {
    const { send, publish, contents, outsider, channel } = await setUp();
    expect(channel.invite_only).toBe(true);
    expect(outsider.user_id).toBeGreaterThan(0);
    await send('sent while private');
    await publish();
    await send('sent while public');
    expect(contents()).toEqual(['sent while public']);
  });

  it('with the make-public write landing while the message write is pending, the message still does not reach the outsider', async () => {
    const { arm, release, send, publish, contents, queue } = await setUp();
    arm();
    const sending = send('sent while private, written late');
    const publishing = publish();
    release();
    await Promise.all([sending, publishing]);
    await send('sent while public');
    // The outsider learns the channel from the privacy change (stream / create) ...
    expect(queue.events.some((e) => e.type === 'stream' && e.op === 'create')).toBe(true);
    // ... but not what was said in it while it was private.
    expect(contents()).toEqual(['sent while public']);
  });
});
