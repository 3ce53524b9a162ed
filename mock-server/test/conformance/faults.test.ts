import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../../conformance/src/catalogue.js';
import type { RuleDef, RunResult } from '../../../conformance/src/model.js';
import { ResponseSchemas } from '../../../conformance/src/openapi.js';
import { runScenarios, selectScenarios } from '../../../conformance/src/runner.js';
import { Target } from '../../../conformance/src/target.js';
import { SCENARIOS } from '../../../conformance/scenarios/index.js';
import type { MockServer } from '../../src/app.js';
import { faultyProxy, type Answer, type Fault } from '../helpers/faulty-proxy.js';
import { startTestServer } from '../helpers/test-server.js';

/**
 * The suite fails when the server is wrong: the mock behind a proxy that injects one
 * known fault at a time. Each fault must be reported by a failing scenario against the rule it breaks,
 * and the suite's other scenarios for those rules must notice nothing else. There is also one
 * fault of each kind a suite checking every rule once can still miss (length limits, stale reads,
 * leaked events and listings, per-role answers, list order, id types, level branches, ignored
 * parameters, derived values), each with the blind-spots scenario that must catch it.
 */

interface Case {
  name: string;
  /** The rules whose scenarios run through the faulty proxy. */
  rules: string[];
  /** A failing check must name one of these rules. */
  reportedAs: string[];
  /** A scenario that must be among the failing ones (the one written to catch this kind of fault). */
  caughtBy?: string;
  /** A fresh fault for one run (some remember what they saw). */
  fault: () => Fault;
}

const path = (req: IncomingMessage) => (req.url ?? '').split('?')[0]!;

