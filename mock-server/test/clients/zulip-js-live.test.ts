import { createReadStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { useZulipJsServer, type ZulipJsBase } from '../helpers/zulip-js.js';

/**
 * zulip-js against `teamchat serve` for the live area (companion tier): typing through its own
 * typing.send, presence and uploads through callEndpoint (zulip-js has no wrapper for them), the way
 * the reference documentation shows JavaScript clients calling them. Uploads: zulip-js posts every
 * parameter as multipart, so a file stream becomes a file part named after the file.
 */
type Answer = Record<string, unknown>;
interface Client extends ZulipJsBase {
  typing: { send(params: Record<string, unknown>): Promise<Answer> };
}
const js = useZulipJsServer<Client>();

const client = (role: string) => js.client(role);
const credentials = (role: string) => js.credentials(role);

describe('zulip-js: typing, presence and uploads', () => {
  it('typing.send to one user and to several (a one-element list and a JSON list)', async () => {
    const member = await client('member');
    const others = (await member.callEndpoint('/users', 'GET')).members as { user_id: number; is_bot: boolean; is_active: boolean }[];
    const ids = others.filter((u) => !u.is_bot).map((u) => u.user_id);
    expect(await member.typing.send({ to: [ids[0]], op: 'start' })).toEqual({ result: 'success', msg: '' });
    expect(await member.typing.send({ to: ids.slice(0, 3), op: 'stop' })).toEqual({ result: 'success', msg: '' });
    expect(await member.typing.send({ to: [999_999], op: 'start' })).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Invalid user ID 999999',
    });
  });

  it('presence: report, read one user by email, read the realm', async () => {
    const member = await client('member');
    const { email } = await credentials('member');
    const reported = await member.callEndpoint('/users/me/presence', 'POST', { status: 'active', new_user_input: 'true' });
    expect(reported).toMatchObject({ result: 'success', presences: { [email]: { aggregated: { status: 'active' } } } });
    const one = await (await client('owner')).callEndpoint(`/users/${email}/presence`, 'GET');
    expect(one).toMatchObject({ result: 'success', presence: { aggregated: { status: 'active' }, website: { status: 'active' } } });
    const realm = await member.callEndpoint('/realm/presence', 'GET');
    expect(realm).toMatchObject({ result: 'success', presences: { [email]: { aggregated: { status: 'active' } } } });
  });

  it('upload a file, read it back with the API key, list and delete the attachment', async () => {
    const member = await client('member');
    const path = join(js.dir, 'report.txt');
    await writeFile(path, 'quarterly numbers');
    const uploaded = await member.callEndpoint('/user_uploads', 'POST', { filename: createReadStream(path) });
    expect(uploaded).toMatchObject({ result: 'success', filename: 'report.txt' });
    const url = uploaded.url as string;
    const { email, key } = await credentials('member');
    const file = await request(`${js.url}${url}`, {
      headers: { authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` },
    });
    expect({ status: file.statusCode, text: await file.body.text() }).toEqual({ status: 200, text: 'quarterly numbers' });

    const listed = (await member.callEndpoint('/attachments', 'GET')).attachments as { id: number; name: string; size: number }[];
    const attachment = listed.find((a) => url.endsWith(`/${a.name}`))!;
    expect(attachment).toMatchObject({ name: 'report.txt', size: 'quarterly numbers'.length });
    expect(await member.callEndpoint(`/attachments/${attachment.id}`, 'DELETE')).toEqual({ result: 'success', msg: '' });
    expect(await member.callEndpoint(`/attachments/${attachment.id}`, 'DELETE')).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Invalid attachment',
    });
  });
});
