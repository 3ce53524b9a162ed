import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { until, useClientProcesses } from '../helpers/client-process.js';
import { call, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * Recipes (README "Testing your client's failure handling"): the Python bindings (pip package `zulip`, unmodified)
 * against the mock's fault rules and restarts. What they do on a bad day, from their sources (zulip 0.9.1,
 * `Client.do_api_query`, `call_on_each_event`) and asserted here: a 5xx answer is retried after 1 s (up to 10
 * times, adding dont_block=true), invisibly to the caller; any other JSON answer is returned as it is, a 429 too
 * (no wait for Retry-After, no retry); call_on_each_event registers a new queue after BAD_EVENT_QUEUE_ID.
 *
 * The bindings are not on npm and CI cannot reach PyPI, so these tests run where an interpreter can
 * `import zulip`: TEAMCHAT_PYTHON names it (default python3), TEAMCHAT_PYTHONPATH is added as its PYTHONPATH
 * (e.g. a checkout of github.com/zulip/python-zulip-api: TEAMCHAT_PYTHONPATH=<checkout>/zulip). Elsewhere they
 * are skipped, and the test names say why.
 */
const PYTHON = process.env.TEAMCHAT_PYTHON || 'python3';
const PYTHON_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  ...(process.env.TEAMCHAT_PYTHONPATH ? { PYTHONPATH: process.env.TEAMCHAT_PYTHONPATH } : {}),
  // requests honours proxy variables; the mock is on loopback.
  NO_PROXY: '127.0.0.1,localhost',
  no_proxy: '127.0.0.1,localhost',
};
const probe = spawnSync(PYTHON, ['-c', 'import zulip; print(zulip.__version__)'], { env: PYTHON_ENV, encoding: 'utf8', timeout: 20_000 });
const version = probe.status === 0 ? probe.stdout.trim() : null;
const SCRIPT = fileURLToPath(new URL('./python/recipes.py', import.meta.url));

let mock: MockServer;
let realm: string;
let member: Who & { user_id: number };
let owner: Who & { user_id: number };
let channel: string;

const spawnClient = useClientProcesses();
const python = (who: Who, command: string, argument: string) =>
  spawnClient(PYTHON, [SCRIPT, command, argument], {
    ...PYTHON_ENV,
    TEAMCHAT_SITE: mock.url,
    TEAMCHAT_EMAIL: who.email,
    TEAMCHAT_API_KEY: who.api_key,
  });
const journal = (filter: Parameters<MockServer['requests']>[0]) => mock.requests(filter, realm);

describe.skipIf(!version)(
  version
    ? `Python bindings (zulip ${version})`
    : `Python bindings: skipped, ${PYTHON} cannot import zulip (set TEAMCHAT_PYTHON, TEAMCHAT_PYTHONPATH)`,
  () => {
    beforeAll(async () => void (mock = await startTestServer()));
    afterAll(() => mock?.close());
    beforeEach(async () => {
      // A realm per test: its own rules, queues and journal.
      const created = await mock.control.createRealm({});
      realm = created.realm_id;
      member = created.world.credentials.member;
      owner = created.world.credentials.owner;
      channel = created.world.channels.public.name;
    });

    // Each test starts an interpreter: generous bounds for a busy machine.
    it('call_on_each_event after a restart registers a new queue and receives the next message', { timeout: 30_000 }, async () => {
      const client = python(member, 'events', 'after the restart');
      await until(() => mock.control.queues(realm).some((q) => q.user_id === member.user_id && q.waiting), 'the first long-poll', 15_000);
      mock.control.restartQueues(realm, { user_id: member.user_id });
      const registered = () => journal({ operation: 'register-queue', user: member.email }).filter((r) => r.status === 200);
      await until(() => registered().length === 2 || undefined, 'the second register');
      const message = { type: 'private', to: JSON.stringify([member.user_id]), content: 'after the restart' };
      expect((await call(mock, 'POST', '/api/v1/messages', { as: owner, form: message })).status).toBe(200);
      expect(await client.exited()).toBe(0);
      expect(client.lines).toMatchObject([{ type: 'message', message: { content: 'after the restart' } }]);
      const polls = journal({ operation: 'get-events', user: member.email });
      // The dropped queue's next poll was refused (400 BAD_EVENT_QUEUE_ID); every poll after it is on the new queue.
      const refused = polls.findIndex((r) => r.status === 400);
      expect(polls[refused]!.params.queue_id).toBe(polls[0]!.params.queue_id);
      const later = polls.slice(refused + 1).map((r) => r.params.queue_id);
      expect(later).not.toHaveLength(0);
      expect(later).not.toContain(polls[0]!.params.queue_id);
      expect(polls[0]!.headers['user-agent']).toMatch(/^ZulipPython\//);
    });

    it(
      'send_message through a 502 rule for the next 2 sends: retried after 1 s each, it succeeds (3 requests)',
      { timeout: 30_000 },
      async () => {
        await mock.faults.add({ operation: 'send-message', times: 2, effect: { type: 'preset', preset: 'bad_gateway' } }, realm);
        const client = python(
          member,
          'send',
          JSON.stringify({ type: 'stream', to: channel, topic: 'proxy', content: 'through the proxy' }),
        );
        expect(await client.exited()).toBe(0);
        expect(client.lines).toMatchObject([{ result: 'success', id: expect.any(Number) }]);
        const sent = journal({ operation: 'send-message' });
        expect(sent.map((r) => [r.status, r.injected])).toEqual([
          [502, 'bad_gateway'],
          [502, 'bad_gateway'],
          [200, null],
        ]);
        // Its retries add dont_block=true (meant for long-polls; the mock ignores it on a send, as the reference does).
        expect(sent.map((r) => r.params.dont_block)).toEqual([undefined, 'true', 'true']);
        expect(sent.every((r) => r.params.content === 'through the proxy')).toBe(true);
      },
    );

    it('a rate_limit rule: send_message returns the 429 answer to the caller (no wait, no retry)', { timeout: 30_000 }, async () => {
      await mock.faults.add(
        { operation: 'send-message', times: 1, effect: { type: 'preset', preset: 'rate_limit', retry_after: 7 } },
        realm,
      );
      const client = python(member, 'send', JSON.stringify({ type: 'stream', to: channel, topic: 'limits', content: 'too soon' }));
      expect(await client.exited()).toBe(0);
      expect(client.lines).toEqual([{ result: 'error', code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit', 'retry-after': 7 }]);
      expect(journal({ operation: 'send-message' }).map((r) => [r.status, r.injected])).toEqual([[429, 'rate_limit']]);
    });
  },
);
