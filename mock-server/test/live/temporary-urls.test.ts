import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { error, send, success, tables, useTestRealm } from '../helpers/harness.js';
import { CH } from '../channels/support.js';
import { fetchFile, upload } from './support.js';

/**
 * Temporary file URLs and spectators' file access (companion tier, area live; reference
 * get-file-temporary-url, and the files of web-public channels open to spectators).
 */
const env = useTestRealm();
const temporaryUrl = (url: string, as = env.who.member!) => call(env.server, 'GET', `/api/v1${url}`, { as });

async function uploaded(name = 'notes.txt', content = 'the notes', as = env.who.member!): Promise<string> {
  return (await upload(env.server, as, [{ name, content }])).body.url as string;
}

describe('GET /user_uploads/{realm_id}/{filename} (temporary URL)', () => {
  it('answers a URL that serves the file without credentials for 60 seconds of the realm clock', async () => {
    const url = await uploaded();
    const res = await temporaryUrl(url);
    expect(res.body).toEqual(success({ url: expect.stringMatching(/^\/user_uploads\/temporary\/[0-9a-f]+\/notes\.txt$/) as string }));
    const temporary = res.body.url as string;
    const first = await fetchFile(env.server, temporary, null);
    expect(first.status).toBe(200);
    expect(first.bytes.toString()).toBe('the notes');
    await env.server.control.advanceRealm(env.realm, 60);
    expect((await fetchFile(env.server, temporary, null)).status).toBe(200);
    await env.server.control.advanceRealm(env.realm, 1);
    const expired = await fetchFile(env.server, temporary, null);
    expect({ status: expired.status, body: expired.json() }).toEqual({ status: 400, body: error('Invalid token') });
  });

  it('refuses forged tokens and other names; a file deleted since is 404', async () => {
    const url = await uploaded('plan.txt');
    const temporary = (await temporaryUrl(url)).body.url as string;
    const forged = temporary.replace(/\/([0-9a-f]+)\//, (_m, hex: string) => `/${hex.slice(0, -2)}${hex.endsWith('00') ? '01' : '00'}/`);
    expect((await fetchFile(env.server, forged, null)).json()).toEqual(error('Invalid token'));
    expect((await fetchFile(env.server, '/user_uploads/temporary/zz/plan.txt', null)).json()).toEqual(error('Invalid token'));
    expect((await fetchFile(env.server, temporary.replace(/plan\.txt$/, 'other.txt'), null)).json()).toEqual(error('Invalid filename'));
    await call(env.server, 'DELETE', `/api/v1/attachments/${url.split('/')[3]}`, { as: env.who.member! });
    expect((await fetchFile(env.server, temporary, null)).status).toBe(404);
  });

  it('only for who may read the file: others 403, unknown files 404, no credentials 401', async () => {
    const url = await uploaded('mine.txt');
    const other = await temporaryUrl(url, env.who.member_2!);
    expect({ status: other.status, body: other.body }).toEqual({ status: 403, body: error('You are not authorized to view this file.') });
    const unknown = await temporaryUrl(url.replace(/\/[A-Za-z0-9_-]{24}\//, `/${'B'.repeat(24)}/`));
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 404, body: error('File not found.', 'NOT_FOUND') });
    expect((await call(env.server, 'GET', `/api/v1${url}`, {})).status).toBe(401);
  });
});

describe('files of web-public channels without credentials', () => {
  it('serves a file a web-public channel message references; other files stay 401', async () => {
    // Only administrators may post in the web-public channel of the demo realm.
    const admin = env.who.administrator!;
    const open = await uploaded('open.txt', 'for everyone', admin);
    const closed = await uploaded('closed.txt', 'members only', admin);
    await send(env.server, admin, { type: 'stream', to: String(CH.web_public), topic: 'files', content: `see ${open}` });
    await send(env.server, admin, { type: 'stream', to: String(CH.public), topic: 'files', content: `see ${closed}` });
    const served = await fetchFile(env.server, open, null);
    expect(served.status).toBe(200);
    expect(served.bytes.toString()).toBe('for everyone');
    expect((await fetchFile(env.server, closed, null)).status).toBe(401);
    expect((await fetchFile(env.server, `/user_uploads/${env.realm}/999/x/none.txt`, null)).status).toBe(401);
  });

  it('not when the realm keeps spectators out, nor once the message is gone', async () => {
    const url = await uploaded('brief.txt', 'brief', env.who.administrator!);
    const id = (await send(env.server, env.who.administrator!, { type: 'stream', to: String(CH.web_public), topic: 'files', content: url }))
      .body.id as number;
    const realm = tables(env.server, env.realm).realm.realm;
    await env.server.context.store.transact(env.realm, (tx) => tx.put('realm', 'realm', { ...realm, enable_spectator_access: false }));
    expect((await fetchFile(env.server, url, null)).status).toBe(401);
    await env.server.context.store.transact(env.realm, (tx) => tx.put('realm', 'realm', realm));
    expect((await fetchFile(env.server, url, null)).status).toBe(200);
    await call(env.server, 'DELETE', `/api/v1/messages/${id}`, { as: env.who.administrator! });
    expect((await fetchFile(env.server, url, null)).status).toBe(401);
  });
});
