import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { indexOf } from '../../src/store/indexes.js';
import { credentials, startTestServer } from '../helpers/test-server.js';
import { tables } from '../helpers/harness.js';
import { CHANNEL, deleteMessage, fetchMessage, patchMessage, post, setEditing } from './support.js';
import type { Cred } from '../helpers/harness.js';

/**
 * Edits, moves, deletions and the organization's editing settings are state: they survive a restart
 * from the state file (an old state file without `editing` reads the defaults: settings.ts).
 */
describe('edit-delete state across a restart', () => {
  let dir: string;
  let server: MockServer | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'teamchat-edit-'));
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the edited, moved and deleted messages and the settings', async () => {
    const statePath = join(dir, 'state.json');
    server = await startTestServer({ statePath, durability: 'write' });
    const who = credentials(server) as Record<string, Cred>;
    const edited = await post(server, who.member!, CHANNEL.public, 'durable', 'before');
    const gone = await post(server, who.member!, CHANNEL.public, 'durable', 'bye');
    expect((await patchMessage(server, who.member!, edited, { content: 'after', topic: 'durable moved' })).status).toBe(200);
    expect((await deleteMessage(server, who.member!, gone)).status).toBe(200);
    await setEditing(server, 'demo', { allow_message_editing: false });
    await server.close();

    server = await startTestServer({ statePath, durability: 'write' });
    const message = (await fetchMessage(server, who.member!, edited, { apply_markdown: 'false' })).body.message as Record<string, unknown>;
    expect([message.content, message.subject]).toEqual(['after', 'durable moved']);
    expect(message.edit_history).toHaveLength(1);
    expect(tables(server).messages[String(gone)]).toBeUndefined();
    expect(indexOf(tables(server)).messages.topic(CHANNEL.public, 'durable')?.toArray() ?? []).not.toContain(gone);
    expect((await patchMessage(server, who.member!, edited, { content: 'again' })).body.msg).toBe(
      'Your organization has turned off message editing',
    );
  });
});
