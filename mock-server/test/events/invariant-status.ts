import type { MockServer } from '../../src/app.js';
import { call, type Reply, type Who } from '../helpers/test-server.js';
import type { Operation } from './invariant-operations.js';

async function ok(reply: Promise<Reply>): Promise<Reply> {
  const res = await reply;
  if (res.body.result !== 'success') throw new Error(`operation refused: ${res.text}`);
  return res;
}

const setOwn = (s: MockServer, as: Who, form: Record<string, string>) => ok(call(s, 'POST', '/api/v1/users/me/status', { as, form }));

/** The demo realm's active custom emoji (fixtures: one active, one deactivated). */
function activeCustomEmoji(s: MockServer): { name: string; id: number } {
  const row = Object.values(s.context.store.realm('demo')!.custom_emoji).find((e) => !e.deactivated);
  if (!row) throw new Error('the demo realm has no active custom emoji');
  return row;
}

/**
 * Status operations (§4.4, §4.5) for the register/events invariant: user_status events for
 * everyone, and for away the user_settings event to the user and the presence event (both directions:
 * the user leaves the snapshot's presences and comes back). member ends with away false, as it started.
 */
export const STATUS_OPERATIONS: Operation[] = [
  {
    name: 'update-status: own text and emoji by name alone',
    run: (s, w) => setOwn(s, w.member_2!, { status_text: 'Invariant text', emoji_name: 'car' }),
  },
  { name: 'update-status: clear the emoji', run: (s, w) => setOwn(s, w.member_2!, { emoji_name: '' }) },
  { name: 'update-status: away true', run: (s, w) => setOwn(s, w.member!, { away: 'true' }) },
  { name: 'update-status: away false', run: (s, w) => setOwn(s, w.member!, { away: 'false', status_text: '' }) },
  {
    name: "update-status-for-user: an administrator sets a member's status",
    run: (s, w) =>
      ok(
        call(s, 'POST', `/api/v1/users/${w.member_3!.user_id}/status`, {
          as: w.administrator!,
          form: { status_text: 'Set for you', emoji_name: 'computer', emoji_code: '1f4bb', reaction_type: 'unicode_emoji' },
        }),
      ),
  },
  {
    name: 'update-status: a custom emoji',
    run: (s, w) => {
      const custom = activeCustomEmoji(s);
      return setOwn(s, w.guest!, { emoji_name: custom.name, emoji_code: String(custom.id), reaction_type: 'realm_emoji' });
    },
  },
  { name: 'update-status: the service extra emoji', run: (s, w) => setOwn(s, w.owner!, { status_text: 'Extra', emoji_name: 'teamchat' }) },
];
