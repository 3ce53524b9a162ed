import type { Reply } from '../../src/client.js';
import type { Actor, ScenarioContext } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';

/**
 * Spec §5 "Authentication": HTTP Basic with the user's or bot's API email and key on every operation;
 * "A bot acts with its own credentials"; register without credentials in realms with public access
 * (queue_id null; client_gravatar true and include_subscribers true are then errors). §4: "All
 * operations need credentials (see 5) unless stated." The spec states no code or status for missing
 * or wrong credentials: the spec's checks ask for a 4xx error. The status and the code come from the
 * reference server's documentation (rest-error-handling): 401, UNAUTHORIZED without credentials,
 * INVALID_API_KEY for a malformed key, an unknown key or a key presented with another user's email. Those
 * checks say so in their message (reference checks: the spec does not fix them).
 */

function expectRefused(ctx: ScenarioContext, rule: string, res: Reply, what: string): boolean {
  const ok = res.status >= 400 && res.status < 500 && res.body.result === 'error';
  return ctx.check(
    rule,
    ok,
    ok
      ? `${what}: refused with HTTP ${res.status} ${String(res.body.code)}`
      : `${what}: expected a 4xx error, got HTTP ${res.status} ${res.text.slice(0, 200)}`,
    res,
  );
}

/** Reference rest-error-handling: HTTP 401 and the code of the refusal (the spec states neither). */
function expectReferenceRefusal(ctx: ScenarioContext, rule: string, res: Reply, what: string, code: string): void {
  const source = 'reference rest-error-handling; the spec states no status or code';
  ctx.check(rule, res.status === 401, `${what}: HTTP ${res.status}, the reference answers 401 (${source})`, res);
  ctx.check(rule, res.body.code === code, `${what}: code ${JSON.stringify(res.body.code)}, the reference answers ${code} (${source})`, res);
}

const identity = scenarios(
  [
    { role: 'member', rules: ['R5-1'] },
    { role: 'bot', rules: ['R5-1', 'R5-5'] },
  ] as const satisfies readonly { role: WorldRole; rules: string[] }[],
  (row) =>
    scenario({
      id: `permissions/basic-auth-acts-as-${row.role}`,
      title: `a ${row.role}'s API email and key (HTTP Basic) act as that ${row.role}`,
      rules: [...row.rules],
      requires: { roles: [row.role] },
      when: (ctx) => ctx.as(row.role).get('/api/v1/users/me'),
      then(ctx, res) {
        ctx.expectSuccess('R5-1', res, { user_id: ctx.user(row.role).user_id });
        if (row.role === 'bot')
          ctx.check('R5-5', res.body.is_bot === true, `the bot acts as itself (is_bot ${String(res.body.is_bot)})`, res);
      },
    }),
);

interface BadCredentials {
  key: string;
  title: string;
  /** The reference server's code for this refusal (rest-error-handling). */
  code: string;
  roles: WorldRole[];
  who(ctx: ScenarioContext): Actor;
}

const BAD: BadCredentials[] = [
  { key: 'none', title: 'no credentials at all', code: 'UNAUTHORIZED', roles: [], who: (ctx) => ctx.anonymous },
  {
    key: 'malformed-key',
    title: "a user's email with a key that is not 32 letters and digits",
    code: 'INVALID_API_KEY',
    roles: ['member'],
    who: (ctx) => ctx.withCredentials('member', ctx.user('member').email, 'not-a-key'),
  },
  {
    key: 'wrong-key',
    title: "a user's email with a key that is not theirs",
    code: 'INVALID_API_KEY',
    roles: ['member'],
    who: (ctx) => ctx.withCredentials('member', ctx.user('member').email, 'Zz9'.repeat(10) + 'Zz'),
  },
  {
    key: 'other-users-key',
    title: "one user's email with another user's key",
    code: 'INVALID_API_KEY',
    roles: ['member', 'member_2'],
    who: (ctx) => ctx.withCredentials('member_2', ctx.user('member_2').email, ctx.user('member').api_key),
  },
  {
    key: 'owner-key-for-bot',
    title: "a bot's email with its owner's key (a bot acts with its own credentials)",
    code: 'INVALID_API_KEY',
    roles: ['bot', 'bot_owner'],
    who: (ctx) => ctx.withCredentials('bot', ctx.user('bot').email, ctx.user('bot_owner').api_key),
  },
];

