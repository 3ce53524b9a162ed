import { describe, expect, it } from 'vitest';
import { useTestRealm } from '../helpers/harness.js';
import { call } from '../helpers/test-server.js';
import { add, DEMO, eventsOf, expectUnchanged, invalid, list, NEXT_ID, TICKETS, update } from './support.js';

/**
 * Validation of add (spec §4.18) and update (companion): the reference server's texts, `errors` keyed as
 * the OpenAPI document's examples (`pattern`, `url_template`, `__all__`), `msg` the first message.
 * Every refusal leaves the list and its order alone and sends no event.
 */
const env = useTestRealm();

const TEMPLATE = 'https://realm.com/my_realm_filter/{id}';

/** [case, pattern, url_template, expected error body] — the reference server's test cases. */
const REFUSED: [string, string, string, object][] = [
  ['blank pattern', '', TEMPLATE, invalid('pattern', 'This field cannot be blank.')],
  ['pattern of spaces (stripped, so blank)', '   ', TEMPLATE, invalid('pattern', 'This field cannot be blank.')],
  ['unbalanced parenthesis', '(foo', TEMPLATE, invalid('pattern', 'Bad regular expression: missing ): (foo')],
  ['bad repetition', 'ZUL-(?P<id>\\d????)', TEMPLATE, invalid('pattern', 'Bad regular expression: bad repetition operator: ????')],
  ['blank template', 'ZUL-(?P<id>\\d+)', '', invalid('url_template', 'This field cannot be blank.')],
  ['unclosed template expression', '#(?P<id>[123])', '{id', invalid('url_template', 'Invalid URL template.')],
  [
    'pattern group missing from a text template',
    'ZUL-(?P<id>\\d+)',
    '$fgfg',
    invalid('__all__', "Group 'id' in linkifier pattern is not present in URL template."),
  ],
  [
    'pattern group missing from the template',
    'ZUL-(?P<id>\\d+)',
    'https://realm.com/my_realm_filter/',
    invalid('__all__', "Group 'id' in linkifier pattern is not present in URL template."),
  ],
  [
    'template variable missing from the pattern',
    'ZUL-(?P<id>\\d+)',
    'https://realm.com/my_realm_filter/{hello}',
    invalid('__all__', "Group 'hello' in URL template is not present in linkifier pattern."),
  ],
  [
    'one of two groups missing',
    'ZUL-(?P<id>\\d+)-(?P<hello>\\d+)',
    'https://realm.com/my_realm_filter/{hello}',
    invalid('__all__', "Group 'id' in linkifier pattern is not present in URL template."),
  ],
  [
    'a pattern the realm already has',
    TICKETS.pattern,
    'https://elsewhere.example.com/{id}',
    invalid('__all__', 'Realm filter with this Realm and Pattern already exists.'),
  ],
];

/** [case, pattern, url_template] accepted by the reference server. */
const ACCEPTED: [string, string, string][] = [
  ['a template that is not a URL', 'NOT-[0-9]+', '$not_a_url$'],
  ['no groups and no variables', 'ZULIP', 'https://zulip.com/'],
  ['a fragment before the variable', 'ZUL-(?P<id>\\d+)', 'https://realm.com/my_realm_filter/#hashtag/{id}'],
  ['two groups', 'ZULZ-(?P<hello>\\d+)-(?P<world>\\d+)', 'https://realm.com/my_realm_filter/{hello}/{world}'],
  ['a percent-encoded literal', 'ZUL-URL-(?P<id>\\d+)', 'https://example.com/%ba/{id}'],
  [
    'every RFC 6570 operator',
    'FOO_(?P<id>[a-f]{5});(?P<zone>[a-f]);(?P<domain>[a-z]+);(?P<location>[a-z]+);(?P<name>[a-z]{2,8});(?P<chapter>[0-9]{2,3});(?P<fragment>[a-z]{2,8})',
    'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}',
  ],
];

describe('add-linkifier validation', () => {
  it.each(REFUSED)('refuses %s, and changes nothing', async (_case, pattern, template, expected) => {
    let res!: Awaited<ReturnType<typeof add>>;
    const events = await eventsOf(env, async () => (res = await add(env, env.who.administrator!, pattern, template)));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
    await expectUnchanged(env, DEMO, events);
  });

  it.each(ACCEPTED)('accepts %s', async (_case, pattern, template) => {
    const res = await add(env, env.who.administrator!, pattern, template);
    expect(res.body).toEqual({ result: 'success', msg: '', id: NEXT_ID });
    expect(await list(env)).toEqual([...DEMO, { pattern, url_template: template, id: NEXT_ID }]);
  });

  it('strips surrounding whitespace from both values before storing them (reference server)', async () => {
    const res = await add(env, env.who.administrator!, '  ZUL-(?P<id>\\d+)\n', ' https://z.example.com/{id} ');
    expect(res.status).toBe(200);
    expect((await list(env)).at(-1)).toEqual({ pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://z.example.com/{id}', id: NEXT_ID });
  });

  it.each([
    ['pattern', { url_template: TEMPLATE }],
    ['url_template', { pattern: 'ZUL-(?P<id>\\d+)' }],
    ['pattern', {}],
  ] as const)('answers a missing %s with REQUEST_VARIABLE_MISSING (parse order: pattern, url_template)', async (name, form) => {
    const res = await call(env.server, 'POST', '/api/v1/realm/filters', { as: env.who.administrator!, form });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', code: 'REQUEST_VARIABLE_MISSING', msg: `Missing '${name}' argument`, var_name: name });
    expect(await list(env)).toEqual(DEMO);
  });
});

describe('update-linkifier validation', () => {
  it.each(REFUSED.filter(([name]) => name !== 'a pattern the realm already has'))(
    'refuses %s, and changes nothing',
    async (_case, pattern, template, expected) => {
      let res!: Awaited<ReturnType<typeof update>>;
      const events = await eventsOf(env, async () => (res = await update(env, env.who.administrator!, TICKETS.id, pattern, template)));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expected);
      await expectUnchanged(env, DEMO, events);
    },
  );

  it.each(ACCEPTED)('accepts %s, in place', async (_case, pattern, template) => {
    const res = await update(env, env.who.administrator!, TICKETS.id, pattern, template);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await list(env)).toEqual([{ pattern, url_template: template, id: TICKETS.id }, DEMO[1]]);
  });

  it("refuses another linkifier's pattern but lets a linkifier keep its own", async () => {
    const taken = await update(env, env.who.administrator!, 2, TICKETS.pattern, 'https://x.example.com/{id}');
    expect(taken.body).toEqual(invalid('__all__', 'Realm filter with this Realm and Pattern already exists.'));
    const kept = await update(env, env.who.administrator!, TICKETS.id, TICKETS.pattern, 'https://x.example.com/{id}');
    expect(kept.status).toBe(200);
    expect(await list(env)).toEqual([{ ...TICKETS, url_template: 'https://x.example.com/{id}' }, DEMO[1]]);
  });

  it('looks the linkifier up before validating: an unknown ID with a bad pattern is not found', async () => {
    const res = await update(env, env.who.administrator!, 999, '(foo', '{id');
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Linkifier not found.' });
  });

  it('parses pattern and url_template before looking the linkifier up (x-parse-order)', async () => {
    const res = await call(env.server, 'PATCH', '/api/v1/realm/filters/999', { as: env.who.administrator!, form: { pattern: 'x' } });
    expect(res.body).toEqual({
      result: 'error',
      code: 'REQUEST_VARIABLE_MISSING',
      msg: "Missing 'url_template' argument",
      var_name: 'url_template',
    });
  });
});
