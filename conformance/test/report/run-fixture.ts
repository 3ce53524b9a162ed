import type { Exchange, RunResult } from '../../src/model.js';

/**
 * A fixed run for the reporter tests: two passes, a failure, an error and a skip over four areas, and a
 * catalogue of seven rules of which two are covered. Bodies carry markup to prove the escaping.
 */
export const HOSTILE = '<script>alert("pwned")</script>';

const exchange = (over: Partial<Exchange>): Exchange => ({
  method: 'GET',
  path: '/api/v1/streams',
  as: 'member',
  params: {},
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: { result: 'success', msg: '' },
  ms: 3.4,
  curl: `curl -sS -X GET -u 'andrew@demo.teamchat.test:'"$KEY_member" 'http://127.0.0.1:9991/api/v1/streams'`,
  ...over,
});

export function fixtureRun(): RunResult {
  return {
    target: 'http://127.0.0.1:9991',
    featureLevel: 412,
    targetKind: 'mock',
    startedAt: '2026-01-05T09:00:00.000Z',
    ms: 1234,
    scenarios: [
      {
        id: 'channels/list-public',
        area: 'channels',
        title: 'a member lists the public channels',
        rules: ['R4.15-1'],
        tags: ['listing'],
        status: 'passed',
        checks: [{ rule: 'R4.15-1', ok: true, message: 'answered success', exchange: 0 }],
        exchanges: [exchange({ body: { result: 'success', msg: '', streams: [{ stream_id: 51, name: 'home' }] } })],
        at: 0,
        ms: 12,
      },
      {
        id: 'permissions/guest-cannot-subscribe',
        area: 'permissions',
        title: 'a guest cannot subscribe <b>others</b>',
        rules: ['R4.8-1', 'R4.8-2'],
        tags: [],
        status: 'failed',
        checks: [
          { rule: 'R4.8-2', ok: true, message: 'the channel list is unchanged' },
          { rule: 'R4.8-1', ok: false, message: 'expected 400 BAD_REQUEST: status 200, expected 400', exchange: 0 },
          {
            rule: null,
            ok: false,
            message: 'POST /api/v1/users/me/subscriptions → 200: does not match the OpenAPI response schema \u0007',
            exchange: 0,
          },
        ],
        exchanges: [
          exchange({
            method: 'POST',
            path: '/api/v1/users/me/subscriptions',
            as: 'guest',
            params: { subscriptions: '[{"name":"x"}]', principals: '[15]' },
            body: { result: 'success', msg: '', note: HOSTILE },
            ms: 8.1,
            curl: `curl -sS -X POST -u 'guest@demo.teamchat.test:'"$KEY_guest" --data-urlencode 'principals=[15]' 'http://127.0.0.1:9991/api/v1/users/me/subscriptions'`,
          }),
        ],
        at: 0,
        ms: 20,
      },
      {
        id: 'events/queue-expiry',
        area: 'events',
        title: 'an idle queue expires after ten minutes',
        rules: ['R6-1'],
        tags: ['slow'],
        status: 'skipped',
        reason: 'waits in real time: run with --slow',
        checks: [],
        exchanges: [],
        at: 3,
        ms: 0,
      },
      {
        id: 'topics/empty-topic',
        area: 'topics',
        title: 'the empty topic is shown by its display name',
        rules: ['R4.16-2'],
        tags: [],
        status: 'error',
        reason: 'could not set up: create channel failed: 500 <html>oops</html>',
        checks: [],
        exchanges: [exchange({ method: 'POST', path: '/api/v1/users/me/subscriptions', status: 500, body: '<html>oops</html>' })],
        at: 1,
        ms: 5,
      },
      {
        id: 'channels/update-name',
        area: 'channels',
        title: 'an administrator renames a channel',
        rules: ['R4.16-1'],
        tags: [],
        status: 'passed',
        checks: [{ rule: 'R4.16-1', ok: true, message: 'answered success', exchange: 0 }],
        exchanges: [
          exchange({
            method: 'PATCH',
            path: '/api/v1/streams/51',
            as: 'administrator',
            params: { new_name: 'renamed' },
            body: { result: 'success', msg: '', big: 'x'.repeat(30_000) },
          }),
        ],
        at: 5,
        ms: 9,
      },
    ],
    rules: [
      {
        id: 'R4.8-1',
        section: '4.8',
        text: 'Guests may not subscribe other users.',
        passed: [],
        failed: ['permissions/guest-cannot-subscribe'],
      },
      {
        id: 'R4.8-2',
        section: '4.8',
        text: 'A refused request changes nothing.',
        passed: [],
        failed: ['permissions/guest-cannot-subscribe'],
      },
      { id: 'R4.15-1', section: '4.15', text: 'Members see every public channel.', passed: ['channels/list-public'], failed: [] },
      { id: 'R4.16-1', section: '4.16', text: 'Administrators may rename channels.', passed: ['channels/update-name'], failed: [] },
      { id: 'R4.16-2', section: '4.16', text: 'The empty topic has a display name.', passed: [], failed: ['topics/empty-topic'] },
      { id: 'R6-1', section: '6', text: 'Idle queues expire after 600 seconds.', passed: [], failed: [] },
      { id: 'R9-1', section: '9', text: `Levels are integers ${HOSTILE}.`, passed: [], failed: [] },
    ],
    totals: { passed: 2, failed: 1, error: 1, skipped: 1 },
  };
}
