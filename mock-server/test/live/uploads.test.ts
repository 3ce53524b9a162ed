import { describe, expect, it } from 'vitest';
import { FormData, request } from 'undici';
import { basic, call } from '../helpers/test-server.js';
import { error, nowOf, observeEvents, send, success, tables, useTestRealm, freshRealm, type Cred } from '../helpers/harness.js';
import { fetchFile, upload } from './support.js';

/**
 * Uploads (companion tier, area live; reference "Upload a file", "Get attachments", "Delete an
 * attachment"): one file per request within the limit, served with Basic auth to the uploader and to
 * whoever may see a message that references it, listed and deleted by the owner, bytes freed on delete.
 */
const env = useTestRealm();
const attachments = (as: Cred) => call(env.server, 'GET', '/api/v1/attachments', { as });

describe('POST /user_uploads', () => {
  it('stores one file and answers its URL and cleaned name; the uploader reads it back byte for byte', async () => {
    const member = env.who.member!;
    const res = await upload(env.server, member, [{ name: 'my notes (1).txt', content: 'hello' }]);
    expect(res.body).toMatchObject(success({ filename: 'my-notes-1.txt' }));
    const url = res.body.url as string;
    expect(res.body.uri).toBe(url);
    expect(url).toMatch(new RegExp(`^/user_uploads/${env.realm}/\\d+/[A-Za-z0-9_-]{24}/my-notes-1\\.txt$`));
    const file = await fetchFile(env.server, url, member);
    expect(file.status).toBe(200);
    expect(file.bytes.toString()).toBe('hello');
    expect(file.headers['content-type']).toBe('text/plain');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
  });

  it('binary content survives unchanged; an HTML file is offered for download, never inline', async () => {
    const bytes = Buffer.from([0, 255, 1, 254, 10, 13]);
    const res = await upload(env.server, env.who.member!, [{ name: 'page.html', type: 'text/html', content: bytes }]);
    const file = await fetchFile(env.server, res.body.url as string, env.who.member!);
    expect(file.bytes.equals(bytes)).toBe(true);
    expect(String(file.headers['content-disposition'])).toMatch(/^attachment;/);
  });

  it.each([
    ['no file', [], { note: 'x' }, 'You must specify a file to upload'],
    [
      'two files',
      [
        { name: 'a.txt', content: 'a' },
        { name: 'b.txt', content: 'b' },
      ],
      {},
      'You may only upload one file at a time',
    ],
  ])('%s: refused, nothing stored', async (_name, files, fields, msg) => {
    const res = await upload(env.server, env.who.member!, files, fields);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: error(msg) });
    expect(tables(env.server, env.realm).attachments).toEqual({});
  });

  it('without credentials: 401', async () => {
    expect((await upload(env.server, null, [{ name: 'a.txt', content: 'a' }])).status).toBe(401);
  });

  it('another operation given a file part discards it: not a parameter, nothing stored', async () => {
    const form = new FormData();
    form.append('content', '**hi**');
    form.append('file', new Blob(['ignored bytes']), 'x.txt');
    const res = await request(`${env.server.url}/api/v1/messages/render`, {
      method: 'POST',
      headers: { authorization: basic(env.who.member!) },
      body: form,
    });
    expect(await res.body.json()).toEqual(success({ rendered: '<p><strong>hi</strong></p>' }));
    expect(tables(env.server, env.realm).attachments).toEqual({});
  });

  it('the file part is not a parameter (nothing ignored); other fields are', async () => {
    const res = await upload(env.server, env.who.member!, [{ field: 'filename', name: 'a.txt', content: 'a' }], { extra: '1' });
    expect(res.body.ignored_parameters_unsupported).toEqual(['extra']);
  });
});

