import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import type { Tx } from '../../src/store/store.js';
import { applyEvents, comparable, snapshotDiff } from '../../../conformance/src/explore/reducers/index.js';
import { CHANNEL_OPERATIONS, MESSAGE_OPERATIONS, SCHEDULED_OPERATIONS, type Operation } from './invariant-operations.js';
import { DRAFT_OPERATIONS } from './invariant-drafts.js';
import { LINKIFIER_OPERATIONS } from './invariant-linkifiers.js';
import { PERSONAL_OPERATIONS } from './invariant-personal.js';
import { STATUS_OPERATIONS } from './invariant-status.js';
import { USER_ADMIN_OPERATIONS } from './invariant-user-admin.js';
import { USER_OPERATIONS } from './invariant-users.js';
import { FLAGS_REACTIONS_OPERATIONS } from './invariant-flags-reactions.js';
import { EDIT_OPERATIONS } from './invariant-edits.js';
import { call, credentials, startTestServer, type Who } from '../helpers/test-server.js';
import { REGISTER_EVERY_CAPABILITY, REGISTER_NO_CAPABILITY } from '../helpers/register-form.js';

/**
 * The register/events invariant (reference server style; ARCHITECTURE "invariant test"): for every
 * state-changing operation, the register snapshot taken before, with the events delivered since
 * applied, equals the snapshot taken after, for every observer. It catches actions that forget an
 * event, send a wrong one, or send it to the wrong people.
 *
 * OPERATIONS lists the API operations that change state (invariant-operations.ts); each resource issue
 * adds its operations there and their event reducers to conformance/src/explore/reducers/. The stand-in
 * transactions below prove that the harness itself fails when an event is missing or misdirected.
 */
const OPERATIONS: Operation[] = [
  ...CHANNEL_OPERATIONS,
  ...MESSAGE_OPERATIONS,
  ...SCHEDULED_OPERATIONS,
  ...STATUS_OPERATIONS,
  ...DRAFT_OPERATIONS,
  ...PERSONAL_OPERATIONS,
  ...LINKIFIER_OPERATIONS,
  ...FLAGS_REACTIONS_OPERATIONS,
  ...EDIT_OPERATIONS,
  ...USER_OPERATIONS,
  // Last: deactivations and role changes alter who may do what for everything after them.
  ...USER_ADMIN_OPERATIONS,
];

const ROLES = ['owner', 'administrator', 'moderator', 'member', 'member_2', 'member_3', 'guest', 'bot'];
/**
 * Every role as a modern client (every capability), and some also as a legacy one (no register options at
 * all), whose snapshot and events come in the old shapes: one message_id per deletion, no archived
 * channels, legacy presence and settings events, the empty topic's display name, no subscriber lists.
 * Four legacy observers, not eight, keep the file's run time reasonable; these four see every kind of change
 * (an administrator, a member with a muted channel and mentions, a member with topic policies, a guest).
 */
const LEGACY_ROLES = ['administrator', 'member', 'member_3', 'guest'];
const OBSERVERS = [
  ...ROLES.map((role) => ({ label: role, role, form: REGISTER_EVERY_CAPABILITY })),
  ...LEGACY_ROLES.map((role) => ({ label: `${role} (no capabilities)`, role, form: REGISTER_NO_CAPABILITY })),
];

let server: MockServer;
let who: Record<string, Who & { user_id: number }>;
beforeAll(async () => {
  server = await startTestServer();
  who = credentials(server);
});
afterAll(() => server.close());

async function checkInvariant(change: () => Promise<unknown>): Promise<void> {
  const before = new Map<string, { snapshot: Record<string, unknown>; queueId: string }>();
  for (const { label, role, form } of OBSERVERS) {
    const res = await call(server, 'POST', '/api/v1/register', { as: who[role]!, form });
    before.set(label, { snapshot: res.body, queueId: res.body.queue_id as string });
  }
  await change();
  for (const { label, role, form } of OBSERVERS) {
    const { snapshot, queueId } = before.get(label)!;
    const polled = await call(server, 'GET', '/api/v1/events', {
      as: who[role]!,
      query: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' },
    });
    const events = polled.body.events as (Record<string, unknown> & { type: string })[];
    const after = await call(server, 'POST', '/api/v1/register', { as: who[role]!, form });
    // Both queues go at once: every check opens two per observer, and the server caps queues per user.
    for (const id of [queueId, after.body.queue_id as string]) {
      await call(server, 'DELETE', '/api/v1/events', { as: who[role]!, form: { queue_id: id } });
    }
    const applied = applyEvents(snapshot, events);
    // Keys the events cannot tell (max_message_id after the newest message went) are left out on both sides.
    const [reduced, fresh] = [comparable(applied), comparable(after.body, applied)];
    // Identical JSON is equal; only otherwise is the (slower) deep comparison needed, and the paths that differ.
    if (JSON.stringify(reduced) === JSON.stringify(fresh)) continue;
    const paths = snapshotDiff(reduced, fresh, 5).map((d) => d.path);
    expect(reduced, `observer ${label} (${paths.join(', ')})`).toEqual(fresh);
  }
}

const transact = (fn: (tx: Tx) => void) => () => server.context.store.transact('demo', fn);

describe('register/events invariant', () => {
  it.each(OPERATIONS.map((op) => [op.name, op] as const))('%s keeps snapshot + events = new snapshot', async (_name, op) => {
    await checkInvariant(() => op.run(server, who));
  });

  it('holds for a change that emits the right event to the right user (stand-in for a future action)', async () => {
    const member = who.member!;
    await checkInvariant(
      transact((tx) => {
        const id = tx.nextId('saved_snippets');
        const snippet = { id, user_id: member.user_id, title: 'Greeting', content: 'Hello!', date_created: 1_767_603_600 };
        tx.put('saved_snippets', id, snippet);
        const { user_id: _u, ...wire } = snippet;
        tx.emit({ type: 'saved_snippets', op: 'add', saved_snippet: wire }, [member.user_id]);
      }),
    );
  });

  it('catches a change that forgets its event', async () => {
    const member = who.member!;
    await expect(
      checkInvariant(
        transact((tx) => {
          const id = tx.nextId('saved_snippets');
          tx.put('saved_snippets', id, { id, user_id: member.user_id, title: 'Silent', content: 'x', date_created: 1_767_603_600 });
        }),
      ),
    ).rejects.toThrow(/observer member/);
  });

  it('catches an event sent to the wrong user', async () => {
    const member = who.member!;
    await expect(
      checkInvariant(
        transact((tx) => {
          const id = tx.nextId('saved_snippets');
          const snippet = { id, user_id: member.user_id, title: 'Misdirected', content: 'x', date_created: 1_767_603_600 };
          tx.put('saved_snippets', id, snippet);
          tx.emit(
            { type: 'saved_snippets', op: 'add', saved_snippet: { id, title: 'Misdirected', content: 'x', date_created: 1_767_603_600 } },
            [who.member_2!.user_id],
          );
        }),
      ),
    ).rejects.toThrow(/observer/);
  });
});
