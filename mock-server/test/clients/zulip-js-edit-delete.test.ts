import { describe, expect, it } from 'vitest';
import { useZulipJsServer, type ZulipJsBase } from '../helpers/zulip-js.js';

type Answer = Record<string, unknown>;
interface ZulipClient extends ZulipJsBase {
  messages: {
    send(params: Answer): Promise<Answer>;
    update(params: Answer): Promise<Answer>;
    getById(params: Answer): Promise<Answer>;
    getHistoryById(params: Answer): Promise<Answer>;
    deleteById(params: Answer): Promise<Answer>;
  };
}
const js = useZulipJsServer<ZulipClient>();

describe('zulip-js: editing, moving and deleting messages', () => {
  it('edits content and topic, reads the history, and deletes', async () => {
    const member = await js.client('member');
    const other = await js.client('member_2');
    const sent = await member.messages.send({ type: 'stream', to: 'home', topic: 'zulip-js edits', content: 'one' });
    expect(sent).toMatchObject({ result: 'success' });
    const id = sent.id as number;

    // zulip-js repeats the path's message_id in the query string, which the server reports as ignored.
    expect(await member.messages.update({ message_id: id, content: 'two' })).toMatchObject({
      result: 'success',
      msg: '',
      detached_uploads: [],
    });
    expect(
      await member.messages.update({
        message_id: id,
        topic: 'zulip-js moved',
        propagate_mode: 'change_all',
        send_notification_to_new_thread: false,
      }),
    ).toMatchObject({ result: 'success' });
    const fetched = await other.messages.getById({ message_id: id, apply_markdown: false });
    expect(fetched.message).toMatchObject({ content: 'two', subject: 'zulip-js moved' });
    expect(fetched.message).toHaveProperty('last_edit_timestamp');
    expect(fetched.message).toHaveProperty('last_moved_timestamp');

    const history = await other.messages.getHistoryById({ message_id: id });
    expect((history.message_history as Answer[]).map((h) => [h.topic, h.content])).toEqual([
      ['zulip-js edits', 'one'],
      ['zulip-js edits', 'two'],
      ['zulip-js moved', 'two'],
    ]);

    expect(await other.messages.update({ message_id: id, content: 'not mine' })).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: "You don't have permission to edit this message",
    });
    expect(await other.messages.deleteById({ message_id: id })).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: "You don't have permission to delete this message",
    });
    expect(await member.messages.deleteById({ message_id: id })).toMatchObject({ result: 'success', msg: '' });
    expect(await member.messages.getById({ message_id: id })).toMatchObject({ result: 'error', msg: 'Invalid message(s)' });
  });

  it("changes the organization's editing settings with callEndpoint (PATCH /realm), as administrators only", async () => {
    const admin = await js.client('administrator');
    const member = await js.client('member');
    expect(await member.callEndpoint('/realm', 'PATCH', { allow_message_editing: false })).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Must be an organization administrator',
    });
    expect(await admin.callEndpoint('/realm', 'PATCH', { message_content_edit_limit_seconds: 1200 })).toEqual({
      result: 'success',
      msg: '',
      message_content_edit_limit_seconds: 1200,
    });
    const sent = await member.messages.send({ type: 'stream', to: 'home', topic: 'zulip-js settings', content: 'x' });
    expect(await admin.callEndpoint('/realm', 'PATCH', { allow_message_editing: false })).toMatchObject({ result: 'success' });
    expect(await member.messages.update({ message_id: sent.id, content: 'y' })).toMatchObject({
      result: 'error',
      msg: 'Your organization has turned off message editing',
    });
  });
});
