import { doDeleteQueue, doGetEvents, doRegisterQueue, type QueueActor } from '../events/queue-actions.js';
import { notLoggedIn } from '../http/auth.js';
import { defineRoute, type GateContext, type RouteSpec } from '../http/define-routes.js';
import type { UserRow } from '../store/state.js';

/** The caller and the realm in the form the queue actions take (user null: an anonymous register). */
function queueActor<U extends UserRow | null>(
  { app, realmId, realm, tables, features, now }: GateContext,
  user: U,
): QueueActor & { user: U } {
  return {
    queues: app.queues,
    store: app.store,
    realmId,
    realm,
    tables,
    features,
    now,
    user,
    maxFileUploadMib: app.config.maxFileUploadMib,
  };
}

const routes: RouteSpec[] = [
  defineRoute('register-queue', {
    // §5, C21: anonymous register only where the realm allows public access (then without a queue).
    // An authentication answer, so it comes before any parameter is read.
    gate: ({ actor, realm }) => {
      if (!actor && !realm.enable_spectator_access) throw notLoggedIn();
    },
    handle: (ctx) => doRegisterQueue(queueActor(ctx, ctx.actor?.user ?? null), ctx.params),
  }),
  defineRoute('get-events', {
    handle: (ctx) => doGetEvents(queueActor(ctx, ctx.actor.user), ctx.params, ctx.signal),
  }),
  defineRoute('delete-queue', {
    handle: (ctx) => {
      doDeleteQueue(queueActor(ctx, ctx.actor.user), ctx.params);
      return {};
    },
  }),
];

export default routes;
