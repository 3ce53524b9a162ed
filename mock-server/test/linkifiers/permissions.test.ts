import { describe, expect, it } from 'vitest';
import { INSUFFICIENT, useTestRealm, type Json } from '../helpers/harness.js';
import { call, type Reply, type Who } from '../helpers/test-server.js';
import { add, deactivatedWho, DEMO, eventsOf, expectUnchanged, list, NEXT_ID, remove, reorder, update } from './support.js';
import type { TestRealm } from '../helpers/harness.js';

/**
 * Who may do what with linkifiers (C19, domain/permissions.ts mayManageLinkifiers): listing is for every
 * user of the realm (the reference server's list has no role check: guests and bots too); adding,
 * updating, removing and reordering are for organization administrators (owners and administrators),
 * everyone else gets BAD_REQUEST `Insufficient permission`. Deactivated credentials are refused at
 * authentication (spec §5), 401.
 */
const env = useTestRealm();

const ADMINS = ['owner', 'administrator'];
const REFUSED_ROLES = ['moderator', 'member', 'guest', 'bot'];
const DEACTIVATED = { result: 'error', code: 'USER_DEACTIVATED', msg: 'Account is deactivated' };

interface Op {
  name: string;
  run(env: TestRealm, as: Who): Promise<Reply>;
  /** The success body and the list afterwards. */
  body: Json;
  after: Json[];
}

const REORDERED = [DEMO[1]!, DEMO[0]!];
const OPS: Op[] = [
  {
    name: 'add-linkifier',
    run: (e, as) => add(e, as, 'RT-(?P<id>\\d+)', 'https://rt.example.com/{id}'),
    body: { id: NEXT_ID },
    after: [...DEMO, { pattern: 'RT-(?P<id>\\d+)', url_template: 'https://rt.example.com/{id}', id: NEXT_ID }],
  },
  {
    name: 'update-linkifier',
    run: (e, as) => update(e, as, 1, '#(?P<id>[0-9]+)', 'https://new.example.com/{id}'),
    body: {},
    after: [{ ...DEMO[0], url_template: 'https://new.example.com/{id}' }, DEMO[1]!],
  },
  { name: 'remove-linkifier', run: (e, as) => remove(e, as, 1), body: {}, after: [DEMO[1]!] },
  { name: 'reorder-linkifiers', run: (e, as) => reorder(e, as, [2, 1]), body: {}, after: REORDERED },
];

const cases = OPS.flatMap((op) => [...ADMINS, ...REFUSED_ROLES, 'deactivated'].map((role) => [op.name, role, op] as const));

describe('linkifier changes by role', () => {
  it.each(cases)('%s as %s', async (_name, role, op) => {
    let res!: Reply;
    const as = role === 'deactivated' ? deactivatedWho(env) : env.who[role]!;
    const events = await eventsOf(env, async () => (res = await op.run(env, as)));
    if (ADMINS.includes(role)) {
      expect(res.body).toEqual({ result: 'success', msg: '', ...op.body });
      expect(await list(env)).toEqual(op.after);
      expect(events).toEqual([{ type: 'realm_linkifiers', realm_linkifiers: op.after }]);
      return;
    }
    if (role === 'deactivated') {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(DEACTIVATED);
    } else {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INSUFFICIENT);
    }
    await expectUnchanged(env, DEMO, events);
  });
});

describe('get-linkifiers by role', () => {
  it.each([...ADMINS, ...REFUSED_ROLES])('lists the linkifiers in display order for the %s', async (role) => {
    const res = await call(env.server, 'GET', '/api/v1/realm/linkifiers', { as: env.who[role]! });
    expect(res.body).toEqual({ result: 'success', msg: '', linkifiers: DEMO });
  });

  it('refuses deactivated credentials with 401', async () => {
    const res = await call(env.server, 'GET', '/api/v1/realm/linkifiers', { as: deactivatedWho(env) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(DEACTIVATED);
  });

  it('refuses a request without credentials with 401', async () => {
    const res = await call(env.server, 'GET', '/api/v1/realm/linkifiers');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });
});

describe('the administrator check comes before the parameters (reference: the decorator wraps parsing)', () => {
  const member = () => env.who.member!;
  const BEFORE_PARSING: [string, () => Promise<Reply>][] = [
    ['add without parameters', () => call(env.server, 'POST', '/api/v1/realm/filters', { as: member() })],
    ['add with a bad pattern', () => add(env, member(), '(foo', '{id')],
    ['update of an unknown ID without parameters', () => call(env.server, 'PATCH', '/api/v1/realm/filters/999', { as: member() })],
    ['remove of an unknown ID', () => remove(env, member(), 999)],
    ['reorder without the list', () => call(env.server, 'PATCH', '/api/v1/realm/linkifiers', { as: member() })],
    ['reorder with a list that is not JSON', () => reorder(env, member(), '2,1')],
  ];

  it.each(BEFORE_PARSING)('a member gets Insufficient permission for %s', async (_case, run) => {
    const res = await run();
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INSUFFICIENT);
  });

  it('an administrator gets the parameter errors instead', async () => {
    const admin = env.who.administrator!;
    expect((await call(env.server, 'POST', '/api/v1/realm/filters', { as: admin })).body).toEqual({
      result: 'error',
      code: 'REQUEST_VARIABLE_MISSING',
      msg: "Missing 'pattern' argument",
      var_name: 'pattern',
    });
    expect((await reorder(env, admin, '2,1')).body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'ordered_linkifier_ids is not valid JSON',
    });
  });
});
