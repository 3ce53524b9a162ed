import type { Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import { R } from './rules.js';
import { asArray, registerOnce, userIds } from './support.js';

/**
 * Spec §4.21, the parameters of register that shape the snapshot: client_gravatar, include_subscribers,
 * slim_presence, presence_history_limit_days (§8: 14 days by default). Nothing here changes state.
 */

const DAY = 86_400;
const users = { event_types: ['realm_user'], fetch_event_types: ['realm_user'] };
const subs = { event_types: ['subscription'], fetch_event_types: ['subscription'] };
const presence = { event_types: ['presence'], fetch_event_types: ['presence'] };

const avatars = (res: Reply): Map<number, unknown> =>
  new Map(asArray(res.body.realm_users).map((u) => [u.user_id as number, u.avatar_url]));
const subscriptionsOf = (res: Reply) => asArray(res.body.subscriptions);
const byChannel = (res: Reply) => new Map(subscriptionsOf(res).map((s) => [s.stream_id as number, s]));
const sorted = (v: unknown) => (Array.isArray(v) ? [...(v as number[])].sort((a, b) => a - b) : v);

/** Newest presence time per entry in the slim form ({active_timestamp, idle_timestamp} by user ID). */
function presenceTimes(res: Reply): number[] {
  const map = (res.body.presences ?? {}) as Record<string, { active_timestamp?: number; idle_timestamp?: number }>;
  return Object.values(map).map((p) => Math.max(p.active_timestamp ?? 0, p.idle_timestamp ?? 0));
}

function withinDays(ctx: ScenarioContext, rule: string, res: Reply, days: number): void {
  const now = res.body.server_timestamp as number;
  const times = presenceTimes(res);
  const old = times.filter((t) => t < now - days * DAY);
  ctx.check(
    rule,
    typeof now === 'number' && old.length === 0,
    `${times.length} presence entries, ${old.length} older than ${days} days before server_timestamp ${now}`,
    res,
  );
}

export default [
  scenario({
    id: 'events/register-client-gravatar-default-true',
    title: 'an authenticated register without client_gravatar presents avatars as with client_gravatar true',
    rules: [R.clientGravatar],
    requires: { roles: ['member'] },
    async when(ctx) {
      const member = ctx.as('member');
      return {
        byDefault: await registerOnce(ctx, member, users),
        explicit: await registerOnce(ctx, member, { ...users, client_gravatar: true }),
      };
    },
    then(ctx, { byDefault, explicit }) {
      ctx.expectSuccess(R.clientGravatar, byDefault);
      const a = avatars(byDefault);
      ctx.check(R.clientGravatar, a.size > 0, `${a.size} users in realm_users`, byDefault);
      ctx.expectEqual(
        R.clientGravatar,
        [...a.entries()],
        [...avatars(explicit).entries()],
        'avatar_url of every user, default against client_gravatar true',
        byDefault,
      );
    },
  }),
  scenario({
    id: 'events/register-client-gravatar-false',
    title: 'with client_gravatar false every user in realm_users has an avatar URL',
    rules: [R.clientGravatar],
    requires: { roles: ['member'] },
    when: (ctx) => registerOnce(ctx, ctx.as('member'), { ...users, client_gravatar: false }),
    then(ctx, res) {
      ctx.expectSuccess(R.clientGravatar, res);
      const nulls = [...avatars(res).entries()].filter(([, url]) => typeof url !== 'string').map(([id]) => id);
      ctx.check(
        R.clientGravatar,
        avatars(res).size > 0 && nulls.length === 0,
        `users without an avatar URL: ${JSON.stringify(nulls)}`,
        res,
      );
    },
  }),
  scenario({
    id: 'events/register-include-subscribers-default',
    title: 'without include_subscribers no subscription carries subscribers',
    rules: [R.includeSubscribers, R.subscribersPresent],
    requires: { roles: ['member'] },
    when: (ctx) => registerOnce(ctx, ctx.as('member'), subs),
    then(ctx, res) {
      ctx.expectSuccess(R.includeSubscribers, res);
      const list = subscriptionsOf(res);
      const carrying = list.filter((s) => 'subscribers' in s || 'partial_subscribers' in s).map((s) => s.name);
      ctx.check(
        R.subscribersPresent,
        list.length > 0 && carrying.length === 0,
        `${list.length} subscriptions; with subscriber lists: ${JSON.stringify(carrying)}`,
        res,
      );
    },
  }),
  scenario({
    id: 'events/register-include-subscribers-true',
    title: 'include_subscribers true gives every subscription its subscribers',
    rules: [R.includeSubscribers, R.subscribersPresent],
    requires: { roles: ['member'], channels: ['public'] },
    when: (ctx) => registerOnce(ctx, ctx.as('member'), { ...subs, include_subscribers: 'true' }),
    then(ctx, res) {
      ctx.expectSuccess(R.includeSubscribers, res);
      const list = subscriptionsOf(res);
      const missing = list.filter((s) => !Array.isArray(s.subscribers)).map((s) => s.name);
      ctx.check(
        R.subscribersPresent,
        list.length > 0 && missing.length === 0,
        `subscriptions without a subscribers array: ${JSON.stringify(missing)}`,
        res,
      );
      const pub = ctx.channel('public');
      const listed = (byChannel(res).get(pub.stream_id)?.subscribers ?? []) as number[];
      const expected = userIds(ctx, pub.subscribers);
      const absent = expected.filter((id) => !listed.includes(id));
      ctx.check(
        R.subscribersPresent,
        absent.length === 0,
        `subscribers of ${pub.name} missing from the list: ${JSON.stringify(absent)}`,
        res,
      );
    },
  }),
  scenario({
    id: 'events/register-include-subscribers-partial',
    title: 'include_subscribers partial gives channels under 250 subscribers their full list',
    rules: [R.includeSubscribers, R.partialSubscribers, R.partialThreshold, R.level412],
    requires: { roles: ['member'], level: { from: 'include_subscribers_partial' } },
    async when(ctx) {
      const member = ctx.as('member');
      // A full answer before and after the partial one: on a shared server, other scenarios' channels may
      // gain subscribers or be archived meanwhile, so only channels the two full answers agree on are compared.
      const before = await registerOnce(ctx, member, { ...subs, include_subscribers: 'true' });
      const partial = await registerOnce(ctx, member, { ...subs, include_subscribers: 'partial' });
      const full = await registerOnce(ctx, member, { ...subs, include_subscribers: 'true' });
      return { before, partial, full };
    },
    then(ctx, { before, partial, full }) {
      ctx.expectSuccess(R.includeSubscribers, partial);
      ctx.check(R.level412, partial.status === 200, 'include_subscribers partial is accepted from level 412', partial);
      const complete = byChannel(full);
      const earlier = byChannel(before);
      const steady = (id: number) => {
        const a = earlier.get(id)?.subscribers;
        const b = complete.get(id)?.subscribers;
        return Array.isArray(a) && Array.isArray(b) && JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
      };
      const small = subscriptionsOf(partial).filter(
        (s) => typeof s.subscriber_count === 'number' && s.subscriber_count < 250 && steady(s.stream_id as number),
      );
      ctx.check(R.partialThreshold, small.length > 0, `${small.length} unchanged subscriptions under 250 subscribers`, partial);
      for (const s of small) {
        ctx.expectEqual(
          R.partialThreshold,
          sorted(s.subscribers),
          sorted(complete.get(s.stream_id as number)?.subscribers),
          `subscribers of ${String(s.name)} with partial`,
          partial,
        );
      }
      const big = subscriptionsOf(partial).filter((s) => !small.includes(s));
      for (const s of big)
        ctx.check(
          R.partialSubscribers,
          Array.isArray(s.subscribers) || Array.isArray(s.partial_subscribers),
          `${String(s.name)} carries subscribers or partial_subscribers`,
          partial,
        );
    },
  }),
  scenario({
    id: 'events/register-presence-default-legacy',
    title: 'without slim_presence, presences are keyed by email in the legacy form',
    rules: [R.slimPresence],
    requires: { roles: ['member'] },
    when: (ctx) => registerOnce(ctx, ctx.as('member'), presence),
    then(ctx, res) {
      ctx.expectSuccess(R.slimPresence, res);
      const keys = Object.keys((res.body.presences ?? {}) as object);
      const numeric = keys.filter((k) => /^\d+$/.test(k));
      ctx.check(
        R.slimPresence,
        keys.length > 0 && numeric.length === 0,
        `presence keys ${JSON.stringify(keys.slice(0, 5))}…: ${numeric.length} are user IDs`,
        res,
      );
    },
  }),
  scenario({
    id: 'events/register-presence-slim',
    title: 'slim_presence true keys presences by user ID',
    rules: [R.slimPresence],
    requires: { roles: ['member'] },
    when: (ctx) => registerOnce(ctx, ctx.as('member'), { ...presence, slim_presence: true }),
    then(ctx, res) {
      ctx.expectSuccess(R.slimPresence, res);
      const keys = Object.keys((res.body.presences ?? {}) as object);
      const other = keys.filter((k) => !/^\d+$/.test(k));
      ctx.check(
        R.slimPresence,
        keys.length > 0 && other.length === 0,
        `presence keys ${JSON.stringify(keys.slice(0, 5))}…: ${other.length} are not user IDs`,
        res,
      );
    },
  }),
  ...scenarios(
    [
      { days: undefined, label: 'default', window: 14, rules: [R.presenceHistory, R.presenceDefault] },
      { days: 1, label: '1-day', window: 1, rules: [R.presenceHistory] },
    ],
    (row) =>
      scenario({
        id: `events/register-presence-history-${row.label}`,
        title: `${row.days === undefined ? 'without presence_history_limit_days' : `with presence_history_limit_days ${row.days}`}, presence covers only the last ${row.window} day(s)`,
        rules: row.rules,
        requires: { roles: ['member'] },
        when: (ctx) => registerOnce(ctx, ctx.as('member'), { ...presence, slim_presence: true, presence_history_limit_days: row.days }),
        then(ctx, res) {
          ctx.expectSuccess(row.rules[0]!, res);
          for (const rule of row.rules) withinDays(ctx, rule, res, row.window);
        },
      }),
  ),
];