describe('who may read a file', () => {
  async function shared(): Promise<{ url: string; messageId: number }> {
    const up = await upload(env.server, env.who.member!, [{ name: 'plan.txt', content: 'the plan' }]);
    const url = up.body.url as string;
    // alarm (52): owner, administrator, moderator, member, member_2 (public, shared history).
    const sent = await send(env.server, env.who.member!, { type: 'stream', to: '52', topic: 'plans', content: `See [plan.txt](${url})` });
    return { url, messageId: sent.body.id as number };
  }

  it('before any message: only the uploader (others 403, no credentials 401)', async () => {
    const up = await upload(env.server, env.who.member!, [{ name: 'secret.txt', content: 's' }]);
    const url = up.body.url as string;
    expect((await fetchFile(env.server, url, env.who.member_2!)).status).toBe(403);
    expect((await fetchFile(env.server, url, env.who.owner!)).json()).toEqual(error('You are not authorized to view this file.'));
    const anonymous = await fetchFile(env.server, url, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json()).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
  });

  it('a sent message claims it: readers of the message may read the file; others may not', async () => {
    const { url, messageId } = await shared();
    expect((await fetchFile(env.server, url, env.who.member_2!)).bytes.toString()).toBe('the plan');
    // The guest is not subscribed to alarm and cannot read public channels' history.
    expect((await fetchFile(env.server, url, env.who.guest!)).status).toBe(403);
    const list = await attachments(env.who.member!);
    const [attachment] = list.body.attachments as Record<string, unknown>[];
    expect(attachment!.messages).toEqual([{ id: messageId, date_sent: nowOf(env.server, env.realm) * 1000 }]);
  });

  it('an edit that adds the link claims the file too', async () => {
    const up = await upload(env.server, env.who.member!, [{ name: 'later.txt', content: 'later' }]);
    const url = up.body.url as string;
    const sent = await send(env.server, env.who.member!, { type: 'stream', to: '52', topic: 'edit', content: 'draft text' });
    expect((await fetchFile(env.server, url, env.who.member_2!)).status).toBe(403);
    const edit = await call(env.server, 'PATCH', `/api/v1/messages/${sent.body.id as number}`, {
      as: env.who.member!,
      form: { content: `now with ${url}` },
    });
    expect(edit.body.result).toBe('success');
    expect((await fetchFile(env.server, url, env.who.member_2!)).bytes.toString()).toBe('later');
  });

  it("a link to someone else's file the sender cannot read claims nothing", async () => {
    const up = await upload(env.server, env.who.member!, [{ name: 'mine.txt', content: 'm' }]);
    const url = up.body.url as string;
    await send(env.server, env.who.member_2!, { type: 'stream', to: '52', topic: 'grab', content: `/me found ${url}` });
    expect((await fetchFile(env.server, url, env.who.owner!)).status).toBe(403);
  });

  it('a wrong token, a deleted file or an unknown path: 404', async () => {
    const up = await upload(env.server, env.who.member!, [{ name: 'a.txt', content: 'a' }]);
    const url = up.body.url as string;
    const forged = url.replace(/\/[A-Za-z0-9_-]{24}\//, `/${'A'.repeat(24)}/`);
    expect((await fetchFile(env.server, forged, env.who.member!)).json()).toEqual(error('File not found.', 'NOT_FOUND'));
    expect((await fetchFile(env.server, `/user_uploads/${env.realm}/x`, env.who.member!)).status).toBe(404);
    const id = Number(url.split('/')[3]);
    await call(env.server, 'DELETE', `/api/v1/attachments/${id}`, { as: env.who.member! });
    expect((await fetchFile(env.server, url, env.who.member!)).status).toBe(404);
  });

  it("another realm's user: 404 (the path names no file of their realm)", async () => {
    const up = await upload(env.server, env.who.member!, [{ name: 'a.txt', content: 'a' }]);
    const other = await freshRealm(env.server);
    expect((await fetchFile(env.server, up.body.url as string, other.who.owner!)).status).toBe(404);
    await env.server.control.deleteRealm(other.realm);
  });
});

describe('attachments: list, delete, events', () => {
  it('the owner lists its files newest first with the realm space used; others see none of them', async () => {
    await upload(env.server, env.who.member!, [{ name: 'one.txt', content: '1' }]);
    await upload(env.server, env.who.member!, [{ name: 'two.txt', content: '22' }]);
    const res = await attachments(env.who.member!);
    expect(res.body).toMatchObject(success({ upload_space_used: 3 }));
    expect((res.body.attachments as { name: string; size: number }[]).map((a) => [a.name, a.size])).toEqual([
      ['two.txt', 2],
      ['one.txt', 1],
    ]);
    expect((await attachments(env.who.member_2!)).body).toEqual(success({ attachments: [], upload_space_used: 3 }));
  });

  it('delete: bytes freed; only the owner may delete (others: Invalid attachment)', async () => {
    const up = await upload(env.server, env.who.member!, [{ name: 'gone.txt', content: 'bye' }]);
    const id = Number((up.body.url as string).split('/')[3]);
    const refused = await call(env.server, 'DELETE', `/api/v1/attachments/${id}`, { as: env.who.owner! });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 400, body: error('Invalid attachment') });
    expect((await call(env.server, 'DELETE', `/api/v1/attachments/${id}`, { as: env.who.member! })).body).toEqual(success());
    expect(tables(env.server, env.realm).attachment_files[String(id)]).toBeUndefined();
    expect(tables(env.server, env.realm).attachments[String(id)]).toBeUndefined();
    expect((await call(env.server, 'DELETE', `/api/v1/attachments/${id}`, { as: env.who.member! })).body).toEqual(
      error('Invalid attachment'),
    );
  });

  it('attachment events add, update (claimed) and remove go to the owner only', async () => {
    let url = '';
    const seen = await observeEvents(env, ['member', 'member_2', 'owner'], { event_types: '["attachment"]' }, async () => {
      url = (await upload(env.server, env.who.member!, [{ name: 'e.txt', content: 'e' }])).body.url as string;
      await send(env.server, env.who.member!, { type: 'stream', to: '52', topic: 'ev', content: url });
      await call(env.server, 'DELETE', `/api/v1/attachments/${url.split('/')[3]}`, { as: env.who.member! });
    });
    expect(seen.member!.map((e) => [e.op, e.upload_space_used])).toEqual([
      ['add', 1],
      ['update', 1],
      ['remove', 0],
    ]);
    expect(seen.member![1]!.attachment).toMatchObject({ name: 'e.txt', messages: [{ id: expect.any(Number) as number }] });
    expect(seen.member_2).toEqual([]);
    expect(seen.owner).toEqual([]);
  });
});
