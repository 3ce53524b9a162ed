import { describe, expect, it } from 'vitest';
import { error, tables, useTestRealm } from '../helpers/harness.js';
import { CHANNEL, deleteMessage, fetchMessage, messageRow, patchMessage } from './support.js';

/**
 * Messages of an archived channel stay readable but can no longer be changed: the reference server's
 * access check for modifying a message (access_message with is_modifying_message, used by update_message
 * and delete_message as by reactions) refuses them as `Invalid message(s)`, for every role.
 */
const env = useTestRealm();

/** A message of the demo's archived channel, with its sender (administrator Werner in the demo). */
function archivedMessage() {
  const t = tables(env.server, env.realm);
  expect(t.channels[String(CHANNEL.archived)]!.is_archived).toBe(true);
  const row = Object.values(t.messages).find((m) => m.stream_id === CHANNEL.archived && m.sender_id === env.who.administrator!.user_id);
  if (!row) throw new Error('the demo realm has no message of the administrator in its archived channel');
  return row;
}

describe('messages of an archived channel', () => {
  it('refuses content edits, topic edits and moves out, and changes nothing', async () => {
    const row = archivedMessage();
    const { server, realm, who } = env;
    expect((await fetchMessage(server, who.owner!, row.id)).status).toBe(200);
    const asks: [string, Record<string, string>][] = [
      ['administrator', { content: 'rewritten' }],
      ['owner', { topic: 'elsewhere' }],
      ['owner', { stream_id: String(CHANNEL.public) }],
      ['owner', { topic: `✔ ${row.subject}` }],
    ];
    for (const [role, form] of asks) {
      const res = await patchMessage(server, who[role]!, row.id, form);
      expect([role, form, res.status, res.body]).toEqual([role, form, 400, error('Invalid message(s)')]);
    }
    expect(messageRow(server, realm, row.id)).toEqual(row);
  });

  it('refuses deletion, even by the owner, and keeps the message', async () => {
    const row = archivedMessage();
    const { server, realm, who } = env;
    for (const role of ['administrator', 'owner']) {
      const res = await deleteMessage(server, who[role]!, row.id);
      expect([role, res.status, res.body]).toEqual([role, 400, error('Invalid message(s)')]);
    }
    expect(messageRow(server, realm, row.id)).toEqual(row);
  });
});
