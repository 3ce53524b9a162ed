import { scenario } from '../../src/dsl.js';
import { asArray, asObject, expectFields, isInt, isIntArray } from './support.js';

/**
 * Spec §8 limits that a client can observe: the unread_msgs snapshot (at most 50000 messages; its shape
 * from §2.13), and the size limits register advertises (§1 "Size limits advertised"). The status_text
 * limit is in status-rules.ts, the report description (1000 characters) in success-messages.ts.
 */

const ascending = (ids: number[]) => ids.every((id, i) => i === 0 || ids[i - 1]! < id);

export default [
  scenario({
    id: 'errors/unread-msgs-shape',
    title: 'register with message and update_message_flags returns unread_msgs in the documented shape',
    rules: ['R4.21-29', 'R2.13-2', 'R2.13-3', 'R2.13-4', 'R2.13-5', 'R2.13-6', 'R2.13-7', 'R8-8'],
    when: (ctx) => ctx.snapshot('member', { event_types: ['message', 'update_message_flags'] }),
    then: (ctx, res) => {
      ctx.expectSuccess('R4.21-29', res);
      const u = asObject(res.body.unread_msgs);
      ctx.check('R4.21-29', 'unread_msgs' in res.body, 'unread_msgs is present', res);
      ctx.check('R2.13-2', isInt(u.count), `count ${JSON.stringify(u.count)}`, res);
      const pms = asArray(u.pms);
      const streams = asArray(u.streams);
      const huddles = asArray(u.huddles);
      ctx.check(
        'R2.13-3',
        Array.isArray(u.pms) &&
          pms.every(
            (p) => isInt(p.other_user_id) && isInt(p.sender_id) && isIntArray(p.unread_message_ids) && ascending(p.unread_message_ids),
          ),
        `pms entries: ${JSON.stringify(u.pms)?.slice(0, 200)}`,
        res,
      );
      ctx.check(
        'R2.13-4',
        Array.isArray(u.streams) &&
          streams.every(
            (s) => typeof s.topic === 'string' && isInt(s.stream_id) && isIntArray(s.unread_message_ids) && ascending(s.unread_message_ids),
          ),
        `streams entries: ${JSON.stringify(u.streams)?.slice(0, 200)}`,
        res,
      );
      const me = String(ctx.user('member').user_id);
      ctx.check(
        'R2.13-5',
        Array.isArray(u.huddles) &&
          huddles.every((h) => {
            const ids = typeof h.user_ids_string === 'string' ? h.user_ids_string.split(',').map(Number) : [];
            return ids.includes(Number(me)) && ascending(ids) && isIntArray(h.unread_message_ids);
          }),
        `huddles entries: ${JSON.stringify(u.huddles)?.slice(0, 200)}`,
        res,
      );
      ctx.check('R2.13-6', isIntArray(u.mentions), `mentions ${JSON.stringify(u.mentions)?.slice(0, 100)}`, res);
      const count = (list: Record<string, unknown>[]) =>
        list.reduce((n, x) => n + (isIntArray(x.unread_message_ids) ? x.unread_message_ids.length : 0), 0);
      const direct = count(pms) + count(huddles);
      const all = direct + count(streams);
      // count = direct messages plus unmuted channel messages: between the direct ones and everything listed.
      ctx.check(
        'R2.13-2',
        isInt(u.count) && u.count >= direct && u.count <= all,
        `count ${String(u.count)} with ${direct} direct and ${all} listed unread messages`,
        res,
      );
      ctx.check('R2.13-7', all <= 50_000, `${all} unread messages listed (at most 50000)`, res);
      ctx.check('R8-8', all <= 50_000, 'unread_msgs covers at most 50000 messages', res);
    },
  }),
  scenario({
    id: 'errors/size-limits-advertised',
    title: 'register advertises max_message_length, max_topic_length, max_stream_name_length and max_stream_description_length',
    rules: ['R1-10'],
    when: (ctx) => ctx.snapshot('member', { event_types: ['realm'], fetch_event_types: ['realm'] }),
    then: (ctx, res) => {
      ctx.expectSuccess('R1-10', res);
      expectFields(
        ctx,
        'R1-10',
        res.body,
        {
          max_message_length: 'integer',
          max_topic_length: 'integer',
          max_stream_name_length: 'integer',
          max_stream_description_length: 'integer',
        },
        'size limits',
        res,
      );
      const positive = ['max_message_length', 'max_topic_length', 'max_stream_name_length', 'max_stream_description_length'].every(
        (k) => isInt(res.body[k]) && (res.body[k] as number) > 0,
      );
      ctx.check('R1-10', positive, 'every advertised limit is a positive integer', res);
    },
  }),
];
