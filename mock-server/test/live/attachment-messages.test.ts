import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { observeEvents, send, success, tables, useTestRealm, type Cred } from '../helpers/harness.js';
import { fetchFile, upload } from './support.js';

/**
 * An attachment's messages follow deletions (companion tier, area live; reference get-attachments
 * `messages`, delete-message): the deleted message leaves the list, the owner hears `attachment` /
 * `update`, and a file no message references any longer is the uploader's alone again.
 */
const env = useTestRealm();
const attachments = (as: Cred) => call(env.server, 'GET', '/api/v1/attachments', { as });

describe('deleting a message that references an upload', () => {
  it('takes the message off the list; the other message stays; readers lose access with the last one', async () => {
    const member = env.who.member!;
    const url = (await upload(env.server, member, [{ name: 'deck.txt', content: 'slides' }])).body.url as string;
    // alarm (52): public, shared history; member_2 is subscribed.
    const first = (await send(env.server, member, { type: 'stream', to: '52', topic: 'deck', content: `see ${url}` })).body.id as number;
    const second = (await send(env.server, member, { type: 'stream', to: '52', topic: 'deck', content: `again ${url}` })).body.id as number;
    const listed = () =>
      attachments(member).then((r) => (r.body.attachments as { messages: { id: number }[] }[])[0]!.messages.map((m) => m.id));
    expect(await listed()).toEqual([first, second]);

    const seen = await observeEvents(env, ['member', 'member_2'], { event_types: '["attachment"]' }, async () => {
      expect((await call(env.server, 'DELETE', `/api/v1/messages/${first}`, { as: member })).body).toEqual(success());
    });
    expect(await listed()).toEqual([second]);
    const row = Object.values(tables(env.server, env.realm).attachments)[0]!;
    expect(row.message_ids).toEqual([second]);
    expect(seen.member!.map((e) => e.op)).toEqual(['update']);
    expect(seen.member![0]!.attachment).toMatchObject({ name: 'deck.txt', messages: [{ id: second }] });
    expect(seen.member_2).toEqual([]);
    expect((await fetchFile(env.server, url, env.who.member_2!)).status).toBe(200);

    await call(env.server, 'DELETE', `/api/v1/messages/${second}`, { as: member });
    expect(await listed()).toEqual([]);
    // No message references it: the uploader still reads it, nobody else does.
    expect((await fetchFile(env.server, url, member)).bytes.toString()).toBe('slides');
    expect((await fetchFile(env.server, url, env.who.member_2!)).status).toBe(403);
  });

  it('a link added by an edit is detached too; a message without links changes no attachment', async () => {
    const member = env.who.member!;
    const url = (await upload(env.server, member, [{ name: 'later.txt', content: 'x' }])).body.url as string;
    const id = (await send(env.server, member, { type: 'stream', to: '52', topic: 'later', content: 'draft' })).body.id as number;
    await call(env.server, 'PATCH', `/api/v1/messages/${id}`, { as: member, form: { content: `now ${url}` } });
    await call(env.server, 'PATCH', `/api/v1/messages/${id}`, { as: member, form: { content: 'link removed again' } });
    const plain = (await send(env.server, member, { type: 'stream', to: '52', topic: 'later', content: 'no link' })).body.id as number;
    const before = structuredClone(tables(env.server, env.realm).attachments);
    await call(env.server, 'DELETE', `/api/v1/messages/${plain}`, { as: member });
    expect(tables(env.server, env.realm).attachments).toEqual(before);
    await call(env.server, 'DELETE', `/api/v1/messages/${id}`, { as: member });
    expect(Object.values(tables(env.server, env.realm).attachments).find((a) => a.name === 'later.txt')!.message_ids).toEqual([]);
  });
});
