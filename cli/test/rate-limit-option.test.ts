import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parseRateLimit } from '../../mock-server/src/config/config.js';
import { spawnServer, stop } from '../../mock-server/test/helpers/spawn-server.js';

/** `teamchat serve --rate-limit [N/S]`: its value as the server reads it, and the bare option's reference default. */
describe('--rate-limit', () => {
  it.each([
    ['200/60', { requests: 200, seconds: 60 }],
    ['20/2', { requests: 20, seconds: 2 }],
    [' 1/86400 ', { requests: 1, seconds: 86_400 }],
    ['10000/1', { requests: 10_000, seconds: 1 }],
  ])('reads %j as %j', (text, setting) => {
    expect(parseRateLimit(text)).toEqual(setting);
  });

  it.each([
    ['200', 'A rate limit is N/S'],
    ['200/60/1', 'A rate limit is N/S'],
    ['-1/60', 'A rate limit is N/S'],
    ['1.5/60', 'A rate limit is N/S'],
    ['10001/60', "The rate limit's requests must be a whole number from 1 to 10000."],
    ['5/86401', "The rate limit's seconds must be a whole number from 1 to 86400."],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseRateLimit(text)).toThrow(message);
  });

  it("without a value limits every user to the reference's 200 requests per 60 seconds", { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(`${tmpdir()}/teamchat-rate-`);
    const server = await spawnServer(['--in-memory', '--zuliprc-dir', dir, '--log-level', 'silent', '--rate-limit']);
    try {
      const [, email, key] = /try: curl -u ([^:\s]+):(\S+) /.exec(server.output())!;
      const answer = await fetch(`${server.url}/api/v1/users/me`, {
        headers: { authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` },
      });
      await answer.text();
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('200');
      expect(answer.headers.get('x-ratelimit-remaining')).toBe('199');
    } finally {
      await stop(server);
      await rm(dir, { recursive: true, force: true });
    }
  });
});
