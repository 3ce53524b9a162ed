import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import {
  DEACTIVATED,
  error,
  freshRealm,
  nowOf,
  observeEvents,
  openQueue,
  drain,
  success,
  tables,
  useTestRealm,
  type Cred,
} from '../helpers/harness.js';

/**
 * Presence (companion tier, area live; reference "Update your presence", "Get user presence", "Get
 * presence of all users"): reports stored per user, statuses computed at the realm's time (so the
 * control API's clock moves them), events only when a user comes online or changes status, nothing
 * shown for users who do not share presence (the demo's moderator).
 */
const env = useTestRealm();
const EVERYONE = ['owner', 'administrator', 'moderator', 'member', 'member_2', 'member_3', 'guest', 'bot'];
const SIMPLIFIED = JSON.stringify({ simplified_presence_events: true });
const report = (as: Cred, form: Record<string, string>) => call(env.server, 'POST', '/api/v1/users/me/presence', { as, form });
const userPresence = (as: Cred, who: string) => call(env.server, 'GET', `/api/v1/users/${encodeURIComponent(who)}/presence`, { as });
const now = () => nowOf(env.server, env.realm);
const advance = (seconds: number) => env.server.control.advanceRealm(env.realm, seconds);

describe('POST /users/me/presence', () => {
  it('active: stored at the realm time and answered in the legacy form by email, the caller included', async () => {
    const member = env.who.member!;
    const res = await report(member, { status: 'active' });
    const t = now();
    expect(res.body).toMatchObject(success({ server_timestamp: t }));
    const presences = res.body.presences as Record<string, unknown>;
    expect(presences[member.email]).toEqual({
      website: { client: 'website', status: 'active', timestamp: t, pushable: false },
      aggregated: { client: 'website', status: 'active', timestamp: t },
    });
    // The moderator does not share presence: never listed.
    expect(presences[env.who.moderator!.email]).toBeUndefined();
    expect(tables(env.server, env.realm).presence[String(member.user_id)]).toMatchObject({ active_timestamp: t, idle_timestamp: t });
  });

  it('slim_presence: keyed by user ID with both timestamps', async () => {
    const member = env.who.member!;
    await report(member, { status: 'active' });
    await advance(30);
    const res = await report(member, { status: 'idle', slim_presence: 'true' });
    const presences = res.body.presences as Record<string, unknown>;
    expect(presences[String(member.user_id)]).toEqual({ active_timestamp: now() - 30, idle_timestamp: now() });
  });

  it('last_update_id: only what changed since, with presence_last_update_id', async () => {
    const first = await report(env.who.member!, { status: 'active', last_update_id: '-1' });
    const since = first.body.presence_last_update_id as number;
    expect(Object.keys(first.body.presences as object)).toContain(String(env.who.member!.user_id));
    await report(env.who.member_2!, { status: 'active', ping_only: 'true' });
    const next = await report(env.who.member!, { status: 'active', last_update_id: String(since) });
    // member_2's report and member's own second report are newer than `since`.
    expect(Object.keys(next.body.presences as object).sort()).toEqual(
      [String(env.who.member!.user_id), String(env.who.member_2!.user_id)].sort(),
    );
    expect(next.body.presence_last_update_id).toBe(since + 2);
  });

  it('presence_last_update_id without last_update_id: the newest update ID answered (reference, level 263)', async () => {
    const member = env.who.member!;
    const res = await report(member, { status: 'active', slim_presence: 'true', history_limit_days: '0' });
    expect(Object.keys(res.body.presences as object)).toEqual([String(member.user_id)]);
    expect(res.body.presence_last_update_id).toBe(tables(env.server, env.realm).presence[String(member.user_id)]!.last_update_id);
    // The legacy form carries it too.
    expect(typeof (await report(member, { status: 'active' })).body.presence_last_update_id).toBe('number');
  });

  it('presence_last_update_id is -1 when no last_update_id was sent and no presence is answered', async () => {
    await advance(60);
    // The moderator does not share presence, and nobody else was seen in the last day's window of 0 days.
    const res = await report(env.who.moderator!, { status: 'active', history_limit_days: '0' });
    expect(res.body).toEqual(success({ presences: {}, server_timestamp: now(), presence_last_update_id: -1 }));
  });

  it('presence_last_update_id is the last_update_id sent when nothing changed since', async () => {
    const res = await report(env.who.moderator!, { status: 'active', last_update_id: '1000000' });
    expect(res.body).toMatchObject({ presences: {}, presence_last_update_id: 1000000 });
  });

  it('below feature level 263 the answer has no presence_last_update_id', async () => {
    for (const [level, present] of [
      [262, false],
      [263, true],
    ] as const) {
      const { who } = await freshRealm(env.server, level);
      const res = await call(env.server, 'POST', '/api/v1/users/me/presence', { as: who.member!, form: { status: 'active' } });
      expect(res.status, String(level)).toBe(200);
      expect('presence_last_update_id' in res.body, String(level)).toBe(present);
    }
  });

  it('history_limit_days: users last seen before the window are left out', async () => {
    const res = await report(env.who.member!, { status: 'active', slim_presence: 'true', history_limit_days: '0' });
    expect(Object.keys(res.body.presences as object)).toEqual([String(env.who.member!.user_id)]);
  });

  it('ping_only: nothing but the envelope', async () => {
    expect((await report(env.who.member!, { status: 'idle', ping_only: 'true' })).body).toEqual(success());
  });

  it('new_user_input records the account as recently active', async () => {
    await report(env.who.member_3!, { status: 'active', new_user_input: 'true', ping_only: 'true' });
    expect(tables(env.server, env.realm).users[String(env.who.member_3!.user_id)]!.last_active).toBe(now());
  });

  it.each([
    ['an unknown status', { status: 'away' }, 400, error('Invalid status: away')],
    ['no status', {}, 400, { ...error("Missing 'status' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'status' }],
    ['a bad boolean', { status: 'active', ping_only: 'yes' }, 400, error('ping_only is not valid JSON')],
  ])('%s: refused, nothing stored', async (_name, form, status, body) => {
    const before = structuredClone(tables(env.server, env.realm).presence);
    const res = await report(env.who.member!, form as Record<string, string>);
    expect({ status: res.status, body: res.body }).toEqual({ status, body });
    expect(tables(env.server, env.realm).presence).toEqual(before);
  });

  it('a bot is refused before its parameters are read', async () => {
    const res = await report(env.who.bot!, {});
    expect(res.body).toEqual(error('This endpoint does not accept bot requests.'));
  });
});

describe('presence events', () => {
  it('coming online: every active account, in the form its client declared', async () => {
    const member = env.who.member!;
    const legacy = await observeEvents(env, EVERYONE, {}, () => report(member, { status: 'active' }));
    const t = now();
    for (const role of EVERYONE)
      expect({ role, events: legacy[role] }).toEqual({
        role,
        events: [
          {
            type: 'presence',
            user_id: member.user_id,
            email: member.email,
            server_timestamp: t,
            presence: { website: { client: 'website', status: 'active', timestamp: t, pushable: false } },
          },
        ],
      });
  });

  it('simplified_presence_events: the modern form', async () => {
    const seen = await observeEvents(env, ['owner'], { client_capabilities: SIMPLIFIED }, () =>
      report(env.who.member!, { status: 'active' }),
    );
    expect(seen.owner).toEqual([
      { type: 'presence', presences: { [String(env.who.member!.user_id)]: { active_timestamp: now(), idle_timestamp: now() } } },
    ]);
  });

  it('a second report while online with the same status sends nothing; a status change or coming back after the threshold does', async () => {
    const member = env.who.member!;
    await report(member, { status: 'active' });
    const { queueId } = await openQueue(env.server, env.who.owner!, { event_types: '["presence"]' });
    await advance(60);
    await report(member, { status: 'active' });
    expect(await drain(env.server, env.who.owner!, queueId)).toEqual([]);
    await advance(60);
    await report(member, { status: 'idle' });
    expect(
      (await drain(env.server, env.who.owner!, queueId)).map((e) => (e.presence as { website: { status: string } }).website.status),
    ).toEqual(['idle']);
    await advance(141);
    await report(member, { status: 'idle' });
    expect(await drain(env.server, env.who.owner!, queueId)).toHaveLength(2);
  });

  it('a user who does not share presence is stored but announced to nobody', async () => {
    const moderator = env.who.moderator!;
    const seen = await observeEvents(env, EVERYONE, {}, () => report(moderator, { status: 'active' }));
    for (const role of EVERYONE) expect({ role, events: seen[role] }).toEqual({ role, events: [] });
    expect(tables(env.server, env.realm).presence[String(moderator.user_id)]?.active_timestamp).toBe(now());
  });
});

describe('GET /users/{user_id_or_email}/presence', () => {
  it('by ID or email: active, then offline once the realm clock passes the threshold (website keeps its status)', async () => {
    const member = env.who.member!;
    await report(member, { status: 'active' });
    const t = now();
    for (const who of [String(member.user_id), member.email.toUpperCase()]) {
      const res = await userPresence(env.who.guest!, who);
      expect(res.body).toEqual(
        success({ presence: { aggregated: { status: 'active', timestamp: t }, website: { status: 'active', timestamp: t } } }),
      );
    }
    await advance(141);
    const later = await userPresence(env.who.guest!, String(member.user_id));
    expect(later.body).toEqual(
      success({ presence: { aggregated: { status: 'offline', timestamp: t }, website: { status: 'active', timestamp: t } } }),
    );
  });

  it.each([
    ['an unknown user', () => '99999', 'No such user'],
    ['a deactivated user', () => String(DEACTIVATED), 'No such user'],
    ['an unknown email', () => 'nobody@example.com', 'No such user'],
    ['a bot', () => String(env.who.bot!.user_id), 'Presence is not supported for bot users.'],
    ['a user who hides presence', () => String(env.who.moderator!.user_id), 'No presence data for {}'],
  ])('%s: refused', async (_name, who, msg) => {
    const res = await userPresence(env.who.member!, who());
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: error(msg.replace('{}', who())) });
  });
});

describe('GET /realm/presence', () => {
  it('everyone who shares presence, legacy form by email, with server_timestamp', async () => {
    await report(env.who.member!, { status: 'idle' });
    const res = await call(env.server, 'GET', '/api/v1/realm/presence', { as: env.who.guest! });
    expect(res.body).toMatchObject(success({ server_timestamp: now() }));
    const presences = res.body.presences as Record<string, { aggregated: { status: string } }>;
    expect(presences[env.who.member!.email]!.aggregated).toEqual({ client: 'website', status: 'idle', timestamp: now() });
    expect(presences[env.who.moderator!.email]).toBeUndefined();
    expect(presences[env.who.bot!.email]).toBeUndefined();
  });
});

describe('register', () => {
  it('announces the presence and typing periods, presence_last_update_id and the upload limit', async () => {
    await report(env.who.member!, { status: 'active', ping_only: 'true' });
    const { snapshot } = await openQueue(env.server, env.who.member!, { fetch_event_types: '["presence", "realm"]' });
    expect(snapshot).toMatchObject({
      server_presence_ping_interval_seconds: 60,
      server_presence_offline_threshold_seconds: 140,
      server_typing_started_expiry_period_milliseconds: 15000,
      server_typing_stopped_wait_period_milliseconds: 5000,
      server_typing_started_wait_period_milliseconds: 10000,
      max_file_upload_size_mib: 25,
    });
    expect(snapshot.presence_last_update_id).toBe(tables(env.server, env.realm).presence[String(env.who.member!.user_id)]!.last_update_id);
  });
});
