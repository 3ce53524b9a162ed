import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { MAX_SNAPSHOT_NAME, MAX_SNAPSHOTS_PER_REALM } from '../../src/control/snapshots.js';
import { MAX_ALERT_WORDS } from '../../src/domain/compat-lookups/alert-words.js';
import { MAX_JSON_DEPTH } from '../../src/contract/json-depth.js';
import { MAX_NARROW_TERMS } from '../../src/domain/messages/narrow.js';
import { MAX_MESSAGE_LENGTH } from '../../src/domain/messages/send.js';
import { call, credentials, startTestServer } from '../helpers/test-server.js';

/**
 * Caps on what one request can make the mock hold or walk: snapshots per realm and their names, the
 * nesting of JSON parameters and of injected events, an injected event's size, the text one render
 * reads, alert words per user, an event queue's narrow. Each is a 400 that changes nothing (render
 * reads only what a message keeps); the server answers as before afterwards.
 */

let server: MockServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Control calls as JSON: what every mutating control call accepts. */
const json = (method: string, path: string, body: Record<string, unknown> | string = {}) =>
  call(server, method, `/__mock${path}`, {
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
/** JSON text of `levels` nested lists (written as text: JSON.stringify itself overflows at 20,000). */
const nested = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

describe('snapshots', () => {
  it(`at most ${MAX_SNAPSHOTS_PER_REALM} per realm, names of at most ${MAX_SNAPSHOT_NAME} characters`, async () => {
    const id = ((await json('POST', '/realms')).body as { realm_id: string }).realm_id;
    const long = await json('POST', `/realms/${id}/snapshots`, { name: 'n'.repeat(MAX_SNAPSHOT_NAME + 1) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'BAD_REQUEST', msg: `Snapshot name is too long (limit: ${MAX_SNAPSHOT_NAME} characters).` });
    expect((await json('POST', `/realms/${id}/snapshots`, { name: 'n'.repeat(MAX_SNAPSHOT_NAME) })).status).toBe(200);
    for (let i = 1; i < MAX_SNAPSHOTS_PER_REALM; i++) {
      expect((await json('POST', `/realms/${id}/snapshots`, { name: `s${i}` })).status).toBe(200);
    }
    const over = await json('POST', `/realms/${id}/snapshots`, { name: 'one-more' });
    expect(over.status).toBe(400);
    expect(over.body.msg).toBe(
      `Too many snapshots of this realm (limit: ${MAX_SNAPSHOTS_PER_REALM}). Delete one you no longer need (DELETE /__mock/realms/{id}/snapshots/{name}).`,
    );
    // A known name is replaced, not counted again; a deleted one makes room; other realms have their own.
    expect((await json('POST', `/realms/${id}/snapshots`, { name: 's1' })).status).toBe(200);
    expect((await json('DELETE', `/realms/${id}/snapshots/s1`)).status).toBe(200);
    expect((await json('POST', `/realms/${id}/snapshots`, { name: 'one-more' })).status).toBe(200);
    const names = (await call(server, 'GET', `/__mock/realms/${id}/snapshots`)).body.snapshots as string[];
    expect(names).toHaveLength(MAX_SNAPSHOTS_PER_REALM);
    expect(names).toContain('one-more');
    expect((await json('POST', '/realms/demo/snapshots', { name: 'one-more' })).status).toBe(200);
  });
});

describe('JSON nesting', () => {
  const member = () => credentials(server).member!;
  const narrow = (value: string) =>
    call(server, 'GET', '/api/v1/messages', { as: member(), query: { anchor: 'newest', num_before: '0', num_after: '0', narrow: value } });

  it(`a JSON parameter nested deeper than ${MAX_JSON_DEPTH} levels is a 400 naming it`, async () => {
    const deep = await narrow(nested(MAX_JSON_DEPTH + 1));
    expect(deep.status).toBe(400);
    expect(deep.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: `narrow is nested too deeply (limit: ${MAX_JSON_DEPTH} levels).`,
    });
    // 20,000 levels (in a body: too long for a query string): refused the same way, nothing walks it recursively.
    const form = { anchor: 'newest', num_before: '1', num_after: '0', op: 'add', flag: 'read', narrow: nested(20_000) };
    const deeper = await call(server, 'POST', '/api/v1/messages/flags/narrow', { as: member(), form });
    expect(deeper.body.msg).toBe(`narrow is nested too deeply (limit: ${MAX_JSON_DEPTH} levels).`);
    // At the limit the value is read as usual (and refused for its shape).
    expect((await narrow(nested(MAX_JSON_DEPTH))).body.msg).toBe('Invalid narrow[0]: Value error, element is not a string pair');
  });

  it('an injected event nested too deeply, or too large, is refused and nothing is delivered', async () => {
    const before = server.context.queues.size;
    const deep = await json('POST', '/realms/demo/events', `{"event":{"type":"custom","data":${nested(20_000)}}}`);
    expect(deep.status).toBe(400);
    // The control API refuses the whole body before the event is looked at (the programmatic API names `event`).
    expect(deep.body.msg).toBe(`The request body is nested too deeply (limit: ${MAX_JSON_DEPTH} levels).`);
    await expect(server.control.injectEvent('demo', JSON.parse(`{"type":"custom","data":${nested(200)}}`), undefined)).rejects.toThrow(
      `event is nested too deeply (limit: ${MAX_JSON_DEPTH} levels).`,
    );
    const big = await json('POST', '/realms/demo/events', { event: { type: 'custom', data: 'x'.repeat(1024 * 1024) } });
    expect(big.status).toBe(400);
    expect(big.body.msg).toMatch(/^event is too large \(limit: \d+ characters of JSON\)\.$/);
    const fine = await json('POST', '/realms/demo/events', `{"event":{"type":"custom","data":${nested(10)}}}`);
    expect(fine.status).toBe(200);
    expect(server.context.queues.size).toBe(before);
    expect((await call(server, 'GET', '/__mock/realms/demo/queues')).status).toBe(200);
  });
});

describe('work one API request can buy', () => {
  const member = () => credentials(server).member!;

  it(`render-message renders what a sent message keeps: the first ${MAX_MESSAGE_LENGTH} characters`, async () => {
    const render = (content: string) => call(server, 'POST', '/api/v1/messages/render', { as: member(), form: { content } });
    const cut = await render(`${'a'.repeat(MAX_MESSAGE_LENGTH)}**b**`);
    expect(cut.body.rendered).toBe(`<p>${'a'.repeat(MAX_MESSAGE_LENGTH)}</p>`);
    // Characters, not UTF-16 units: an astral letter counts once.
    const astral = await render('𝒜'.repeat(MAX_MESSAGE_LENGTH + 1));
    expect(astral.body.rendered).toBe(`<p>${'𝒜'.repeat(MAX_MESSAGE_LENGTH)}</p>`);
    expect((await render('**b**')).body.rendered).toBe('<p><strong>b</strong></p>');
  });

  it(`a user holds at most ${MAX_ALERT_WORDS} alert words; the request beyond changes nothing`, async () => {
    const add = (words: string[]) =>
      call(server, 'POST', '/api/v1/users/me/alert_words', { as: member(), form: { alert_words: JSON.stringify(words) } });
    const words = Array.from({ length: MAX_ALERT_WORDS }, (_, i) => `word${i}`);
    expect((await add(words)).status).toBe(200);
    // Words already held do not count again.
    expect((await add(['WORD1', 'word2'])).status).toBe(200);
    const over = await add(['one more']);
    expect(over.status).toBe(400);
    expect(over.body.msg).toBe(`Too many alert words (limit: ${MAX_ALERT_WORDS}). Remove some first.`);
    const listed = await call(server, 'GET', '/api/v1/users/me/alert_words', { as: member() });
    expect(listed.body.alert_words).toEqual(words);
  });

  it(`an event queue's narrow has at most ${MAX_NARROW_TERMS} terms`, async () => {
    const register = (n: number) =>
      call(server, 'POST', '/api/v1/register', {
        as: member(),
        form: { narrow: JSON.stringify(Array.from({ length: n }, () => ['is', 'private'])) },
      });
    const over = await register(MAX_NARROW_TERMS + 1);
    expect(over.status).toBe(400);
    expect(over.body.msg).toBe(`Too many narrow terms (limit: ${MAX_NARROW_TERMS}).`);
    const ok = await register(MAX_NARROW_TERMS);
    expect(ok.status).toBe(200);
    expect((await call(server, 'DELETE', '/api/v1/events', { as: member(), form: { queue_id: ok.body.queue_id as string } })).status).toBe(
      200,
    );
  });
});
