import { describe, expect, it } from 'vitest';
import { error, freshRealm, useTestRealm, type Cred } from '../helpers/harness.js';
import { call } from '../helpers/test-server.js';

/**
 * The reference server worded its texts with "stream" below feature level 255 (`channel_texts`): a realm below
 * that level answers the older text, with the same code and extra fields; one at or above it today's.
 */
const env = useTestRealm({ realm: 'demo' });

const CASES: [string, (who: Cred) => Promise<Record<string, unknown>>, Record<string, unknown>, Record<string, unknown>][] = [
  [
    'an unknown channel ID when sending',
    async (who) =>
      (await call(env.server, 'POST', '/api/v1/messages', { as: who, form: { type: 'stream', to: '999', topic: 't', content: 'x' } })).body,
    error("Stream with ID '999' does not exist", 'STREAM_DOES_NOT_EXIST', { stream_id: 999 }),
    error("Channel with ID '999' does not exist", 'STREAM_DOES_NOT_EXIST', { stream_id: 999 }),
  ],
  [
    'an unknown channel name when sending',
    async (who) =>
      (await call(env.server, 'POST', '/api/v1/messages', { as: who, form: { type: 'stream', to: 'nowhere', topic: 't', content: 'x' } }))
        .body,
    error("Stream 'nowhere' does not exist", 'STREAM_DOES_NOT_EXIST', { stream: 'nowhere' }),
    error("Channel 'nowhere' does not exist", 'STREAM_DOES_NOT_EXIST', { stream: 'nowhere' }),
  ],
  [
    'an unknown channel name in get-stream-id',
    async (who) => (await call(env.server, 'GET', '/api/v1/get_stream_id', { as: who, query: { stream: 'nowhere' } })).body,
    error("Invalid stream name 'nowhere'"),
    error("Invalid channel name 'nowhere'"),
  ],
  [
    'an unknown channel ID in get-stream',
    async (who) => (await call(env.server, 'GET', '/api/v1/streams/999', { as: who })).body,
    error('Invalid stream ID'),
    error('Invalid channel ID'),
  ],
];

describe('error texts by feature level (channel_texts, 255)', () => {
  it.each(CASES)('%s says "Stream" below level 255 and "Channel" from it', async (_what, ask, before, from) => {
    const old = await freshRealm(env.server, 254);
    const current = await freshRealm(env.server, 255);
    expect(await ask(old.who.member!)).toEqual(before);
    expect(await ask(current.who.member!)).toEqual(from);
  });
});
