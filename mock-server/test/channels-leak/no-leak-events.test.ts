import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { beBusy, castFor } from './activity.js';
import { accounts, grow, hasMetadataAccess, outsidersOf, secretOf, subscribed, tablesOf, type Account, type Secret } from './model.js';
import { channelOf, PRIVATE, type PrivateKind } from './probes.js';
import { findLeaks, foreignChannelIds } from './scan.js';
import { allowedFor, pollQueues, readSweep, registerQueues, type Observation } from './sweep.js';
import { useTestServer } from './support.js';

/**
 * The no-leak rule for events (spec §6; reference "Event payloads"): while insiders post to a
 * private channel, rename it, describe it, change its settings and its membership, mark it read, change
 * their own subscription and archive and unarchive it, no queue of a user without metadata access
 * receives anything about it — not its ID (`stream_id`, `stream_ids`), its old or new name or
 * description, nor its messages, even when they mention that user (§6.6: channel messages reach
 * subscribers). The reads are swept again afterwards, when the channel has a new name. The same checks
 * on the actor's own queue find all of it, so they are not vacuous. Each case gets a fresh realm.
 */

const env = useTestServer();

async function sweepActivity(realmId: string, kind: PrivateKind): Promise<void> {
  const { stream_id } = channelOf(env.server, realmId, kind);
  const outsiders = outsidersOf(env.server, realmId, stream_id);
  const cast = castFor(env.server, realmId, stream_id);
  const original = secretOf(tablesOf(env.server, realmId), stream_id);
  const queues = new Map<number, string[]>();
  const found = new Set<string>();
  const check = (outsider: Account, obs: Observation, secret: Secret) => {
    const leaks = obs.grant.has(stream_id) ? [] : findLeaks(obs.reply.body, secret);
    leaks.push(...foreignChannelIds(obs.reply.body, allowedFor(env.server, realmId, outsider, obs)));
    for (const l of leaks) found.add(`${outsider.email} ${obs.label}: ${l.path} → ${l.what}`);
  };
  for (const outsider of outsiders) {
    const registered = await registerQueues(env.server, outsider);
    queues.set(outsider.user_id, registered.queueIds);
    for (const obs of registered.observations) check(outsider, obs, original);
  }
  const control = (await registerQueues(env.server, cast.actor)).queueIds.slice(0, 1);

  const steps = await beBusy(env.server, realmId, stream_id, cast, outsiders);
  expect(steps.filter((s) => s.reply.status !== 200).map((s) => `${s.label}: ${s.reply.text}`)).toEqual([]);
  // Nobody crossed the line during the activity: those checked were outsiders before and after.
  expect(outsidersOf(env.server, realmId, stream_id).map((a) => a.user_id)).toEqual(outsiders.map((a) => a.user_id));

  const secret = grow(original, tablesOf(env.server, realmId));
  for (const outsider of outsiders) {
    const polled = await pollQueues(env.server, outsider, queues.get(outsider.user_id)!);
    // The queues work: the public message of the activity reached the first one (all_public_streams or a subscription).
    expect(
      (polled[0]!.reply.body.events as unknown[] | undefined)?.length,
      `${outsider.email} ${polled[0]!.reply.text.slice(0, 200)}`,
    ).toBeGreaterThan(0);
    for (const obs of [...polled, ...(await readSweep(env.server, realmId, outsider))]) {
      expect(obs.reply.status, `${outsider.email} ${obs.label}`).toBe(200);
      check(outsider, obs, secret);
    }
  }
  expect([...found]).toEqual([]);

  // Negative control: the actor's own queue got the messages, the rename, the description, the peers.
  const [insider] = await pollQueues(env.server, cast.actor, control);
  const seen = findLeaks(insider!.reply.body, secret).map((l) => l.what);
  expect(seen).toEqual(expect.arrayContaining([`stream_id ${stream_id}`, `stream_ids containing ${stream_id}`]));
  for (const word of ['kestrel', 'osprey', 'plover', `renamed ${stream_id} falcon`, `secret description ${stream_id} wren`]) {
    expect(
      seen.some((w) => w.includes(word)),
      `insider sees ${word}`,
    ).toBe(true);
  }
}

/** A non-administrator subscriber whose only access is the subscription: leaving makes them an outsider. */
function leaverOf(realmId: string, streamId: number): Account | undefined {
  const tables = tablesOf(env.server, realmId);
  const channel = tables.channels[String(streamId)]!;
  return accounts(env.server, realmId).find((a) => {
    if (!subscribed(tables, a.user_id, streamId) || a.role <= 200) return false;
    const key = `${a.user_id}:${streamId}`;
    const without = { ...tables, subscriptions: { ...tables.subscriptions, [key]: { ...tables.subscriptions[key]!, active: false } } };
    return !hasMetadataAccess(without, tables.users[String(a.user_id)]!, channel);
  });
}

describe('events: insiders’ activity on a private channel reaches no outsider', () => {
  it.each(PRIVATE)('%s', async (kind) => {
    const realmId = `leak-events-${kind.replace(/_/g, '-')}`;
    await env.server.control.createRealm({ realm_id: realmId });
    await sweepActivity(realmId, kind);
  });
});

/**
 * A subscriber who leaves a private channel they have no other access to becomes an outsider like any
 * other: the `stream` / `delete` they get on leaving is the last they hear of it, and their register
 * snapshot must not list it in `unsubscribed` (reference server: a former subscriber without metadata
 * access "will not receive metadata related to this stream", gather_subscriptions_helper). Channel 53
 * has no such subscriber: every member may read it through can_add_subscribers_group.
 */
describe('a subscriber who leaves a private channel, and so loses access, is an outsider from then on', () => {
  it.each(['private_shared', 'moderation'] as const)('%s', async (kind) => {
    const realmId = `leak-leaver-${kind.replace(/_/g, '-')}`;
    await env.server.control.createRealm({ realm_id: realmId });
    const { stream_id, name } = channelOf(env.server, realmId, kind);
    const leaver = leaverOf(realmId, stream_id)!;
    expect(leaver, 'a subscriber whose access is only the subscription').toBeDefined();
    const left = await call(env.server, 'DELETE', '/api/v1/users/me/subscriptions', {
      as: leaver,
      form: { subscriptions: JSON.stringify([name]) },
    });
    expect([left.status, left.body]).toEqual([200, { result: 'success', msg: '', removed: [name], not_removed: [] }]);
    expect(outsidersOf(env.server, realmId, stream_id).map((a) => a.user_id)).toContain(leaver.user_id);
    await sweepActivity(realmId, kind);
  });
});
