import { describe, expect, it } from 'vitest';
import { useZulipJsServer, type ZulipJsBase } from '../helpers/zulip-js.js';

type Json = Record<string, unknown>;
interface ZulipClient extends ZulipJsBase {
  messages: { retrieve(params: Json): Promise<Json>; send(params: Json): Promise<Json> };
}
const js = useZulipJsServer<ZulipClient>();

const ids = (res: Json) => (res.messages as Json[]).map((m) => m.id as number);

describe('zulip-js messages.retrieve against `teamchat serve` (GET /messages)', () => {
  it('reads the newest window with the caller own flags', async () => {
    const client = await js.client('member');
    const res = await client.messages.retrieve({ anchor: 'newest', num_before: 10, num_after: 0 });
    expect(res).toMatchObject({ result: 'success', found_newest: true, found_anchor: false, history_limited: false });
    const list = ids(res);
    expect(list.length).toBe(10);
    expect([...list].sort((a, b) => a - b)).toEqual(list);
    for (const m of res.messages as Json[]) expect(Array.isArray(m.flags)).toBe(true);
  });

  it('finds a message it just sent by channel, topic and search, with object and legacy pair narrows', async () => {
    const client = await js.client('member');
    const topic = `history ${Date.now() % 100000}`;
    const sent = await client.messages.send({ type: 'stream', to: 'home', topic, content: 'The quartermaster counts barrels' });
    expect(sent.result).toBe('success');
    const byObjects = await client.messages.retrieve({
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: [
        { operator: 'channel', operand: 'home' },
        { operator: 'topic', operand: topic },
        { operator: 'search', operand: 'QUARTERMASTER barrel' },
      ],
    });
    expect(ids(byObjects)).toEqual([sent.id]);
    expect(String((byObjects.messages as Json[])[0]!.match_content)).toContain('<span class="highlight">quartermaster</span>');
    const byPairs = await client.messages.retrieve({
      anchor: String(sent.id),
      num_before: 0,
      num_after: 0,
      narrow: [
        ['stream', 'home'],
        ['topic', topic],
      ],
    });
    expect(byPairs).toMatchObject({ found_anchor: true, anchor: sent.id });
    expect(ids(byPairs)).toEqual([sent.id]);
  });

  it('gets the reference errors as JSON it can read', async () => {
    const client = await js.client('member');
    expect(
      await client.messages.retrieve({
        anchor: 'newest',
        num_before: 1,
        num_after: 0,
        narrow: [{ operator: 'channel', operand: 'no such place' }],
      }),
    ).toEqual({
      result: 'error',
      code: 'BAD_NARROW',
      msg: 'Invalid narrow operator: unknown channel no such place',
      desc: 'unknown channel no such place',
    });
    expect(await client.messages.retrieve({ anchor: 'newest', num_before: 5001, num_after: 0 })).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Too many messages requested (maximum 5000).',
    });
  });
});
