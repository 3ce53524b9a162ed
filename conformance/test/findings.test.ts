import { describe, expect, it } from 'vitest';
import { attachFindings, causeOf, failingRules, fold, operationOf } from '../src/findings.js';
import type { Check, Exchange, ScenarioResult } from '../src/model.js';

const exchange = (method: string, path: string, status = 200): Exchange => ({
  method,
  path,
  as: 'member',
  user: 'andrew@demo.teamchat.test',
  params: {},
  status,
  headers: {},
  body: {},
  ms: 1,
  curl: `curl -sS -X ${method} -u 'andrew@demo.teamchat.test:'"$KEY_member" 'http://127.0.0.1:9/${path}'`,
});

/** The ambient schema check's message as the suite words it (ajv's words, or the judge's "is missing"). */
const schemaFailure = (x: Exchange, operation: string, errors: string): Check => ({
  rule: null,
  ok: false,
  message: `${x.method} ${x.path.split('?')[0]} → ${x.status}: does not match the OpenAPI response schema of ${operation} ${x.status}: ${errors}`,
  exchange: 0,
});

function scenario(id: string, exchanges: Exchange[], checks: Check[], over: Partial<ScenarioResult> = {}): ScenarioResult {
  return { id, area: id.split('/')[0]!, title: id, rules: [], tags: [], status: 'failed', checks, exchanges, at: 0, ms: 1, ...over };
}

/** Four scenarios broken by one field the server leaves out of channel objects, seen through three operations. */
function droppedField(): ScenarioResult[] {
  const list = exchange('GET', '/api/v1/streams');
  const one = exchange('GET', '/api/v1/streams/58');
  const subs = exchange('GET', '/api/v1/users/me/subscriptions');
  const missingIn = (x: Exchange, op: string, at: string) => schemaFailure(x, op, `${at} must have required property 'stream_id'`);
  return [
    scenario(
      'permissions/channel-list-guest',
      [list],
      [
        missingIn(list, 'get-streams', '/streams/0'),
        { rule: 'R4.15-3', ok: false, message: 'private_shared is listed', exchange: 0 },
        { rule: 'R4.15-3', ok: true, message: 'answered success', exchange: 0 },
      ],
    ),
    scenario(
      'permissions/channel-list-member',
      [list],
      [missingIn(list, 'get-streams', '/streams/3'), { rule: 'R4.15-3', ok: false, message: 'private_shared is listed', exchange: 0 }],
    ),
    scenario('errors/channel-get', [one], [missingIn(one, 'get-stream', '/stream')]),
    scenario(
      'errors/subscriptions',
      [subs],
      [
        // The judge's wording of the same field.
        schemaFailure(subs, 'get-subscriptions', '/subscriptions/0/stream_id is missing; /subscriptions/1/stream_id is missing'),
        { rule: 'R2.3-1', ok: false, message: 'subscription 12 has no stream_id' },
      ],
      { status: 'error', reason: 'could not set up: channel 58 has no topics_policy' },
    ),
    scenario('errors/passes', [list], [{ rule: 'R4.15-1', ok: true, message: 'answered success', exchange: 0 }], { status: 'passed' }),
  ];
}

