import type { Features } from '../config/features.js';
import type { RealmRow, RealmState } from '../store/state.js';
import type { AppContext } from '../app-context.js';
import type { ActorContext } from '../domain/actor.js';
import type { Tx } from '../store/store.js';
import type { Actor } from './auth.js';

/** What a handler gets: the caller, the realm, its time and feature level, and the decoded parameters. */
export interface RequestContext {
  app: AppContext;
  /** null for anonymous access (register and server_settings only, spec §5). */
  actor: Actor | null;
  realmId: string;
  tables: RealmState;
  realm: RealmRow;
  features: Features;
  /** The realm's time, UNIX seconds (injected clock). */
  now: number;
  params: Record<string, unknown>;
  /** The User-Agent, e.g. for the read_by_sender heuristic (reference §4.1). */
  client: string;
  /** Aborts when the client goes away before the answer (ends a long-poll early). */
  signal: AbortSignal;
}

export type GateContext = Omit<RequestContext, 'params'>;

/**
 * A route binds an operationId of the OpenAPI document to one handler. Method, path and parameter
 * validation come from the document; the route holds no rules of its own (ARCHITECTURE §4).
 */
export interface RouteSpec {
  operationId: string;
  /** Checks that run after authentication and before parameter parsing (reference "Order of checks" 1). */
  gate?(ctx: GateContext): void;
  handle(ctx: RequestContext): Promise<Record<string, unknown>> | Record<string, unknown>;
}

export function defineRoutes(routes: RouteSpec[]): RouteSpec[] {
  return routes;
}

/**
 * Runs a domain action as one transaction of the caller's realm (the only way routes change state). The
 * action sees the caller and the realm as they are inside the transaction, not as they were when the
 * request arrived.
 */
export function transactAs<T>(ctx: RequestContext, action: (tx: Tx, actor: ActorContext) => T): Promise<T> {
  return ctx.app.store.transact(ctx.realmId, (tx) => {
    const user = tx.tables.users[String(ctx.actor!.user.user_id)]!;
    return action(tx, { realm: tx.tables.realm.realm, user, features: ctx.features, now: ctx.now });
  });
}
