import type { Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import { asObject, limits, ownChannel, ownUser, snapshotOf, textOf, type OwnChannel } from './support.js';

/**
 * Length limits at exactly the limit and one past it. §1 "Size limits advertised": clients take the
 * maximum sizes from register, so a value of exactly the advertised size must be accepted and kept
 * whole. The spec states no behaviour one past those limits (the reference server truncates topics and
 * refuses long names), so one past is checked only for what any reading allows: refused, or stored no
 * longer than the limit, never kept longer than the server advertised. status_text has a stated limit
 * (§8: 60; longer is BAD_REQUEST) — here through §4.4, an administrator setting another user's status.
 */

type LimitKey = 'max_message_length' | 'max_topic_length' | 'max_stream_name_length' | 'max_stream_description_length';

interface Row {
  key: string;
  what: string;
  limit: LimitKey;
  rules: string[];
  /** Makes the change with a text of the given length in the scenario's own channel. */
  apply(ctx: ScenarioContext, channel: OwnChannel, text: string): Promise<Reply>;
  /** The stored value as the server reads it back, after a successful `apply`. */
  readBack(ctx: ScenarioContext, channel: OwnChannel, res: Reply, text: string): Promise<unknown>;
}

/** A channel as its creator lists it (GET /streams), looked up by ID since a rename changes the name. */
async function listed(ctx: ScenarioContext, streamId: number): Promise<Record<string, unknown>> {
  const res = ctx.must(await ctx.as('member').get('/api/v1/streams', { include_all: true }), 'list channels');
  return asObject(((res.body.streams ?? []) as unknown[]).find((s) => asObject(s).stream_id === streamId));
}

async function fetched(ctx: ScenarioContext, res: Reply): Promise<Record<string, unknown>> {
  return ctx.must(await ctx.as('member').get(`/api/v1/messages/${String(res.body.id)}`, { apply_markdown: false }), 'fetch the message')
    .body;
}

const ROWS: Row[] = [
  {
    key: 'topic',
    what: 'a topic',
    limit: 'max_topic_length',
    rules: ['R1-10', 'R2.5-12'],
    apply: (ctx, ch, text) =>
      ctx.as('member').post('/api/v1/messages', { type: 'stream', to: ch.stream_id, topic: text, content: 'limit' }),
    readBack: async (ctx, _ch, res) => asObject((await fetched(ctx, res)).message).subject,
  },
  {
    key: 'message',
    what: 'a message',
    limit: 'max_message_length',
    rules: ['R1-10', 'R4.3-4'],
    apply: (ctx, ch, text) =>
      ctx.as('member').post('/api/v1/messages', { type: 'stream', to: ch.stream_id, topic: 'limits', content: text }),
    readBack: async (ctx, _ch, res) => (await fetched(ctx, res)).raw_content,
  },
  {
    key: 'channel-name',
    what: 'a channel name',
    limit: 'max_stream_name_length',
    rules: ['R1-10', 'R4.16-7'],
    apply: (ctx, ch, text) => ctx.as('administrator').patch(`/api/v1/streams/${ch.stream_id}`, { new_name: text }),
    readBack: async (ctx, ch) => (await listed(ctx, ch.stream_id)).name,
  },
  {
    key: 'channel-description',
    what: 'a channel description',
    limit: 'max_stream_description_length',
    rules: ['R1-10', 'R4.16-6'],
    apply: (ctx, ch, text) => ctx.as('administrator').patch(`/api/v1/streams/${ch.stream_id}`, { description: text }),
    readBack: async (ctx, ch) => (await listed(ctx, ch.stream_id)).description,
  },
];

const atLimit = scenarios(ROWS, (row) =>
  scenario({
    id: `blind-spots/${row.key}-at-max-length`,
    title: `${row.what} of exactly the advertised ${row.limit} is accepted and read back whole`,
    rules: row.rules,
    requires: { roles: ['member', 'administrator'] },
    async given(ctx) {
      const max = (await limits(ctx))[row.limit];
      return { max, channel: await ownChannel(ctx, 'member', `at ${row.key}`), text: textOf(ctx, `at ${row.key}`, max) };
    },
    when: (ctx, g) => row.apply(ctx, g.channel, g.text),
    async then(ctx, res, g) {
      ctx.expectSuccess('R1-10', res);
      if (res.body.result !== 'success') return;
      const stored = await row.readBack(ctx, g.channel, res, g.text);
      ctx.expectEqual(row.rules[1]!, stored, g.text, `${row.what} of ${g.max} characters read back`);
      ctx.check(
        'R1-10',
        stored === g.text,
        `${row.what} at the limit ${g.max} is kept whole (${typeof stored === 'string' ? stored.length : 'no'} characters stored)`,
      );
    },
  }),
);

const pastLimit = scenarios(ROWS, (row) =>
  scenario({
    id: `blind-spots/${row.key}-past-max-length`,
    title: `${row.what} one character past the advertised ${row.limit} is refused or stored no longer than the limit`,
    rules: ['R1-10'],
    requires: { roles: ['member', 'administrator'] },
    async given(ctx) {
      const max = (await limits(ctx))[row.limit];
      return { max, channel: await ownChannel(ctx, 'member', `past ${row.key}`), text: textOf(ctx, `past ${row.key}`, max + 1) };
    },
    when: (ctx, g) => row.apply(ctx, g.channel, g.text),
    async then(ctx, res, g) {
      if (res.body.result !== 'success') {
        ctx.check(
          'R1-10',
          res.status >= 400 && res.status < 500 && typeof res.body.code === 'string',
          `one past the limit refused with HTTP ${res.status} ${String(res.body.code)}`,
          res,
        );
        return;
      }
      const stored = await row.readBack(ctx, g.channel, res, g.text);
      ctx.check(
        'R1-10',
        typeof stored === 'string' && stored.length <= g.max,
        `accepted ${g.max + 1} characters and stored ${typeof stored === 'string' ? stored.length : JSON.stringify(stored)} (the advertised limit is ${g.max})`,
        res,
      );
    },
  }),
);

/** The status_text an administrator reads for a user (register's user_status). */
async function statusTextOf(ctx: ScenarioContext, userId: number): Promise<unknown> {
  const res = await snapshotOf(ctx, 'administrator', ['user_status']);
  return asObject(asObject(res.body.user_status)[String(userId)]).status_text;
}

const adminStatus = scenarios([60, 61] as const, (length) =>
  scenario({
    id: `blind-spots/admin-status-text-${length}`,
    title: `an administrator setting another user's status_text of ${length} characters is ${length === 60 ? 'accepted and read back' : 'BAD_REQUEST and changes nothing'}`,
    rules: length === 60 ? ['R8-1', 'R2.7-1', 'R4.4-3'] : ['R8-1', 'R4.4-5', 'R4.5-4'],
    requires: { roles: ['administrator'] },
    destructive: true,
    async given(ctx) {
      const user = await ownUser(ctx, `status limit ${length}`);
      const before = textOf(ctx, 'before', 20);
      ctx.must(await ctx.as('administrator').post(`/api/v1/users/${user.user_id}/status`, { status_text: before }), 'set a first status');
      return { user, before, text: textOf(ctx, 'status', length) };
    },
    when: (ctx, g) => ctx.as('administrator').post(`/api/v1/users/${g.user.user_id}/status`, { status_text: g.text }),
    async then(ctx, res, g) {
      const stored = await statusTextOf(ctx, g.user.user_id);
      if (length === 60) {
        ctx.expectSuccess('R8-1', res);
        ctx.expectEqual('R2.7-1', stored, g.text, 'the status_text of 60 characters read back');
        ctx.check('R4.4-3', res.body.result === 'success', 'status_text is a body parameter of §4.4', res);
      } else {
        ctx.expectError('R8-1', res, { status: 400, code: 'BAD_REQUEST' });
        ctx.check('R4.4-5', res.body.code === 'BAD_REQUEST', 'the §4.5 length rule holds for §4.4', res);
        ctx.expectEqual('R4.5-4', stored, g.before, 'the status_text after the refused update');
      }
    },
  }),
);

export default [...atLimit, ...pastLimit, ...adminStatus];
