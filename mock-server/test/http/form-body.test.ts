import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { call, credentials, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * A plain UTF-8 form is read without express.text (http/body.ts); every other form still goes through
 * it. Both must give the same parameters: the pairs below differ only in which reader takes them.
 */
let server: MockServer;
let member: Who;
beforeAll(async () => {
  server = await startTestServer();
  member = credentials(server).member!;
});
afterAll(() => server.close());

const render = (contentType: string, body: Buffer | string) =>
  call(server, 'POST', '/api/v1/messages/render', { as: member, headers: { 'content-type': contentType }, body });

const PLAIN = 'application/x-www-form-urlencoded';
// Same meaning, but not one of the exact forms the short reader takes.
const OTHER = 'application/x-www-form-urlencoded ; charset="UTF-8"';

describe('form bodies', () => {
  it.each([
    ['ASCII', Buffer.from('content=**hi**')],
    ['UTF-8 text', Buffer.from('content=caf\u00e9 \u{1f600}')],
    ['a leading byte-order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('content=x')])],
    ['invalid UTF-8', Buffer.concat([Buffer.from('content=a'), Buffer.from([0xc3, 0x28]), Buffer.from('b')])],
  ])('reads %s alike on both readers', async (_name, body) => {
    const plain = await render(PLAIN, body);
    const other = await render(OTHER, body);
    expect(plain.status).toBe(200);
    expect(plain.text).toBe(other.text);
  });

  it('drops the byte-order mark, so the first key is read', async () => {
    const res = await render(PLAIN, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('content=x')]));
    expect(res.body).toEqual({ result: 'success', msg: '', rendered: '<p>x</p>' });
  });

  it('refuses a body over the limit as before', async () => {
    const res = await render(PLAIN, `content=${'x'.repeat(1024 * 1024)}`);
    expect(res.status).toBe(413);
    expect(res.body.result).toBe('error');
  });
});
