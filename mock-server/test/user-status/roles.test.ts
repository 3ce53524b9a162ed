import { describe, expect, it } from 'vitest';
import type { Reply } from '../helpers/test-server.js';
import { error, success, tables, useTestRealm, type Cred } from '../helpers/harness.js';
import { BOT_REFUSED, deactivatedCredentials, expectRefused, getStatus, setFor, setOwn } from './support.js';

/**
 * Every role on every status operation (§4.4, §4.5, §5): bots are refused before parsing on both
 * updates, only administrators (owners included, §2.8) may set another user's status, anyone may read
 * a status, and a deactivated account's credentials are refused by authentication (401).
 */
const env = useTestRealm();

const ROLES = ['owner', 'administrator', 'moderator', 'member', 'guest', 'bot', 'deactivated'] as const;
type Role = (typeof ROLES)[number];
type Outcome = 'ok' | 'bot' | 'insufficient' | 'unauthorized';

const caller = (role: Role): Cred => (role === 'deactivated' ? deactivatedCredentials(env.server, env.realm) : env.who[role]!);

const BODIES: Record<Exclude<Outcome, 'ok'>, [number, Record<string, unknown>]> = {
  bot: [400, error(BOT_REFUSED)],
  insufficient: [400, error('Insufficient permission')],
  unauthorized: [401, error('Account is deactivated', 'USER_DEACTIVATED')],
};

const statusOf = (userId: number) => tables(env.server, env.realm).user_statuses[String(userId)]?.status_text;

interface OperationCase {
  name: string;
  outcomes: Record<Role, Outcome>;
  run(as: Cred): Promise<Reply>;
  /** What a success must show. */
  check(as: Cred, res: Reply): void;
}

const OPERATIONS: OperationCase[] = [
  {
    name: 'update-status',
    outcomes: { owner: 'ok', administrator: 'ok', moderator: 'ok', member: 'ok', guest: 'ok', bot: 'bot', deactivated: 'unauthorized' },
    run: (as) => setOwn(env.server, as, { status_text: 'Role test' }),
    check: (as, res) => {
      expect(res.body).toEqual(success());
      expect(statusOf(as.user_id)).toBe('Role test');
    },
  },
  {
    name: 'update-status-for-user',
    outcomes: {
      owner: 'ok',
      administrator: 'ok',
      moderator: 'insufficient',
      member: 'insufficient',
      guest: 'insufficient',
      bot: 'bot',
      deactivated: 'unauthorized',
    },
    run: (as) => setFor(env.server, as, env.who.member_2!.user_id, { status_text: 'Role test' }),
    check: (_as, res) => {
      expect(res.body).toEqual(success());
      expect(statusOf(env.who.member_2!.user_id)).toBe('Role test');
    },
  },
  {
    name: 'get-user-status',
    outcomes: { owner: 'ok', administrator: 'ok', moderator: 'ok', member: 'ok', guest: 'ok', bot: 'ok', deactivated: 'unauthorized' },
    run: (as) => getStatus(env.server, as, env.who.member!.user_id),
    check: (_as, res) => {
      expect(res.body).toEqual(
        success({ status: { status_text: 'In a meeting', emoji_name: 'computer', emoji_code: '1f4bb', reaction_type: 'unicode_emoji' } }),
      );
    },
  },
];

describe('status operations by role', () => {
  const rows = OPERATIONS.flatMap((op) => ROLES.map((role) => [op.name, role, op.outcomes[role], op] as const));
  it.each(rows)('%s as %s → %s', async (_name, role, outcome, op) => {
    const as = caller(role);
    if (outcome === 'ok') {
      const res = await op.run(as);
      expect(res.status).toBe(200);
      op.check(as, res);
      return;
    }
    const [status, body] = BODIES[outcome];
    await expectRefused(env, () => op.run(as), status, body);
  });
});