const bad = scenarios(BAD, (row) =>
  scenario({
    id: `permissions/credentials-refused-${row.key}`,
    title: `${row.title} is refused`,
    rules: row.key === 'owner-key-for-bot' ? ['R4-1', 'R5-1', 'R5-5'] : ['R4-1', 'R5-1'],
    requires: { roles: row.roles },
    when: (ctx) => row.who(ctx).get('/api/v1/streams'),
    then(ctx, res) {
      expectRefused(ctx, 'R4-1', res, row.title);
      expectReferenceRefusal(ctx, 'R5-1', res, row.title, row.code);
      ctx.check('R5-1', !Array.isArray(res.body.streams), 'no channel list in the answer', res);
      if (row.key === 'owner-key-for-bot') ctx.check('R5-5', res.body.result === 'error', "the owner's key does not act for the bot", res);
    },
  }),
);

/** register without credentials: allowed with public access (§5), otherwise refused like any operation (§4). */
const anonymousRegister = scenario({
  id: 'permissions/register-without-credentials',
  title: 'register without credentials gives a null queue_id in a realm with public access, and is refused otherwise',
  rules: ['R5-4', 'R4.21-20', 'R4-1'],
  when: (ctx) => ctx.anonymous.post('/api/v1/register', { event_types: ['message'] }),
  then(ctx, res) {
    if (ctx.world.realm.spectator_access) {
      ctx.expectSuccess('R5-4', res, { queue_id: null });
      ctx.check('R4.21-20', res.body.queue_id === null, `queue_id ${JSON.stringify(res.body.queue_id)} for unauthenticated access`, res);
    } else {
      expectRefused(ctx, 'R4-1', res, 'a realm without public access');
    }
  },
});

const anonymousErrors = scenarios(
  [
    { param: 'client_gravatar', value: true, rule: 'R4.21-4' },
    { param: 'include_subscribers', value: 'true', rule: 'R4.21-5' },
  ],
  (row) =>
    scenario({
      id: `permissions/register-without-credentials-${row.param.replace('_', '-')}`,
      title: `register without credentials with ${row.param} true is an error`,
      rules: ['R5-4', row.rule],
      when: (ctx) => ctx.anonymous.post('/api/v1/register', { [row.param]: row.value }),
      then(ctx, res) {
        if (ctx.world.realm.spectator_access) {
          // §5 calls it an error; BAD_REQUEST is §7's code for invalid input.
          ctx.expectError('R5-4', res, { status: 400, code: 'BAD_REQUEST' });
          ctx.check(row.rule, res.body.result === 'error', `${row.param} true without credentials: ${res.text.slice(0, 160)}`, res);
        } else {
          expectRefused(ctx, 'R5-4', res, 'a realm without public access');
          ctx.check(row.rule, res.body.result === 'error', 'refused', res);
        }
      },
    }),
);

const anonymousElsewhere = scenario({
  id: 'permissions/no-credentials-outside-register',
  title: 'without credentials, operations other than register are refused even with public access',
  rules: ['R4-1', 'R5-4'],
  requires: { channels: ['web_public'] },
  when: (ctx) => ctx.anonymous.get(`/api/v1/users/me/${ctx.channel('web_public').stream_id}/topics`),
  then(ctx, res) {
    expectRefused(ctx, 'R4-1', res, 'topics of a web-public channel without credentials');
    ctx.check('R5-4', !Array.isArray(res.body.topics), 'no topics in the answer', res);
  },
});

export default [...identity, ...bad, anonymousRegister, ...anonymousErrors, anonymousElsewhere];
