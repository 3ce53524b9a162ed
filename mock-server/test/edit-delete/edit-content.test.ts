import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { error, observeEvents, success, tables, useTestRealm } from '../helpers/harness.js';
import { advance, CHANNEL, fetchMessage, messageHistory, messageRow, patchMessage, post, postDirect, setEditing } from './support.js';

/** PATCH /messages/{id} with content (companion tier, area edit-delete; reference update-message). */
const env = useTestRealm();

describe('editing content', () => {
  it('changes content and rendering, sets last_edit_timestamp and an edit_history entry (R2.5-8)', async () => {
    const { server, realm, who } = env;
    const id = await post(server, who.member!, CHANNEL.public, 'edits', 'first *draft*');
    const before = await fetchMessage(server, who.member!, id, { apply_markdown: 'false' });
    expect(before.body.message).not.toHaveProperty('last_edit_timestamp');
    expect(before.body.message).not.toHaveProperty('edit_history');

    await advance(server, realm, 30);
    const res = await patchMessage(server, who.member!, id, { content: 'second **take**' });
    expect(res.body).toEqual(success({ detached_uploads: [] }));
    const row = messageRow(server, realm, id)!;
    expect(row.content).toBe('second **take**');
    expect(row.rendered_content).toBe('<p>second <strong>take</strong></p>');
    const after = (await fetchMessage(server, who.member_2!, id, { apply_markdown: 'false' })).body.message as Record<string, unknown>;
    expect(after.content).toBe('second **take**');
    expect(after.last_edit_timestamp).toBe(row.timestamp + 30);
    expect(after).not.toHaveProperty('last_moved_timestamp');
    expect(after.edit_history).toEqual([
      {
        user_id: who.member!.user_id,
        timestamp: row.timestamp + 30,
        prev_content: 'first *draft*',
        prev_rendered_content: '<p>first <em>draft</em></p>',
      },
    ]);
  });

  it('turns blank content into (deleted) and checks prev_content_sha256', async () => {
    const { server, realm, who } = env;
    const id = await post(server, who.member!, CHANNEL.public, 'edits', 'keep');
    const mismatch = await patchMessage(server, who.member!, id, { content: 'x', prev_content_sha256: '00'.repeat(32) });
    expect(mismatch.body).toEqual(error("'prev_content_sha256' value does not match the expected value.", 'EXPECTATION_MISMATCH'));
    expect(messageRow(server, realm, id)!.content).toBe('keep');
    const right = createHash('sha256').update('keep').digest('hex');
    expect((await patchMessage(server, who.member!, id, { content: '   ', prev_content_sha256: right })).body).toEqual(
      success({ detached_uploads: [] }),
    );
    expect(messageRow(server, realm, id)!.content).toBe('(deleted)');
  });

  it("refuses someone else's message, disabled editing and a passed time limit, changing nothing", async () => {
    const { server, realm, who } = env;
    const id = await post(server, who.member!, CHANNEL.public, 'edits', 'mine');
    const snapshot = JSON.stringify(tables(server, realm).messages[String(id)]);
    for (const role of ['member_2', 'administrator', 'owner']) {
      const res = await patchMessage(server, who[role]!, id, { content: 'theirs' });
      expect([res.status, res.body]).toEqual([400, error("You don't have permission to edit this message")]);
    }
    await advance(server, realm, 600 + 21);
    expect((await patchMessage(server, who.member!, id, { content: 'late' })).body).toEqual(
      error('The time limit for editing this message has passed'),
    );
    await setEditing(server, realm, { message_content_edit_limit_seconds: null });
    await setEditing(server, realm, { allow_message_editing: false });
    expect((await patchMessage(server, who.member!, id, { content: 'off' })).body).toEqual(
      error('Your organization has turned off message editing'),
    );
    expect(JSON.stringify(tables(server, realm).messages[String(id)])).toBe(snapshot);
    await setEditing(server, realm, { allow_message_editing: true });
    expect((await patchMessage(server, who.member!, id, { content: 'no limit now' })).status).toBe(200);
  });

  it('answers a missing or invisible message, nothing to change, and bad combinations', async () => {
    const { server, who } = env;
    const hidden = await post(server, who.member!, CHANNEL.private_protected, 'secret', 'hush');
    expect((await patchMessage(server, who.guest!, hidden, { content: 'x' })).body).toEqual(error('Invalid message(s)'));
    expect((await patchMessage(server, who.member!, 999_999, { content: 'x' })).body).toEqual(error('Invalid message(s)'));
    const id = await post(server, who.member!, CHANNEL.public, 'edits');
    expect((await patchMessage(server, who.member!, id, {})).body).toEqual(error('Nothing to change'));
    expect((await patchMessage(server, who.member!, id, { topic: 'edits' })).body).toEqual(error('Nothing to change'));
    expect((await patchMessage(server, who.member!, id, { content: 'x', propagate_mode: 'change_all' })).body).toEqual(
      error('Invalid propagate_mode without topic edit'),
    );
    expect((await patchMessage(server, who.member!, id, { content: 'x', stream_id: String(CHANNEL.public_2) })).body).toEqual(
      error('Cannot change message content while changing channel'),
    );
    expect((await patchMessage(server, who.member!, id, { propagate_mode: 'sideways', topic: 'y' })).status).toBe(400);
    const dm = await postDirect(server, who.member!, [who.member_2!.user_id]);
    expect((await patchMessage(server, who.member!, dm, { topic: 'y' })).body).toEqual(error('Direct messages cannot have topics.'));
    expect((await patchMessage(server, who.member!, dm, { stream_id: String(CHANNEL.public) })).body).toEqual(
      error('Direct messages cannot be moved to channels.'),
    );
  });

  it('sends update_message with old and new content to the people who see the message, and nobody else', async () => {
    const { who, server, realm } = env;
    const id = await post(server, who.member!, CHANNEL.private_protected, 'ops', 'plan A');
    const name = tables(server, realm).users[String(who.member_2!.user_id)]!.full_name;
    const events = await observeEvents(env, ['member', 'member_2', 'administrator', 'owner', 'guest'], {}, () =>
      patchMessage(server, who.member!, id, { content: `plan B @**${name}**` }),
    );
    const update = events.member!.find((e) => e.type === 'update_message')!;
    expect(update).toMatchObject({
      user_id: who.member!.user_id,
      message_id: id,
      message_ids: [id],
      rendering_only: false,
      stream_id: CHANNEL.private_protected,
      orig_content: 'plan A',
      orig_rendered_content: '<p>plan A</p>',
      content: `plan B @**${name}**`,
      flags: tables(server, realm).user_messages[String(id)]!.flags[String(who.member!.user_id)],
    });
    // The new mention is a flag of the mentioned user now, and their event says so.
    expect(tables(server, realm).user_messages[String(id)]!.flags[String(who.member_2!.user_id)]).toContain('mentioned');
    expect(events.member_2!.find((e) => e.type === 'update_message')!.flags).toContain('mentioned');
    expect(update).not.toHaveProperty('propagate_mode');
    expect(events.member_2!.filter((e) => e.type === 'update_message')).toHaveLength(1);
    expect(events.administrator!.filter((e) => e.type === 'update_message')).toHaveLength(1);
    // Not subscribed to the private channel: nothing.
    expect(events.owner!.filter((e) => e.type === 'update_message')).toEqual([]);
    expect(events.guest!.filter((e) => e.type === 'update_message')).toEqual([]);
  });

  it('keeps the history of versions, oldest first (get-message-history)', async () => {
    const { server, realm, who } = env;
    const id = await post(server, who.member!, CHANNEL.public, 'history', 'v1');
    const sent = messageRow(server, realm, id)!.timestamp;
    await advance(server, realm, 10);
    await patchMessage(server, who.member!, id, { content: 'v2' });
    await advance(server, realm, 10);
    await patchMessage(server, who.member!, id, { topic: 'history moved' });
    const res = await messageHistory(server, who.member_2!, id);
    expect(res.status).toBe(200);
    const history = res.body.message_history as Record<string, unknown>[];
    expect(history.map((h) => [h.topic, h.content, h.timestamp, h.user_id])).toEqual([
      ['history', 'v1', sent, who.member!.user_id],
      ['history', 'v2', sent + 10, who.member!.user_id],
      ['history moved', 'v2', sent + 20, who.member!.user_id],
    ]);
    expect(history[1]).toMatchObject({ prev_content: 'v1', prev_rendered_content: '<p>v1</p>' });
    // Word-level marks inside the new rendering (reference get-message-history).
    expect(history[1]!.content_html_diff).toBe(
      '<div><p><span class="highlight_text_inserted">v2</span></p> <p><span class="highlight_text_deleted">v1</span></p></div>',
    );
    expect(history[2]).toMatchObject({ prev_topic: 'history' });
    expect(history[2]).not.toHaveProperty('prev_content');

    await setEditing(server, realm, { message_edit_history_visibility_policy: 'moves' });
    const moves = (await messageHistory(server, who.member_2!, id)).body.message_history as Record<string, unknown>[];
    expect(moves.map((h) => [h.topic, h.content])).toEqual([
      ['history', 'v2'],
      ['history moved', 'v2'],
    ]);
    const shown = (await fetchMessage(server, who.member_2!, id)).body.message as Record<string, unknown>;
    expect(shown.edit_history).toEqual([
      { user_id: who.member!.user_id, timestamp: sent + 20, prev_topic: 'history', topic: 'history moved' },
    ]);

    await setEditing(server, realm, { message_edit_history_visibility_policy: 'none' });
    expect((await messageHistory(server, who.member_2!, id)).body).toEqual(error('Message edit history is disabled in this organization'));
    expect((await fetchMessage(server, who.member_2!, id)).body.message).not.toHaveProperty('edit_history');
    await setEditing(server, realm, { message_edit_history_visibility_policy: 'all' });
    expect((await messageHistory(server, who.guest!, 999_999)).body).toEqual(error('Invalid message(s)'));
  });
});
