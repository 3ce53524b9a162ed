import { describe, expect, it } from 'vitest';
import { loadResponseSchemas } from '../helpers/response-schemas.js';
import { call, type Who } from '../helpers/test-server.js';
import { channelId, error, freshRealm, messages, useDemo } from '../messages/support.js';
import { NEWEST, getMessages, ids, receivedIds as receivedOf, uid, type Query } from './support.js';

/**
 * GET /messages (companion tier): message_ids (feature level 300), every error with its code, text and
 * status (a read: nothing changes), and the answers against the OpenAPI document's schemas.
 */

const env = useDemo();
const get = (as: Who, query: Query) => getMessages(env, as, query);
const receivedIds = (role: string) => receivedOf(env, role);

describe('the window sizes without message_ids (reference get-messages)', () => {
  const window = (as: Who, query: Record<string, string>) => call(env.server, 'GET', '/api/v1/messages', { as, query });

  it.each([299, 300, 412])('at level %i num_before, then num_after, are required arguments', async (level) => {
    const { who } = await freshRealm(env.server, level);
    const missing = (name: string) => error(`Missing '${name}' argument`, 'REQUEST_VARIABLE_MISSING', { var_name: name });
    const none = await window(who.member!, { anchor: 'newest' });
    expect([none.status, none.body]).toEqual([400, missing('num_before')]);
    const noAfter = await window(who.member!, { anchor: 'newest', num_before: '1' });
    expect([noAfter.status, noAfter.body]).toEqual([400, missing('num_after')]);
    // Checked before the anchor, as the reference parses its arguments before computing the anchor.
    expect((await window(who.member!, {})).body).toEqual(missing('num_before'));
    expect((await window(who.member!, { anchor: 'newest', num_before: '1', num_after: '0' })).status).toBe(200);
  });
});

describe('GET /messages with message_ids (feature level 300)', () => {
  it('answers the listed messages the caller may read and the narrow matches, ascending, without an anchor', async () => {
    const mine = receivedIds('member');
    const dms = messages(env.t).filter((m) => m.type === 'private' && !m.dm_user_ids!.includes(uid('member')));
    const foreign = dms[0]!.id;
    const listed = [mine[5]!, foreign, mine[1]!, mine[1]!, 99_999_999];
    const res = await get(env.who.member!, { message_ids: listed });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([mine[1], mine[5]]);
    expect(res.body).toMatchObject({ found_anchor: false, found_oldest: false, found_newest: false, history_limited: false });
    expect(res.body).not.toHaveProperty('anchor');
    const narrowed = await get(env.who.member!, { message_ids: listed, narrow: [{ operator: 'id', operand: mine[5]! }] });
    expect(ids(narrowed.body)).toEqual([mine[5]]);
  });

  it('is refused beside a window parameter, and not read below its level', async () => {
    const both = await get(env.who.member!, { message_ids: [1], anchor: 'newest' });
    const parameters = 'num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor';
    expect(both.status).toBe(400);
    expect(both.body).toEqual(error(`Unsupported parameter combination: ${parameters}`, 'BAD_REQUEST', { parameters }));
    const { realm, who } = await freshRealm(env.server, 299);
    const old = await call(env.server, 'GET', '/api/v1/messages', {
      as: who.member!,
      query: { anchor: 'newest', num_before: '0', num_after: '0', message_ids: '[1]' },
    });
    expect(old.status, realm).toBe(200);
    expect(old.body.ignored_parameters_unsupported).toEqual(['message_ids']);
    expect(old.body.anchor).toBe(NEWEST);
  });
});

describe('GET /messages errors', () => {
  it.each([
    [{ num_before: 1 }, error("Missing 'anchor' argument.")],
    [{ anchor: 'date', num_before: 1 }, error('Invalid anchor')],
    // `date` with anchor_date is only a proposal of the reference, in no level it documents (up to 450).
    [{ anchor: 'date', anchor_date: '2024-01-02T00:00:00.000Z', num_before: 1 }, error('Invalid anchor')],
    [{ anchor: '1.5' }, error('Invalid anchor')],
    [{ anchor: 'newest', num_before: 4000, num_after: 1001 }, error('Too many messages requested (maximum 5000).')],
    [{ anchor: '5', num_before: 1, num_after: 1, include_anchor: false }, error('The anchor can only be excluded at an end of the range')],
    [{ anchor: 'newest', num_before: -1 }, error('num_before is too small')],
    [{ anchor: 'newest', num_after: '"x"' }, error('num_after is not an integer')],
    [{ anchor: 'newest', narrow: '{' }, error('narrow is not valid JSON')],
    [{ anchor: 'newest', narrow: '{}' }, error('narrow is not a list')],
    [{ anchor: 'newest', narrow: [[1, 2]] }, error('Invalid narrow[0]: Value error, element is not a string pair')],
    [{ anchor: 'newest', narrow: [{ operator: 'topic' }] }, error('Invalid narrow[0]: Value error, operand is missing')],
    [
      { anchor: 'newest', narrow: [['fruit', 'apple']] },
      error('Invalid narrow operator: unknown operator fruit', 'BAD_NARROW', { desc: 'unknown operator fruit' }),
    ],
    [
      { anchor: 'newest', narrow: [['stream', 'Elsinore']] },
      error('Invalid narrow operator: unknown channel Elsinore', 'BAD_NARROW', { desc: 'unknown channel Elsinore' }),
    ],
  ])('%j → %j', async (query, expected) => {
    const before = JSON.stringify(env.t.user_messages);
    const res = await get(env.who.member!, query as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
    expect(JSON.stringify(env.t.user_messages)).toBe(before);
  });

  it('answers 401 without credentials', async () => {
    const res = await call(env.server, 'GET', '/api/v1/messages', { query: { anchor: 'newest', num_before: '1', num_after: '0' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });
});

describe('GET /messages answers match the OpenAPI document', () => {
  it('windows, history, search and errors', async () => {
    const schemaOf = await loadResponseSchemas();
    const pub = channelId('public');
    const queries: [Record<string, string | number | boolean | unknown[]>, number][] = [
      [{ anchor: 'newest', num_before: 50 }, 200],
      [{ anchor: 'oldest', num_after: 50, apply_markdown: false, client_gravatar: false, allow_empty_topic_name: true }, 200],
      [
        {
          anchor: 'newest',
          num_before: 20,
          narrow: [
            { operator: 'channel', operand: pub },
            { operator: 'search', operand: 'the' },
          ],
        },
        200,
      ],
      [{ anchor: 'newest', narrow: [['fruit', 'x']] }, 400],
      [{ anchor: 'nope' }, 400],
    ];
    for (const [query, status] of queries) {
      const res = await get(env.who.member_3!, query);
      expect(res.status).toBe(status);
      const validate = schemaOf('get-messages', status);
      expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});
