import { createMockServer } from 'teamchat-kit';
import { expect, it } from 'vitest';
import { sendWithRetry } from './send-with-retry.js'; // the app's code under test

it('waits out a rate limit, then sends the message once more', async () => {
  const mock = await createMockServer({ port: 0, statePath: null });
  try {
    await mock.faults.rateLimit({ operation: 'send-message', retryAfter: 3, times: 1 }); // the next send: 429
    const { email, api_key } = mock.control.world('demo').credentials.member;
    const waited: number[] = []; // the app's sleep, recorded instead of slept
    const message = { type: 'stream', to: 'home', topic: 'retry', content: 'hello' };
    const answer = await sendWithRetry({ site: mock.url, email, api_key }, message, async (s) => void waited.push(s));
    expect([answer.result, waited]).toEqual(['success', [3]]); // it waited Retry-After, once
    expect(mock.requests({ operation: 'send-message' }).map((r) => r.status)).toEqual([429, 200]);
    mock.expectRequest({ operation: 'send-message', params: { content: 'hello' }, status: 200 });
  } finally {
    await mock.close();
  }
});
