import { beforeAll, describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { call } from '../helpers/test-server.js';
import { loadResponseSchemas } from '../helpers/response-schemas.js';
import { drain, freshRealm, observeEvents, openQueue, useTestRealm, type Event, nowOf } from '../helpers/harness.js';
import { channelDraft, create, edit, list, NEXT_ID, remove } from './support.js';

/**
 * `drafts` events (spec §6 item 5; reference §6 and "Event payloads"): to every queue of the owner, the
 * creating client's own included, to nobody else; topics shaped per client (§1, §9 level 334).
 */
const env = useTestRealm();
const ROLES = ['owner', 'administrator', 'moderator', 'member', 'member_2', 'guest', 'bot'] as const;
const DRAFTS_ONLY = { event_types: '["drafts"]', client_capabilities: '{"empty_topic_name": true}' };

let validateEvents: ValidateFunction;
beforeAll(async () => {
  validateEvents = (await loadResponseSchemas())('get-events', 200);
});

/** What every role's queue received from `change`, with the member holding a second queue. */
async function observe(change: () => Promise<unknown>): Promise<{ byRole: Record<string, Event[]>; second: Event[] }> {
  const second = (await openQueue(env.server, env.who.member!, DRAFTS_ONLY)).queueId;
  const byRole = await observeEvents(env, ROLES, DRAFTS_ONLY, change);
  return { byRole, second: await drain(env.server, env.who.member!, second) };
}

const onlyMember = (byRole: Record<string, Event[]>, events: Event[]) =>
  expect(byRole).toEqual(Object.fromEntries(ROLES.map((r) => [r, r === 'member' ? events : []])));

describe('who receives what', () => {
  it("create: drafts/add with the draft objects, to both of the member's queues and no one else", async () => {
    const now = nowOf(env.server, env.realm);
    const { byRole, second } = await observe(() =>
      create(env.server, env.who.member!, [channelDraft(), { type: 'private', to: [15], topic: 'x', content: 'DM' }]),
    );
    const added: Event = {
      type: 'drafts',
      op: 'add',
      drafts: [
        { id: NEXT_ID, type: 'stream', to: [51], topic: 'plans', content: 'Half a thought', timestamp: now },
        { id: NEXT_ID + 1, type: 'private', to: [15], topic: '', content: 'DM', timestamp: now },
      ],
    };
    onlyMember(byRole, [added]);
    expect(second).toEqual([added]);
  });

  it('edit: drafts/update with the whole draft', async () => {
    const { byRole, second } = await observe(() => edit(env.server, env.who.member!, 1, channelDraft({ timestamp: 1_767_000_000 })));
    const updated: Event = {
      type: 'drafts',
      op: 'update',
      draft: { id: 1, type: 'stream', to: [51], topic: 'plans', content: 'Half a thought', timestamp: 1_767_000_000 },
    };
    onlyMember(byRole, [updated]);
    expect(second).toEqual([updated]);
  });

  it('delete: drafts/remove with draft_id', async () => {
    const { byRole, second } = await observe(() => remove(env.server, env.who.member!, 2));
    onlyMember(byRole, [{ type: 'drafts', op: 'remove', draft_id: 2 }]);
    expect(second).toEqual([{ type: 'drafts', op: 'remove', draft_id: 2 }]);
  });

  it('refused requests and empty batches tell no one anything', async () => {
    const { byRole, second } = await observe(async () => {
      await create(env.server, env.who.member!, [channelDraft(), channelDraft({ to: [999] })]);
      await create(env.server, env.who.member!, []);
      await call(env.server, 'POST', '/api/v1/drafts', { as: env.who.member! });
      await edit(env.server, env.who.member!, 4, channelDraft());
      await remove(env.server, env.who.member!, 4);
    });
    onlyMember(byRole, []);
    expect(second).toEqual([]);
  });

  it('a queue that did not ask for drafts gets none; the events match the document', async () => {
    const other = (await openQueue(env.server, env.who.member!, { event_types: '["message"]' })).queueId;
    const all = (await openQueue(env.server, env.who.member!)).queueId;
    await create(env.server, env.who.member!, [channelDraft()]);
    await edit(env.server, env.who.member!, NEXT_ID, channelDraft({ content: 'again' }));
    await remove(env.server, env.who.member!, NEXT_ID);
    expect(await drain(env.server, env.who.member!, other)).toEqual([]);
    const res = await call(env.server, 'GET', '/api/v1/events', {
      as: env.who.member!,
      query: { queue_id: all, last_event_id: '-1', dont_block: 'true' },
    });
    expect((res.body.events as Event[]).map((e) => e.op)).toEqual(['add', 'update', 'remove']);
    expect(validateEvents(res.body) ? [] : validateEvents.errors).toEqual([]);
  });
});

describe('the empty topic of a channel draft (spec §1, §9 level 334)', () => {
  // Below 334 the empty topic does not exist: "" is a topic not typed yet, shown as it is. From 334 it is
  // the empty topic, shown as the display name to clients without the capability, and by GET /drafts,
  // where no capability can be declared (spec §1 wins over the reference, which returns the stored "").
  it.each([
    [333, true, '', ''],
    [333, false, '', ''],
    [334, true, '', 'general chat'],
    [334, false, 'general chat', 'general chat'],
  ] as const)('level %i, capability %s: events and snapshot %j, GET /drafts %j', async (level, capable, shown, listed) => {
    const { who } = await freshRealm(env.server, level);
    const member = who.member!;
    const form: Record<string, string> = capable ? { client_capabilities: '{"empty_topic_name": true}' } : {};
    const { queueId } = await openQueue(env.server, member, form);
    const ids = (await create(env.server, member, [channelDraft({ topic: '' }), { type: 'private', to: [15], topic: '', content: 'DM' }]))
      .body.ids as number[];
    await edit(env.server, member, ids[0]!, channelDraft({ topic: '', content: 'edited' }));
    const events = await drain(env.server, member, queueId);
    const added = (events[0]!.drafts as { topic: string }[]).map((d) => d.topic);
    const updated = (events[1]!.draft as { topic: string }).topic;
    // A direct draft has no topic at all: its "" is never replaced.
    expect([added, updated]).toEqual([[shown, ''], shown]);
    const snapshot = (await openQueue(env.server, member, form)).snapshot.drafts as { id: number; topic: string }[];
    expect(snapshot.filter((d) => ids.includes(d.id)).map((d) => [d.id, d.topic])).toEqual([
      [ids[1], ''],
      [ids[0], shown],
    ]);
    const drafts = (await list(env.server, member)).body.drafts as { id: number; topic: string }[];
    expect(drafts.filter((d) => ids.includes(d.id)).map((d) => d.topic)).toEqual([listed, '']);
  });
});

describe('the register snapshot (reference §4.21: newest first, capped)', () => {
  it('holds the 1000 newest drafts; GET /drafts lists them all', async () => {
    const batch = Array.from({ length: 1000 }, (_, i) => ({ type: '', to: [], topic: '', content: `n${i}`, timestamp: 1_900_000_000 + i }));
    expect((await create(env.server, env.who.member!, batch)).status).toBe(200);
    const snapshot = (await openQueue(env.server, env.who.member!, { fetch_event_types: '["drafts"]' })).snapshot.drafts as {
      content: string;
    }[];
    expect([snapshot.length, snapshot[0]!.content, snapshot[999]!.content]).toEqual([1000, 'n999', 'n0']);
    expect((await list(env.server, env.who.member!)).body.count).toBe(1003);
  });
});
