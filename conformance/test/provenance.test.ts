import { describe, expect, it } from 'vitest';
import { loadRules } from '../src/catalogue.js';
import type { Check, RuleDef } from '../src/model.js';
import { operationSource, referenceOfUrl, resolveSources, rulesById, sourceLabel, weigh, type OperationMarks } from '../src/provenance.js';

describe('the sources of the rules', () => {
  it('gives every rule of both catalogues one: its spec section, or its reference page', async () => {
    const rules = await loadRules();
    expect(rules.length).toBeGreaterThan(300);
    for (const r of rules) {
      if (r.tier === 'companion') {
        expect(r.source, r.id).toMatchObject({ kind: 'reference', url: expect.stringMatching(/^https?:\/\//) });
        expect(r.source?.kind === 'reference' && r.source.operation, r.id).toMatch(/^[a-z][a-z0-9/_-]*$/);
      } else {
        expect(r.source, r.id).toEqual({ kind: 'spec', section: r.section });
      }
    }
  });

  it('reads the operation from a reference page: its name, without the anchor of an event', () => {
    expect(referenceOfUrl('https://zulip.com/api/add-reaction', 193)).toEqual({
      kind: 'reference',
      operation: 'add-reaction',
      level: 193,
      url: 'https://zulip.com/api/add-reaction',
    });
    expect(referenceOfUrl('https://zulip.com/api/get-events#reaction-add').operation).toBe('get-events');
    expect(referenceOfUrl('https://zulip.com/help/restrict-message-editing').operation).toBe('help/restrict-message-editing');
  });

  it('labels them as a reader tells them apart', () => {
    expect(sourceLabel({ kind: 'spec', section: '4.12' })).toBe('spec §4.12');
    expect(sourceLabel({ kind: 'reference', operation: 'add-reaction', level: 193 })).toBe('reference add-reaction, level 193');
    expect(sourceLabel({ kind: 'reference', operation: 'get-messages' })).toBe('reference get-messages');
    expect(sourceLabel(undefined)).toBe('');
  });
});

describe('the sources of the checks', () => {
  const rules: RuleDef[] = [
    { id: 'R4.12-3', section: '4.12', area: 'navigation-views', text: 'x', source: { kind: 'spec', section: '4.12' } },
    {
      id: 'C.flags-reactions-2',
      section: 'POST',
      area: 'flags-reactions',
      text: 'x',
      tier: 'companion',
      source: referenceOfUrl('https://zulip.com/api/add-reaction'),
    },
  ];
  const operations: OperationMarks[] = [
    { operationId: 'update-navigation-view', 'x-spec-section': '4.12' },
    { operationId: 'add-reaction', 'x-spec-section': 'companion', 'x-reference-doc': 'https://zulip.com/api/add-reaction' },
    { operationId: 'get-alert-words', 'x-spec-section': 'companion' },
  ];
  // The exchanges: an answer of each operation, then a 404 and a 500 of the spec's.
  const exchanges = [
    ...operations.map((operation) => ({ status: 200, operation })),
    { status: 404, operation: operations[0] },
    { status: 500, operation: operations[0] },
  ];
  const lookup = { rules: rulesById(rules), exchangeAt: (i: number) => exchanges[i] };
  const resolve = (checks: Check[], scenarioRules = ['R4.12-3']) => resolveSources(checks, scenarioRules, lookup).map((c) => c.source);

  it("take a scenario's reference tag, filling in the operation of the checked answer", () => {
    expect(
      resolve([{ rule: 'R4.12-3', ok: false, message: 'm', exchange: 0, source: { kind: 'reference', operation: '', level: 193 } }]),
    ).toEqual([{ kind: 'reference', operation: 'update-navigation-view', level: 193 }]);
    expect(resolve([{ rule: 'R4.12-3', ok: true, message: 'm', exchange: 1, source: { kind: 'reference', operation: '' } }])).toEqual([
      { kind: 'reference', operation: 'add-reaction', url: 'https://zulip.com/api/add-reaction' },
    ]);
    const named = { kind: 'reference', operation: 'get-events', level: 229 } as const;
    expect(resolve([{ rule: 'R4.12-3', ok: true, message: 'm', exchange: 0, source: named }])).toEqual([named]);
  });

  it('else the source of their rule, from the catalogue or from a spec ID', () => {
    expect(resolve([{ rule: 'C.flags-reactions-2', ok: true, message: 'm', exchange: 0 }])).toEqual([rules[1]!.source]);
    expect(resolve([{ rule: 'R7-3', ok: true, message: 'm' }])).toEqual([{ kind: 'spec', section: '7' }]);
  });

  it('else, on a 4xx answer, the reference page of its operation: the error schemas by status are the reference', () => {
    expect(resolve([{ rule: null, ok: false, message: 'schema', exchange: 3 }])).toEqual([
      { kind: 'reference', operation: 'update-navigation-view' },
    ]);
    expect(resolve([{ rule: null, ok: false, message: 'a server error', exchange: 4 }])).toEqual([{ kind: 'spec', section: '4.12' }]);
  });

  it("else (schema, server errors) the provenance of their operation, else the scenario's first rule", () => {
    expect(
      resolve([
        { rule: null, ok: false, message: 'schema', exchange: 0 },
        { rule: null, ok: false, message: 'schema', exchange: 1 },
        { rule: null, ok: false, message: 'schema', exchange: 2 },
        { rule: null, ok: false, message: 'no exchange' },
      ]),
    ).toEqual([
      { kind: 'spec', section: '4.12' },
      { kind: 'reference', operation: 'add-reaction', url: 'https://zulip.com/api/add-reaction' },
      { kind: 'reference', operation: 'get-alert-words' },
      { kind: 'spec', section: '4.12' },
    ]);
    expect(operationSource({ operationId: 'get-events', 'x-spec-section': '6' })).toEqual({ kind: 'spec', section: '6' });
  });
});

describe('weighing a failed reference-only check', () => {
  const reference: Check = { rule: 'R7-1', ok: false, message: 'status', source: { kind: 'reference', operation: 'x' } };
  const spec: Check = { rule: 'R7-1', ok: false, message: 'code', source: { kind: 'spec', section: '7' } };
  const passed: Check = { ...reference, ok: true };

  it('makes it a warning in the spec tier unless the run is strict about the reference', () => {
    expect(weigh([reference, spec, passed], 'spec', false).map((c) => c.warning === true)).toEqual([true, false, false]);
    expect(weigh([reference, spec, passed], 'spec', true).map((c) => c.warning === true)).toEqual([false, false, false]);
  });

  it("counts it in the companion tier, whose contract is the reference's documentation", () => {
    expect(weigh([reference], 'companion', false)[0]!.warning).toBeUndefined();
  });
});
