import { call, type Reply } from '../helpers/test-server.js';
import type { Operation } from './invariant-operations.js';

/**
 * Operations for the register/events invariant (invariant.test.ts runs them after the others, in
 * order): creating a user (§4.10). Every observer learns of the account (realm_user / add), its role
 * group (user_group / add_members) and, where they may know subscribers, its default channels
 * (subscription / peer_add). Reads change nothing, so they are not listed.
 */
async function ok(reply: Promise<Reply>): Promise<Reply> {
  const res = await reply;
  if (res.body.result !== 'success') throw new Error(`operation refused: ${res.text}`);
  return res;
}

export const USER_OPERATIONS: Operation[] = [
  {
    name: 'create-user',
    run: (s, w) =>
      ok(
        call(s, 'POST', '/api/v1/users', {
          as: w.administrator!,
          form: { email: 'invariant.newcomer@demo.teamchat.test', password: 'long enough', full_name: '  Invariant Newcomer ' },
        }),
      ),
  },
  {
    name: 'create-user: by the owner, multipart (the JavaScript client)',
    run: (s, w) =>
      ok(
        call(s, 'POST', '/api/v1/users', {
          as: w.owner!,
          multipart: { email: 'second.newcomer@demo.teamchat.test', password: 'another one', full_name: 'Second Newcomer' },
        }),
      ),
  },
];
