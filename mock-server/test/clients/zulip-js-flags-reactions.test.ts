import { describe, expect, it } from 'vitest';
import { useZulipJsServer, type ZulipJsBase } from '../helpers/zulip-js.js';

type Answer = Record<string, unknown>;
interface ZulipClient extends ZulipJsBase {
  messages: {
    send(params: Record<string, unknown>): Promise<Answer>;
    getById(params: Record<string, unknown>): Promise<Answer>;
    flags: { add(params: Record<string, unknown>): Promise<Answer>; remove(params: Record<string, unknown>): Promise<Answer> };
  };
  reactions: { add(params: Record<string, unknown>): Promise<Answer>; remove(params: Record<string, unknown>): Promise<Answer> };
}
const js = useZulipJsServer<ZulipClient>({ state: true });

/**
 * zulip-js (multipart POST, query-string DELETE) against `teamchat serve` with a state file: reactions and
 * flags through its own resources, the rest through callEndpoint, and what they changed still there after
 * a restart of the server on the same file.
 */

const client = (role: string) => js.client(role);

async function sendOne(sender: ZulipClient, topic: string): Promise<number> {
  const sent = await sender.messages.send({ type: 'stream', to: 'home', topic, content: 'Please react.' });
  expect(sent).toMatchObject({ result: 'success' });
  return sent.id as number;
}

describe('zulip-js: reactions and message flags', () => {
  it('adds and removes a reaction with reactions.add / reactions.remove', async () => {
    const [author, reader] = await Promise.all([client('member'), client('member_2')]);
    const id = await sendOne(author, 'zulip-js reactions');
    expect(await reader.reactions.add({ message_id: id, emoji_name: 'octopus' })).toEqual({ result: 'success', msg: '' });
    const fetched = await reader.messages.getById({ message_id: id });
    expect((fetched.message as Answer).reactions).toEqual([
      { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: 15 },
    ]);
    expect(await reader.reactions.add({ message_id: id, emoji_name: 'octopus' })).toMatchObject({
      result: 'error',
      msg: 'Reaction already exists.',
    });
    expect(await reader.reactions.remove({ message_id: id, emoji_name: 'octopus' })).toEqual({ result: 'success', msg: '' });
    expect(await reader.reactions.remove({ message_id: id, emoji_code: '1f419' })).toMatchObject({
      result: 'error',
      msg: "Reaction doesn't exist.",
    });
  });

  it('stars and marks unread with messages.flags.add / remove', async () => {
    const [author, reader] = await Promise.all([client('member'), client('member_2')]);
    const id = await sendOne(author, 'zulip-js flags');
    expect(await reader.messages.flags.add({ messages: [id], flag: 'starred' })).toEqual({ result: 'success', msg: '', messages: [id] });
    expect(await reader.messages.flags.add({ messages: [id], flag: 'read' })).toMatchObject({ result: 'success' });
    expect(await reader.messages.flags.remove({ messages: [id], flag: 'read' })).toEqual({
      result: 'success',
      msg: '',
      messages: [id],
      ignored_because_not_subscribed_channels: [],
    });
    expect(await reader.messages.flags.add({ messages: [id], flag: 'mentioned' })).toMatchObject({
      result: 'error',
      msg: "Flag not editable: 'mentioned'",
    });
    expect(((await reader.messages.getById({ message_id: id })).message as Answer).flags).toEqual(['starred']);
  });

  it('marks read by narrow, by channel and everything through callEndpoint', async () => {
    const [author, reader] = await Promise.all([client('member'), client('member_2')]);
    const id = await sendOne(author, 'zulip-js narrow');
    const narrowed = await reader.callEndpoint('/messages/flags/narrow', 'POST', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 10,
      narrow: JSON.stringify([{ operator: 'topic', operand: 'zulip-js narrow' }]),
      op: 'add',
      flag: 'read',
    });
    expect(narrowed).toMatchObject({
      result: 'success',
      processed_count: 1,
      updated_count: 1,
      first_processed_id: id,
      last_processed_id: id,
    });
    expect(await reader.callEndpoint('/mark_stream_as_read', 'POST', { stream_id: 51 })).toEqual({ result: 'success', msg: '' });
    expect(await reader.callEndpoint('/mark_all_as_read', 'POST', {})).toEqual({ result: 'success', msg: '', complete: true });
    const registered = await reader.callEndpoint('/register', 'POST', { event_types: JSON.stringify(['message', 'update_message_flags']) });
    expect((registered.unread_msgs as Answer).count).toBe(0);
  });

  it('keeps reactions and flags across a restart on the same state file', async () => {
    const [author, reader] = await Promise.all([client('member'), client('member_2')]);
    const id = await sendOne(author, 'zulip-js restart');
    await reader.reactions.add({ message_id: id, emoji_name: 'teamchat' });
    await reader.messages.flags.add({ messages: [id], flag: 'starred' });
    await js.restart();
    const message = (await (await client('member_2')).messages.getById({ message_id: id })).message as Answer;
    expect(message.reactions).toEqual([
      { emoji_name: 'teamchat', emoji_code: 'teamchat', reaction_type: 'service_extra_emoji', user_id: 15 },
    ]);
    expect(message.flags).toEqual(['starred']);
  }, 30_000);
});
