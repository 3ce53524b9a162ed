import type { MockServer } from '../../src/app.js';
import { call, type Reply, type Who } from '../helpers/test-server.js';
import type { Operation } from './invariant-operations.js';

/**
 * Linkifier operations for the register/events invariant (invariant.test.ts runs them after the
 * others, in order, on the shared demo realm): every change re-sends the whole list as realm_linkifiers
 * (spec §2.11, §4.18), and the snapshot's order must follow reorders.
 */
async function ok(reply: Promise<Reply>): Promise<Reply> {
  const res = await reply;
  if (res.body.result !== 'success') throw new Error(`operation refused: ${res.text}`);
  return res;
}

/** IDs the add operations hand to the later ones. */
const made: Record<string, number> = {};

const addLinkifier = async (s: MockServer, as: Who, key: string, pattern: string, urlTemplate: string) => {
  const res = await ok(call(s, 'POST', '/api/v1/realm/filters', { as, form: { pattern, url_template: urlTemplate } }));
  made[key] = res.body.id as number;
  return res;
};

export const LINKIFIER_OPERATIONS: Operation[] = [
  {
    name: 'add-linkifier: first',
    run: (s, w) => addLinkifier(s, w.administrator!, 'rt', 'RT-(?P<id>\\d+)', 'https://rt.example.com/{id}'),
  },
  {
    name: 'add-linkifier: second',
    run: (s, w) =>
      addLinkifier(s, w.owner!, 'jira', '(?P<project>[A-Z]{2,5})-(?P<id>\\d+)', 'https://jira.example.com/browse/{project}-{id}'),
  },
  {
    name: 'update-linkifier',
    run: (s, w) =>
      ok(
        call(s, 'PATCH', `/api/v1/realm/filters/${made.rt}`, {
          as: w.administrator!,
          form: { pattern: 'RT-(?P<id>\\d+)', url_template: 'https://rt.example.com/Ticket/Display.html?id={id}' },
        }),
      ),
  },
  {
    name: 'reorder-linkifiers: reversed',
    run: async (s, w) => {
      const listed = await ok(call(s, 'GET', '/api/v1/realm/linkifiers', { as: w.administrator! }));
      const ids = (listed.body.linkifiers as { id: number }[]).map((l) => l.id).reverse();
      return ok(call(s, 'PATCH', '/api/v1/realm/linkifiers', { as: w.owner!, form: { ordered_linkifier_ids: JSON.stringify(ids) } }));
    },
  },
  { name: 'remove-linkifier', run: (s, w) => ok(call(s, 'DELETE', `/api/v1/realm/filters/${made.jira}`, { as: w.administrator! })) },
];
