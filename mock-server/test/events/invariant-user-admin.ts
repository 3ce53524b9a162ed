import type { MockServer } from '../../src/app.js';
import { call, type Reply, type Who } from '../helpers/test-server.js';
import type { Operation } from './invariant-operations.js';

/**
 * User administration (§4.7, §4.17) for the register/events invariant. invariant.test.ts runs
 * these last, in this order, on the shared demo realm. Every observer keeps its role in the end: each
 * role change is undone by the next operation. Only users who are not observers are deactivated
 * (demo users 17 and 18 have no world-file role).
 */
const ASHTON = 17;
const KIRA = 18;

async function ok(reply: Promise<Reply>): Promise<Reply> {
  const res = await reply;
  if (res.body.result !== 'success') throw new Error(`operation refused: ${res.text}`);
  return res;
}

const update = (s: MockServer, as: Who, userId: number, form: Record<string, string>) =>
  ok(call(s, 'PATCH', `/api/v1/users/${userId}`, { as, form }));
const deactivate = (s: MockServer, as: Who, userId: number) => ok(call(s, 'DELETE', `/api/v1/users/${userId}`, { as }));

export const USER_ADMIN_OPERATIONS: Operation[] = [
  {
    name: 'update-user: rename an observer',
    run: (s, w) => update(s, w.administrator!, w.member_2!.user_id, { full_name: '  Renamed Invariant  ' }),
  },
  { name: 'update-user: member to moderator', run: (s, w) => update(s, w.administrator!, w.member_2!.user_id, { role: '300' }) },
  { name: 'update-user: moderator back to member', run: (s, w) => update(s, w.administrator!, w.member_2!.user_id, { role: '400' }) },
  // An administrator sees every private channel's metadata and the owner's address (visibility 3).
  // Observers who once left a channel that a role change shows them again are not moved here: a new
  // register lists such a channel under `unsubscribed`, but `stream` / create cannot say so (the
  // reference server has the same gap). member_2 left only channels it never stops seeing.
  { name: 'update-user: member to administrator (by the owner)', run: (s, w) => update(s, w.owner!, w.member_2!.user_id, { role: '200' }) },
  { name: 'update-user: administrator back to member', run: (s, w) => update(s, w.owner!, w.member_2!.user_id, { role: '400' }) },
  { name: 'update-user: a non-observer to guest', run: (s, w) => update(s, w.administrator!, KIRA, { role: '600' }) },
  { name: 'update-user: guest back to member', run: (s, w) => update(s, w.administrator!, KIRA, { role: '400' }) },
  {
    name: 'update-user: owner role to a non-observer and back',
    run: async (s, w) => {
      await update(s, w.owner!, ASHTON, { role: '100' });
      return update(s, w.owner!, ASHTON, { role: '400' });
    },
  },
  {
    name: 'update-user: profile fields (set one, clear one)',
    run: (s, w) =>
      update(s, w.administrator!, w.member!.user_id, {
        profile_data: JSON.stringify([
          { id: 1, value: 'Invariant **team**' },
          { id: 3, value: null },
          { id: 2, value: 'xe/xem' },
        ]),
      }),
  },
  {
    name: 'update-user: email visible to everyone (the API email follows)',
    run: (s, w) => update(s, w.owner!, KIRA, { new_email: 'kira.new@demo.teamchat.test' }),
  },
  {
    name: "update-user: the owner's hidden email (delivery email only)",
    run: (s, w) => update(s, w.owner!, w.owner!.user_id, { new_email: 'owner.private@demo.teamchat.test' }),
  },
  {
    name: 'update-user: name, role and email at once',
    run: (s, w) => update(s, w.owner!, ASHTON, { full_name: 'Ashton Everything', role: '300', new_email: 'ashton.all@demo.teamchat.test' }),
  },
  { name: 'deactivate-user: a member with channels, an archived one among them', run: (s, w) => deactivate(s, w.administrator!, ASHTON) },
  { name: 'deactivate-user: a member whose API email changed', run: (s, w) => deactivate(s, w.owner!, KIRA) },
];
