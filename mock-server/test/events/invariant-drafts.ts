import { call, type Reply } from '../helpers/test-server.js';
import type { Operation } from './invariant-operations.js';

/**
 * Operations for the register/events invariant (invariant.test.ts runs them after the others, in
 * order): drafts (§4.6 and its companions). Per-user data: only the owner's snapshot may change, and the
 * snapshot's order (newest first) must follow edits that move a draft's timestamp.
 */
async function ok(reply: Promise<Reply>): Promise<Reply> {
  const res = await reply;
  if (res.body.result !== 'success') throw new Error(`operation refused: ${res.text}`);
  return res;
}

/** The IDs the batch created, in input order, for the operations after it. */
let ids: number[] = [];

export const DRAFT_OPERATIONS: Operation[] = [
  {
    name: 'create-drafts: channel (empty topic), direct and unaddressed',
    run: async (s, w) => {
      const drafts = [
        { type: 'stream', to: [51], topic: '', content: 'Channel **draft**' },
        {
          type: 'private',
          to: [w.member_2!.user_id, w.guest!.user_id],
          topic: 'ignored',
          content: 'Direct draft',
          timestamp: 4_000_000_000,
        },
        { type: 'private', to: [], topic: '', content: 'Nobody yet' },
      ];
      const res = await ok(call(s, 'POST', '/api/v1/drafts', { as: w.member!, form: { drafts: JSON.stringify(drafts) } }));
      ids = res.body.ids as number[];
    },
  },
  {
    name: 'edit-draft: new topic and an old timestamp (moves to the end of the snapshot)',
    run: (s, w) =>
      ok(
        call(s, 'PATCH', `/api/v1/drafts/${ids[0]!}`, {
          as: w.member!,
          form: { draft: JSON.stringify({ type: 'stream', to: [51], topic: 'later', content: 'Edited', timestamp: 1_000 }) },
        }),
      ),
  },
  {
    name: 'edit-draft: direct to unaddressed (query string, as the JavaScript client sends PATCH)',
    run: (s, w) =>
      ok(
        call(s, 'PATCH', `/api/v1/drafts/${ids[1]!}`, {
          as: w.member!,
          query: { draft: JSON.stringify({ type: '', to: [w.member_2!.user_id], topic: 'x', content: 'Undecided' }) },
        }),
      ),
  },
  { name: 'delete-draft', run: (s, w) => ok(call(s, 'DELETE', `/api/v1/drafts/${ids[2]!}`, { as: w.member! })) },
  {
    name: 'create-drafts: another user',
    run: (s, w) =>
      ok(
        call(s, 'POST', '/api/v1/drafts', {
          as: w.member_2!,
          form: { drafts: JSON.stringify([{ type: 'stream', to: [51], topic: 'mine', content: 'Hi' }]) },
        }),
      ),
  },
];
