import type { Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import { asArray, asObject, isInt, ownChannel, sendTo, snapshotOf } from './support.js';

/**
 * IDs are integers, not strings that look like numbers, in every success body that returns one (§2,
 * §4: "integer"): each creation's answer, and the IDs inside the objects read back. Each row calls the
 * operation in `when` so a wrong type is a failure of its rule, not a setup error.
 */

interface Row {
  key: string;
  what: string;
  rule: string;
  call(ctx: ScenarioContext): Promise<Reply>;
  /** The IDs to check, by name. */
  ids(res: Reply): Record<string, unknown>;
}

async function later(ctx: ScenarioContext): Promise<number> {
  return (await ctx.serverTime()) + 7 * 86_400;
}

const ROWS: Row[] = [
  {
    key: 'scheduled-message',
    what: 'creating a scheduled message',
    rule: 'R4.1-7',
    async call(ctx) {
      const ch = await ownChannel(ctx, 'member', 'id scheduled');
      const res = await ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'stream',
        to: ch.stream_id,
        topic: 'ids',
        content: 'later',
        scheduled_delivery_timestamp: await later(ctx),
      });
      const id = Number(res.body.scheduled_message_id);
      if (Number.isInteger(id)) ctx.defer(() => ctx.as('member').delete(`/api/v1/scheduled_messages/${id}`));
      return res;
    },
    ids: (res) => ({ scheduled_message_id: res.body.scheduled_message_id }),
  },
  {
    key: 'drafts',
    what: 'creating drafts',
    rule: 'R4.6-2',
    async call(ctx) {
      const res = await ctx
        .as('member_3')
        .post('/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content: ctx.unique('id draft') }] });
      for (const id of Array.isArray(res.body.ids) ? res.body.ids : [])
        ctx.defer(() => ctx.as('member_3').delete(`/api/v1/drafts/${String(id)}`));
      return res;
    },
    ids: (res) => ({ ids: res.body.ids }),
  },
  {
    key: 'reminder',
    what: 'creating a reminder',
    rule: 'R4.19-3',
    async call(ctx) {
      const ch = await ownChannel(ctx, 'member', 'id reminder');
      const message = await sendTo(ctx, 'member', ch.stream_id, 'ids', 'remind me');
      const res = await ctx
        .as('member')
        .post('/api/v1/reminders', { message_id: message, scheduled_delivery_timestamp: await later(ctx), note: 'ids' });
      const id = Number(res.body.reminder_id);
      if (Number.isInteger(id)) ctx.defer(() => ctx.as('member').delete(`/api/v1/reminders/${id}`));
      return res;
    },
    ids: (res) => ({ reminder_id: res.body.reminder_id }),
  },
  {
    key: 'topics',
    what: "listing a channel's topics",
    rule: 'R4.11-2',
    async call(ctx) {
      const ch = await ownChannel(ctx, 'member', 'id topics');
      await sendTo(ctx, 'member', ch.stream_id, 'ids', 'x');
      return ctx.as('member').get(`/api/v1/users/me/${ch.stream_id}/topics`);
    },
    ids: (res) => ({ 'topics[0].max_id': asArray(res.body.topics)[0]?.max_id }),
  },
  {
    key: 'fetched-message',
    what: 'fetching a message',
    rule: 'R2.5-1',
    async call(ctx) {
      const ch = await ownChannel(ctx, 'member', 'id message');
      const id = await sendTo(ctx, 'member', ch.stream_id, 'ids', 'x');
      return ctx.as('member').get(`/api/v1/messages/${id}`);
    },
    ids: (res) => {
      const m = asObject(res.body.message);
      return { 'message.id': m.id, 'message.stream_id': m.stream_id, 'message.sender_id': m.sender_id };
    },
  },
  {
    key: 'register-subscriptions',
    what: 'register',
    rule: 'R4.21-21',
    async call(ctx) {
      await ownChannel(ctx, 'member', 'id register');
      return snapshotOf(ctx, 'member', ['subscription'], { include_subscribers: true });
    },
    ids: (res) => {
      const subs = asArray(res.body.subscriptions);
      return {
        last_event_id: res.body.last_event_id,
        'every subscriptions[].stream_id': subs.length > 0 && subs.every((s) => isInt(s.stream_id)) ? 1 : subs.map((s) => s.stream_id),
        'every subscribers[] entry': subs.every((s) => asArray(s.subscribers).length === 0 || (s.subscribers as unknown[]).every(isInt))
          ? 1
          : 'a non-integer',
      };
    },
  },
];

export default scenarios(ROWS, (row) =>
  scenario({
    id: `blind-spots/integer-ids-${row.key}`,
    title: `${row.what} answers its IDs as integers`,
    rules: [row.rule],
    requires: { roles: ['member', 'member_3'] },
    when: (ctx) => row.call(ctx),
    then(ctx, res) {
      ctx.expectSuccess(row.rule, res);
      for (const [name, value] of Object.entries(row.ids(res))) {
        const ok = Array.isArray(value) ? value.length > 0 && value.every(isInt) : isInt(value);
        ctx.check(
          row.rule,
          ok,
          `${name} ${JSON.stringify(value)} is ${ok ? '' : 'not '}an integer${Array.isArray(value) ? ' list' : ''}`,
          res,
        );
      }
    },
  }),
);
