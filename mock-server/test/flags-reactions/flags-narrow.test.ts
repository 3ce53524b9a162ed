import { describe, expect, it } from 'vitest';
import { drain, error, openQueue, success, useTestRealm, type Json } from '../helpers/harness.js';
import { call, type Who } from '../helpers/test-server.js';
import { ALARM, HOME, post, storedFlags } from './support.js';

/**
 * POST /messages/flags/narrow (companion tier; reference update-message-flags-for-narrow): the range of a
 * narrow around an anchor, as GET /messages picks it, gets update-message-flags; the counts and ends of
 * the range are answered, the range is capped rather than refused, and a refusal changes nothing.
 */
const env = useTestRealm();

const TOPIC = 'narrowed flags';
const inTopic = JSON.stringify([
  { operator: 'channel', operand: HOME },
  { operator: 'topic', operand: TOPIC },
]);

function byNarrow(who: Who, form: Record<string, string>) {
  return call(env.server, 'POST', '/api/v1/messages/flags/narrow', {
    as: who,
    form: { anchor: 'oldest', num_before: '0', num_after: '100', narrow: inTopic, op: 'add', flag: 'read', ...form },
  });
}

async function threeInTopic(): Promise<number[]> {
  const ids: number[] = [];
  for (const n of [1, 2, 3]) ids.push(await post(env, env.who.member!, HOME, TOPIC, `Message ${n}.`));
  return ids;
}

const counts = (ids: number[], updated: number, extra: Json = {}) =>
  success({
    processed_count: ids.length,
    updated_count: updated,
    first_processed_id: ids[0] ?? null,
    last_processed_id: ids.at(-1) ?? null,
    found_oldest: true,
    found_newest: true,
    ...extra,
  });

describe('flags for a narrow', () => {
  it('marks a topic read and tells the caller which messages changed', async () => {
    const ids = await threeInTopic();
    const reader = env.who.member_2!;
    await call(env.server, 'POST', '/api/v1/messages/flags', {
      as: reader,
      form: { messages: JSON.stringify([ids[0]]), op: 'add', flag: 'read' },
    });
    const { queueId } = await openQueue(env.server, reader, { event_types: '["update_message_flags"]' });
    const res = await byNarrow(reader, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual(counts(ids, 2));
    for (const id of ids) expect(storedFlags(env, reader.user_id, id)).toEqual(['read']);
    expect(await drain(env.server, reader, queueId)).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: ids.slice(1), all: false },
    ]);
  });

  it('takes the range around an anchor: the anchor and what comes before it', async () => {
    const ids = await threeInTopic();
    const res = await byNarrow(env.who.member_2!, { anchor: String(ids[1]), num_before: '5', num_after: '0', flag: 'starred' });
    expect(res.body).toEqual(counts(ids.slice(0, 2), 2, { found_newest: false }));
    expect(storedFlags(env, env.who.member_2!.user_id, ids[2]!)).toEqual([]);
    expect(storedFlags(env, env.who.member_2!.user_id, ids[1]!)).toEqual(['starred']);
  });

  it('starts from the first unread message with first_unread', async () => {
    const ids = await threeInTopic();
    const reader = env.who.member_2!;
    await byNarrow(reader, { anchor: String(ids[0]), num_after: '0' });
    const res = await byNarrow(reader, { anchor: 'first_unread', num_after: '0', flag: 'starred' });
    expect(res.body).toEqual(counts([ids[1]!], 1, { found_oldest: false, found_newest: false }));
  });

  it('answers an empty range with null ends', async () => {
    const res = await byNarrow(env.who.member_2!, { narrow: JSON.stringify([{ operator: 'topic', operand: 'no such topic here' }]) });
    expect(res.body).toEqual(counts([], 0));
  });

  it('caps a range larger than 5,000 messages instead of refusing it', async () => {
    const ids = await threeInTopic();
    const res = await byNarrow(env.who.member_2!, { anchor: 'newest', num_before: '6000', num_after: '6000', flag: 'collapsed' });
    expect(res.body).toEqual(counts(ids, 3));
  });

  it('skips messages of unsubscribed channels when marking unread, and names the channel', async () => {
    const id = await post(env, env.who.member!, ALARM, TOPIC);
    const narrow = JSON.stringify([
      { operator: 'channel', operand: ALARM },
      { operator: 'topic', operand: TOPIC },
    ]);
    const res = await byNarrow(env.who.member_3!, { narrow, op: 'remove' });
    expect(res.body).toEqual(counts([id], 0, { ignored_because_not_subscribed_channels: [ALARM] }));
    expect(storedFlags(env, env.who.member_3!.user_id, id)).toBeUndefined();
  });
});

describe('refusals change nothing', () => {
  it.each([
    [{ anchor: 'abc' }, error('Invalid anchor')],
    [
      { anchor: '5', num_before: '2', num_after: '2', include_anchor: 'false' },
      error('The anchor can only be excluded at an end of the range'),
    ],
    [
      { narrow: '[{"operator": "is", "operand": "shiny"}]' },
      error("Invalid narrow operator: unknown 'is' operand shiny", 'BAD_NARROW', { desc: "unknown 'is' operand shiny" }),
    ],
    [{ flag: 'shiny' }, error("Invalid flag: 'shiny'")],
    [{ flag: 'mentioned' }, error("Flag not editable: 'mentioned'")],
    [{ op: 'toggle' }, error("Invalid message flag operation: 'toggle'")],
    [{ num_before: '-1' }, error('num_before is too small')],
  ])('%j', async (form, expected) => {
    const ids = await threeInTopic();
    const res = await byNarrow(env.who.member_2!, form);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
    for (const id of ids) expect(storedFlags(env, env.who.member_2!.user_id, id)).toEqual([]);
  });

  it('needs anchor', async () => {
    const res = await call(env.server, 'POST', '/api/v1/messages/flags/narrow', {
      as: env.who.member!,
      form: { num_before: '0', num_after: '1', narrow: '[]', op: 'add', flag: 'read' },
    });
    expect(res.body).toEqual(error("Missing 'anchor' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'anchor' }));
  });
});