describe('findings: one per cause', () => {
  it('makes a field left out of answers one finding, whatever the operation, request or check, with the scenarios it broke', () => {
    const scenarios = droppedField();
    const findings = attachFindings(scenarios);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      id: 'F1',
      kind: 'schema',
      title: 'answers lack the required field `stream_id`',
      scenarios: ['permissions/channel-list-guest', 'permissions/channel-list-member', 'errors/channel-get', 'errors/subscriptions'],
      // Four schema checks, and the three checks that followed from the missing field in those scenarios.
      checks: 7,
      example: { scenario: 'permissions/channel-list-guest', request: 'GET /api/v1/streams → 200' },
    });
    expect(findings[0]!.operations).toEqual([
      'GET /api/v1/streams (/streams/*/stream_id)',
      'GET /api/v1/streams/{id} (/stream/stream_id)',
      'GET /api/v1/users/me/subscriptions (/subscriptions/*/stream_id)',
    ]);
    // Every failed check and every broken scenario points at it; passing checks and scenarios do not.
    const failed = scenarios.flatMap((s) => s.checks.filter((c) => !c.ok));
    expect(failed.map((c) => c.finding)).toEqual(failed.map(() => 'F1'));
    expect(scenarios.flatMap((s) => s.checks.filter((c) => c.ok)).some((c) => c.finding)).toBe(false);
    expect(scenarios.map((s) => s.findings)).toEqual([['F1'], ['F1'], ['F1'], ['F1'], undefined]);
  });

  it('keeps a failure that also happens where answers match the schema as a cause of its own', () => {
    const scenarios = droppedField();
    const list = exchange('GET', '/api/v1/streams');
    scenarios.push(
      scenario('errors/sound-answers', [list], [{ rule: 'R4.15-3', ok: false, message: 'private_shared is listed', exchange: 0 }]),
    );
    const findings = attachFindings(scenarios);
    expect(findings.map((f) => [f.title, f.scenarios.length])).toEqual([
      ['answers lack the required field `stream_id`', 4],
      ['private_shared is listed', 3],
    ]);
  });

  it('folds IDs, numbers and the names a run makes up, and keeps rules and operations apart', () => {
    const x = (path: string) => exchange('GET', path);
    const check = (rule: string, message: string): Check => ({ rule, ok: false, message, exchange: 0 });
    const scenarios = [
      scenario('a/one', [x('/api/v1/messages/12')], [check('R6-9', 'message 12 of "tc-1a2b3c home 4" is missing')]),
      scenario('a/two', [x('/api/v1/messages/57')], [check('R6-9', 'message 57 of "tc-9f8e7d home 11" is missing')]),
      scenario('a/three', [x('/api/v1/messages/57')], [check('R6-8', 'message 57 of "tc-9f8e7d home 11" is missing')]),
      scenario('a/four', [x('/api/v1/streams/57')], [check('R6-9', 'message 57 of "tc-9f8e7d home 11" is missing')]),
    ];
    const findings = attachFindings(scenarios);
    expect(findings.map((f) => [f.rule, f.operations, f.scenarios])).toEqual([
      ['R6-9', ['GET /api/v1/messages/{id}'], ['a/one', 'a/two']],
      ['R6-8', ['GET /api/v1/messages/{id}'], ['a/three']],
      ['R6-9', ['GET /api/v1/streams/{id}'], ['a/four']],
    ]);
    // Told in the words of its first occurrence.
    expect(findings[0]!.title).toBe('message 12 of "tc-1a2b3c home 4" is missing');
  });

  it('makes answers that are not the envelope one finding across operations, ahead of what their schemas miss', () => {
    const render = exchange('POST', '/api/v1/messages/render', 404);
    const me = exchange('GET', '/api/v1/users/me');
    const scenarios = [
      scenario(
        'conventions/success-envelope',
        [render],
        [
          { rule: 'R1-2', ok: false, message: 'POST /api/v1/messages/render → 404: result is undefined', exchange: 0 },
          { rule: 'R1-2', ok: false, message: 'POST /api/v1/messages/render → 404: msg is missing or not a string', exchange: 0 },
          { rule: 'R1-3', ok: false, message: 'expected success: status 404; result undefined (undefined)', exchange: 0 },
        ],
      ),
      scenario(
        'permissions/basic-auth',
        [me],
        [schemaFailure(me, 'get-own-user', "/ must have required property 'result'; / must have required property 'msg'")],
      ),
    ];
    const findings = attachFindings(scenarios);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      rule: 'R1-2',
      kind: 'schema',
      checks: 4,
      scenarios: ['conventions/success-envelope', 'permissions/basic-auth'],
    });
    expect(findings[0]!.title).toContain('not the JSON envelope');
  });

  it('groups setup errors by their reason and ranks findings by the scenarios they broke', () => {
    const setup = (id: string, reason: string) => scenario(id, [], [], { status: 'error', reason });
    const findings = attachFindings([
      setup('s/a', 'could not set up: register as member failed: 200 {}'),
      setup('s/b', 'could not set up: channel 58 has no topics_policy'),
      setup('s/c', 'could not set up: channel 59 has no topics_policy'),
    ]);
    expect(findings.map((f) => [f.id, f.kind, f.scenarios])).toEqual([
      ['F1', 'setup', ['s/b', 's/c']],
      ['F2', 'setup', ['s/a']],
    ]);
  });

  it('lists the failing rules, most scenarios first, with the findings behind each', () => {
    const scenarios = droppedField();
    attachFindings(scenarios);
    const rules = [{ id: 'R4.15-3', section: '4.15', text: 'include_subscribed', passed: [], failed: [] }];
    expect(failingRules(scenarios, rules)).toEqual([
      { rule: null, scenarios: 4, findings: ['F1'] },
      { rule: 'R4.15-3', section: '4.15', text: 'include_subscribed', scenarios: 2, findings: ['F1'] },
      { rule: 'R2.3-1', scenarios: 1, findings: ['F1'] },
    ]);
  });

  it('names operations and causes without the IDs of one request', () => {
    expect(operationOf({ method: 'PATCH', path: '/api/v1/streams/58?x=1' })).toBe('PATCH /api/v1/streams/{id}');
    expect(operationOf({ method: 'GET', path: '/api/v1/navigation_views/tc-1a2b3c-view' })).toBe('GET /api/v1/navigation_views/{name}');
    expect(fold('channel 58 of "tc-1a2b3c home 4"')).toBe('channel N of …');
    const x = exchange('GET', '/api/v1/streams');
    expect(causeOf(schemaFailure(x, 'get-streams', "/streams/0 must have required property 'stream_id'"), x).key).toBe(
      causeOf(schemaFailure(x, 'get-streams', '/streams/4/stream_id is missing'), x).key,
    );
  });
});
