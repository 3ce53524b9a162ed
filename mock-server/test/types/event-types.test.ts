import { describe, expectTypeOf, it } from 'vitest';
import type { EmittedEvent, EventOf, EventType, WireEvent, WireEventOf } from '../../src/contract/event-types.js';
import type { SchemaOf } from '../../src/contract/operation-types.js';
import { presentChannel } from '../../src/domain/present/channels.js';
import { presentMessage, viewMessage } from '../../src/domain/present/messages.js';
import { presentSubscription } from '../../src/domain/present/subscriptions.js';
import { presentUser } from '../../src/domain/present/users.js';
import { presentSavedSnippet } from '../../src/domain/saved-snippets.js';
import type { SavedSnippetRow } from '../../src/store/state.js';
import type { Tx } from '../../src/store/store.js';

/**
 * The way out is typed from the document (contract/event-types.ts, operations.generated.ts): an emitted
 * event, a presenter's answer and a test reducer that get a field wrong do not compile. `npm run
 * typecheck` checks this file; each `@ts-expect-error` fails it when the line below it compiles.
 */

// Never called: what matters is which of these lines compile.
export function emits(tx: Tx): void {
  tx.emit({ type: 'drafts', op: 'remove', draft_id: 1 }, [1]);
  // @ts-expect-error a field the document does not name for the event
  tx.emit({ type: 'drafts', op: 'remove', draft_id: 1, draft_ids: [1] }, [1]);
  // @ts-expect-error a required field missing
  tx.emit({ type: 'drafts', op: 'remove' }, [1]);
  // @ts-expect-error a field of the wrong type
  tx.emit({ type: 'reminders', op: 'remove', reminder_id: '1' }, [1]);
  // @ts-expect-error an op the document does not describe for the type
  tx.emit({ type: 'drafts', op: 'delete', draft_id: 1 }, [1]);
  // @ts-expect-error a type the document does not describe
  tx.emit({ type: 'draft', op: 'remove', draft_id: 1 }, [1]);
  // A nested object is checked too: a subscription's channel fields come from the Subscription schema.
  // @ts-expect-error subscriptions / remove names each channel by name and stream_id, not id
  tx.emit({ type: 'subscription', op: 'remove', subscriptions: [{ name: 'a', id: 1 }] }, [1]);
  // Keys starting with `_` are for shaping (events/shape.ts removes them) and may be added to any event.
  tx.emit({ type: 'user_settings', op: 'update', property: 'presence_enabled', value: true, _user_email: 'a@x.test' }, [1]);
  // The per-client form (legacy shapes) is a described event too.
  tx.emit({ type: 'drafts', op: 'remove', draft_id: 1 }, [1], () => ({ type: 'drafts', op: 'remove', draft_id: 2 }));
  // @ts-expect-error a wrong field in the per-client form
  tx.emit({ type: 'drafts', op: 'remove', draft_id: 1 }, [1], () => ({ type: 'drafts', op: 'remove', draftId: 2 }));
}

// A presenter declared with the document's schema cannot answer a field the schema does not name.
export const wrongPresenter = (row: SavedSnippetRow): SchemaOf<'SavedSnippet'> => ({
  id: row.id,
  title: row.title,
  content: row.content,
  date_created: row.date_created,
  // @ts-expect-error not a field of SavedSnippet
  created: row.date_created,
});

// Nor leave out one it requires.
// @ts-expect-error date_created missing
export const incompletePresenter = (row: SavedSnippetRow): SchemaOf<'SavedSnippet'> => ({
  id: row.id,
  title: row.title,
  content: row.content,
});

/** A client's reducers typed from the document: each takes its type's events as described (with the queue's `id`). */
type Reducers = { [T in EventType]?: (s: Record<string, unknown>, e: WireEventOf<T> & { id: number }) => void };

// A reducer typed from the document cannot read a field the event has not.
export const reducers: Reducers = {
  reminders: (_s, e) => {
    if (e.op === 'remove') return;
    // @ts-expect-error reminders / add carries `reminders`, not `reminder`
    void e.reminder;
  },
};

describe('event and presenter types follow the document', () => {
  it('names each event by type and op', () => {
    expectTypeOf<EventOf<'subscription', 'add'>['subscriptions']>().toEqualTypeOf<SchemaOf<'Subscription'>[]>();
    expectTypeOf<WireEventOf<'stream', 'delete'>['stream_ids']>().toEqualTypeOf<number[]>();
    expectTypeOf<EventOf<'message'>>().toMatchTypeOf<EmittedEvent>();
    expectTypeOf<WireEventOf<'message'>['message']>().toEqualTypeOf<SchemaOf<'MessageFields'>>();
    // The queue assigns `id`: an event is emitted without it.
    expectTypeOf<WireEvent>().not.toHaveProperty('id');
  });

  it('presenters answer the schemas', () => {
    expectTypeOf(presentChannel).returns.toEqualTypeOf<SchemaOf<'Channel'>>();
    expectTypeOf(presentSubscription).returns.toEqualTypeOf<SchemaOf<'Subscription'>>();
    expectTypeOf(presentUser).returns.toEqualTypeOf<SchemaOf<'User'>>();
    expectTypeOf(presentSavedSnippet).returns.toEqualTypeOf<SchemaOf<'SavedSnippet'>>();
    expectTypeOf(viewMessage).returns.toEqualTypeOf<SchemaOf<'MessageFields'>>();
    // What events carry before a reader is known: both content forms, no content_type yet.
    expectTypeOf(presentMessage).returns.toHaveProperty('rendered_content');
  });
});
