import type { ExploreFinding, ExploreResult, RanStep, Step } from '../../src/explore/types.js';
import { EVENTS_KEPT } from '../../src/explore/report/text.js';

/**
 * An explore result with one finding, as the reports get it: two numbered steps (one wrong on purpose), a busy
 * step with more events than a report keeps, and what a hostile target could answer (markup in bodies and in
 * the finding's message), which every report must show as text.
 */
export const move: Step = {
  kind: 'move-topic',
  actor: 'member',
  operation: 'update-message',
  method: 'PATCH',
  path: '/api/v1/messages/{m1}',
  params: { topic: 'beta', propagate_mode: 'change_all', extra: [{ $ref: 'c2' }, 3, null, true] },
  expect: 'either',
};
export const send: Step = {
  kind: 'send-channel-message',
  actor: 'guest',
  operation: 'send-message',
  method: 'POST',
  path: '/api/v1/messages',
  params: { type: 'stream', to: { $ref: 'c1' }, topic: 'alpha', content: '<script>alert(1)</script>' },
  invalid: { what: 'a channel it is not in', status: 400, code: 'BAD_REQUEST' },
  expect: 'success',
  binds: 'm',
};
const ran = (n: number, step: Step, events: RanStep['events']): RanStep => ({
  n,
  step,
  exchange: {
    method: step.method,
    path: step.path.replace('{m1}', '41'),
    as: step.actor,
    params: { topic: 'beta' },
    status: 200,
    headers: {},
    body: { result: 'success', msg: '<img src=x onerror=alert(2)>' },
    ms: 3,
    curl: `curl -sS -X ${step.method} -u 'a@example.test:'"$KEY_${step.actor}" 'http://127.0.0.1:1/api/v1/messages'`,
  },
  events,
});
export const many = Array.from({ length: EVENTS_KEPT + 7 }, (_, i) => ({
  type: 'message',
  id: i,
  message: { id: 100 + i, stream_id: 9, subject: 'beta' },
}));
export const finding: ExploreFinding = {
  rule: 'explore/events-snapshot',
  message: "member's state differs at unread_msgs.streams[0] </failure>",
  actor: 'member',
  details: { differences: [{ path: 'unread_msgs', expected: 1, actual: 2 }] },
  seed: 42,
  foundAfter: 37,
  steps: [ran(1, send, { member: many }), ran(2, move, { member: [{ type: 'update_message', message_id: 41, subject: 'beta' }] })],
  replayed: true,
};
export const result: ExploreResult = {
  target: 'http://127.0.0.1:1',
  featureLevel: 412,
  targetKind: 'mock',
  startedAt: '2026-01-01T00:00:00.000Z',
  ms: 2500,
  seed: 42,
  tiers: ['spec', 'companion'],
  actors: [
    { name: 'member', legacy: false },
    { name: 'guest', legacy: true },
  ],
  sequences: 3,
  steps: 37,
  stepsPerSecond: 14.8,
  oracles: {
    'explore/answer': 37,
    'explore/events-snapshot': 74,
    'explore/read-your-writes': 12,
    'explore/no-leaks': 74,
    'explore/counters': 36,
  },
  operations: { 'send-channel-message': 20, 'move-topic': 17 },
  findings: [finding],
};