const CASES: Case[] = [
  {
    name: 'a wrong code: NOT_FOUND answered as BAD_REQUEST for an unknown navigation view',
    rules: ['R4.12-3', 'R7-4'],
    reportedAs: ['R4.12-3', 'R7-4'],
    fault: () => (req, a) =>
      path(req).startsWith('/api/v1/navigation_views/') && a.body.code === 'NOT_FOUND'
        ? { status: 400, body: { ...a.body, code: 'BAD_REQUEST' } }
        : a,
  },
  {
    name: 'a missing field: creating drafts answers without ids',
    rules: ['R4.6-2'],
    reportedAs: ['R4.6-2'],
    fault: () => (req, a) => {
      if (req.method !== 'POST' || path(req) !== '/api/v1/drafts' || a.body.result !== 'success') return a;
      const { ids: _ids, ...rest } = a.body;
      return { status: a.status, body: rest };
    },
  },
  {
    name: 'a permission that lets the wrong role through: a non-administrator updates a user',
    rules: ['R4.7-1'],
    reportedAs: ['R4.7-1', 'R4.7-11', 'R5-2'],
    fault: () => (req, a) =>
      req.method === 'PATCH' && /^\/api\/v1\/users\/\d+$/.test(path(req)) && a.body.msg === 'Insufficient permission'
        ? { status: 200, body: { result: 'success', msg: '' } }
        : a,
  },
  {
    name: 'a queue that never expires: a collected queue still answers',
    rules: ['R6-2', 'R6-3', 'R3-10'],
    reportedAs: ['R6-2', 'R6-3', 'R3-10'],
    fault: () => (req, a) =>
      path(req) === '/api/v1/events' && a.body.code === 'BAD_EVENT_QUEUE_ID'
        ? { status: 200, body: { result: 'success', msg: '', events: [] } }
        : a,
  },
  // One fault of each kind a suite checking each rule once could miss.
  {
    name: 'a length limit: a status_text of 61 characters is accepted',
    caughtBy: 'blind-spots/admin-status-text-61',
    rules: ['R8-1'],
    reportedAs: ['R8-1', 'R4.5-4'],
    fault: () => (req, a, sent) =>
      /^\/api\/v1\/users\/(\d+|me)\/status$/.test(path(req)) && [...(sent.params.get('status_text') ?? '')].length === 61
        ? { status: 200, body: { result: 'success', msg: '' } }
        : a,
  },
  {
    name: 'a length limit: register advertises max_topic_length one above what is kept',
    caughtBy: 'blind-spots/topic-at-max-length',
    rules: ['R1-10'],
    reportedAs: ['R1-10'],
    fault: () => (req, a) =>
      path(req) === '/api/v1/register' && typeof a.body.max_topic_length === 'number'
        ? { ...a, body: { ...a.body, max_topic_length: a.body.max_topic_length + 1 } }
        : a,
  },
  {
    name: 'a stale read: a channel read by ID answers as it did the first time',
    caughtBy: 'blind-spots/read-back-channel-description',
    rules: ['R4.16-6'],
    reportedAs: ['R4.16-6'],
    fault: () => {
      const first = new Map<string, Answer>();
      return (req, a, sent) => {
        if (req.method !== 'GET' || !/^\/api\/v1\/streams\/\d+$/.test(path(req))) return a;
        const key = `${sent.email} ${req.url}`;
        if (!first.has(key)) first.set(key, a);
        return first.get(key)!;
      };
    },
  },
  {
    name: 'an event leak: every message event is also put in every other queue',
    caughtBy: 'blind-spots/private-channel-message-events-subscribers-only',
    rules: ['R4.21-9', 'R6-8'],
    reportedAs: ['R4.21-9', 'R6-8'],
    fault: () => {
      const seen: Record<string, unknown>[] = [];
      return (req, a) => {
        if (path(req) !== '/api/v1/events' || req.method !== 'GET' || !Array.isArray(a.body.events)) return a;
        const events = a.body.events as Record<string, unknown>[];
        const idOf = (e: Record<string, unknown>) => (e.message as { id?: number } | undefined)?.id;
        for (const e of events) if (e.type === 'message' && !seen.some((s) => idOf(s) === idOf(e))) seen.push(e);
        const extra = seen.filter((s) => !events.some((e) => e.type === 'message' && idOf(e) === idOf(s)));
        const last = events.reduce((n, e) => Math.max(n, typeof e.id === 'number' ? e.id : -1), -1);
        return { ...a, body: { ...a.body, events: [...events, ...extra.map((e, i) => ({ ...e, id: last + 1 + i }))] } };
      };
    },
  },
  {
    name: "an event leak: a user's drafts events also go to every other user's queues",
    caughtBy: 'blind-spots/drafts-events-own-clients-only',
    rules: ['R6-6'],
    reportedAs: ['R6-6', 'R4.6-3'],
    fault: () => {
      const seen: Record<string, unknown>[] = [];
      return (req, a) => {
        if (path(req) !== '/api/v1/events' || req.method !== 'GET' || !Array.isArray(a.body.events)) return a;
        const events = a.body.events as Record<string, unknown>[];
        // Events compared without their queue-specific id.
        const same = (x: Record<string, unknown>, y: Record<string, unknown>) =>
          JSON.stringify({ ...x, id: 0 }) === JSON.stringify({ ...y, id: 0 });
        for (const e of events) if (e.type === 'drafts' && !seen.some((x) => same(x, e))) seen.push(e);
        const extra = seen.filter((x) => !events.some((e) => same(e, x)));
        const last = events.reduce((n, e) => Math.max(n, typeof e.id === 'number' ? e.id : -1), -1);
        return { ...a, body: { ...a.body, events: [...events, ...extra.map((e, i) => ({ ...e, id: last + 1 + i }))] } };
      };
    },
  },
  {
    name: 'a per-role error: the organization owner is refused an administrator-only operation',
    caughtBy: 'blind-spots/owner-may-update-user',
    rules: ['R4.7-1'],
    reportedAs: ['R4.7-1', 'R5-2'],
    fault: () => (req, a, sent) =>
      req.method === 'PATCH' && /^\/api\/v1\/users\/\d+$/.test(path(req)) && sent.email.split('@')[0] === ownerName
        ? { status: 400, body: { result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' } }
        : a,
  },
  {
    name: 'a list order: the topics of a channel oldest first',
    caughtBy: 'blind-spots/topics-most-recent-first',
    rules: ['R4.11-2'],
    reportedAs: ['R4.11-2'],
    fault: () => (req, a) =>
      /^\/api\/v1\/users\/me\/\d+\/topics$/.test(path(req)) && Array.isArray(a.body.topics)
        ? { ...a, body: { ...a.body, topics: [...(a.body.topics as unknown[])].reverse() } }
        : a,
  },
  {
    name: 'an id type: reminder_id answered as a string',
    caughtBy: 'blind-spots/integer-ids-reminder',
    rules: ['R4.19-3'],
    reportedAs: ['R4.19-3'],
    fault: () => (req, a) =>
      path(req) === '/api/v1/reminders' && typeof a.body.reminder_id === 'number'
        ? { ...a, body: { ...a.body, reminder_id: String(a.body.reminder_id) } }
        : a,
  },
  {
    name: "a feature-level branch: the 'channel' type value refused from level 248",
    rules: ['R9-5'],
    reportedAs: ['R9-5'],
    fault: () => (req, a, sent) =>
      path(req).startsWith('/api/v1/scheduled_messages') && sent.params.get('type') === 'channel'
        ? { status: 400, body: { result: 'error', msg: 'Invalid type', code: 'BAD_REQUEST' } }
        : a,
  },
  {
    name: 'ignored_parameters_unsupported dropped by one operation (editing a saved snippet)',
    caughtBy: 'blind-spots/ignored-parameters-4-14',
    rules: ['R1-4'],
    reportedAs: ['R1-4'],
    fault: () => (req, a) => {
      if (req.method !== 'PATCH' || !path(req).startsWith('/api/v1/saved_snippets/')) return a;
      const { ignored_parameters_unsupported: _dropped, ...rest } = a.body;
      return { ...a, body: rest };
    },
  },
  {
    name: 'a derived value: subscriber_count one more than the subscribers',
    caughtBy: 'blind-spots/subscriber-count-equals-subscribers',
    rules: ['R2.3-8'],
    reportedAs: ['R2.3-8'],
    fault: () => (req, a) => {
      if (path(req) !== '/api/v1/register' || !Array.isArray(a.body.subscriptions)) return a;
      const subscriptions = (a.body.subscriptions as Record<string, unknown>[]).map((s) =>
        typeof s.subscriber_count === 'number' ? { ...s, subscriber_count: s.subscriber_count + 1 } : s,
      );
      return { ...a, body: { ...a.body, subscriptions } };
    },
  },
  {
    name: 'a derived value: raw_content is the rendered HTML',
    caughtBy: 'blind-spots/raw-content-is-the-markdown-sent',
    rules: ['R4.3-4'],
    reportedAs: ['R4.3-4'],
    fault: () => (req, a) => {
      const html = (a.body.message as { content?: unknown } | undefined)?.content;
      return /^\/api\/v1\/messages\/\d+$/.test(path(req)) && typeof html === 'string' && html.startsWith('<')
        ? { ...a, body: { ...a.body, raw_content: html } }
        : a;
    },
  },
  {
    name: "a listing leak: a private channel someone listed is listed for everyone (a guest's include_all too)",
    caughtBy: 'blind-spots/private-channel-absent-from-outsider-listings',
    rules: ['R4.15-7'],
    reportedAs: ['R4.15-7', 'R4.15-1'],
    fault: () => {
      const hidden = new Map<unknown, Record<string, unknown>>();
      return (req, a) => {
        if (req.method !== 'GET' || path(req) !== '/api/v1/streams' || !Array.isArray(a.body.streams)) return a;
        const streams = a.body.streams as Record<string, unknown>[];
        for (const s of streams) if (s.invite_only === true) hidden.set(s.stream_id, s);
        const missing = [...hidden.values()].filter((h) => !streams.some((s) => s.stream_id === h.stream_id));
        return { ...a, body: { ...a.body, streams: [...streams, ...missing] } };
      };
    },
  },
];

let mock: MockServer;
/** The local part of the world owner's e-mail (the same in every realm the mock makes from the fixture). */
let ownerName = '';
let catalogue: RuleDef[];
let schemas: ResponseSchemas;
beforeAll(async () => {
  mock = await startTestServer();
  ownerName = (await Target.connect(mock.url)).world.credentials.owner!.email.split('@')[0]!;
  catalogue = await loadCatalogue();
  schemas = await ResponseSchemas.load();
});
afterAll(() => mock.close());

async function runThrough(fault: Fault, rules: string[]): Promise<RunResult> {
  const proxy = await faultyProxy(mock.url, fault);
  try {
    const target = await Target.connect(proxy.url);
    const scenarios = selectScenarios(SCENARIOS, { rules });
    expect(scenarios.length, `scenarios checking ${rules.join(', ')}`).toBeGreaterThan(0);
    return await runScenarios({ target, scenarios, catalogue, schemas, workers: 2, slow: false, allowDestructive: false });
  } finally {
    await proxy.close();
  }
}

describe('the suite reports a faulty server against the rule it breaks', () => {
  it('passes the same scenarios through a proxy that changes nothing', async () => {
    const run = await runThrough(
      (_req, a) => a,
      CASES.flatMap((c) => c.rules),
    );
    expect(
      run.totals.failed + run.totals.error,
      JSON.stringify(run.scenarios.filter((s) => s.status !== 'passed').map((s) => [s.id, s.reason])),
    ).toBe(0);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const run = await runThrough(c.fault(), c.rules);
    const failing = run.scenarios.filter((s) => s.status === 'failed');
    const reported = failing.flatMap((s) => s.checks.filter((k) => !k.ok).map((k) => k.rule));
    expect(failing.length, 'some scenario fails').toBeGreaterThan(0);
    expect(
      reported.some((rule) => rule !== null && c.reportedAs.includes(rule)),
      `failing checks name ${JSON.stringify(reported)}`,
    ).toBe(true);
    if (c.caughtBy)
      expect(
        failing.map((s) => s.id),
        'the scenario written for this fault fails',
      ).toContain(c.caughtBy);
    const uncovered = run.rules.filter((r) => c.reportedAs.includes(r.id) && r.failed.length > 0);
    expect(uncovered.length, 'the rule shows as failing in the coverage').toBeGreaterThan(0);
  });
});
