import type { Features } from '../config/features.js';
import type { RealmRow, RealmState } from '../store/state.js';
import type { AppContext } from '../app-context.js';
import type { ActorContext } from '../domain/actor.js';
import type { Tx } from '../store/store.js';
import type { CachePolicy } from './answer-cache.js';
import type { Actor } from './auth.js';
import type { UploadedFile } from '../domain/live/uploads.js';
import type { AnonymousOperationId, AnswerOf, OperationId, ParamsOf } from '../contract/operation-types.js';
import type { Hangup } from '../contract/hangup.js';

/** The caller: null only for operations the document opens to anonymous access (register, server_settings, §5). */
export type CallerOf<Id extends OperationId> = Id extends AnonymousOperationId ? Actor | null : Actor;

/** What a gate gets: the caller, the realm, its time and feature level; no parameters yet. */
export interface GateContext<Id extends OperationId = OperationId> {
  app: AppContext;
  actor: CallerOf<Id>;
  realmId: string;
  tables: RealmState;
  realm: RealmRow;
  features: Features;
  /** The realm's time, UNIX seconds (injected clock). */
  now: number;
  /** The User-Agent, e.g. for the read_by_sender heuristic (reference §4.1). */
  client: string;
  /** Aborts when the client goes away before the answer (ends a long-poll early). */
  signal: Hangup;
}

/** What a handler gets: the gate's context and the operation's parameters, decoded and typed from the document. */
export interface RequestContext<Id extends OperationId = OperationId> extends GateContext<Id> {
  params: ParamsOf<Id>;
  /** File parts of a multipart body (only upload-file reads them). */
  files: readonly UploadedFile[];
}

type Awaitable<T> = T | Promise<T>;

/** How a route file writes a route: the types come from the operationId. */
export interface RouteHandlers<Id extends OperationId> {
  /** Checks that run after authentication and before parameter parsing (reference "Order of checks" 1). */
  gate?(ctx: GateContext<Id>): void;
  /** The answer's fields, checked against the operation's success body in the document. */
  handle(ctx: RequestContext<Id>): Awaitable<AnswerOf<Id>>;
  /**
   * A read whose answer is built from its realm's rows alone may keep it (http/answer-cache.ts): the policy
   * says what else it shows (the caller, the time). Never for answers that read anything outside the realm's
   * tables (files, presence timing, queues) or that change state.
   */
  cache?: CachePolicy;
}

/**
 * A route binds an operationId of the OpenAPI document to one handler. Method, path and parameter
 * validation come from the document; the route holds no rules of its own (ARCHITECTURE §4). This is the
 * form the router stores, with the types erased: the pipeline decodes parameters from the same document
 * the types were generated from (a test keeps the two in step).
 */
export interface RouteSpec {
  operationId: OperationId;
  gate?(ctx: GateContext): void;
  handle(ctx: RequestContext): Awaitable<object>;
  cache?: CachePolicy;
  /** A write route's action (defineAction), kept so the naming guard can check it is the operation's own. */
  action?: Action<never, unknown>;
}

/** One route: `defineRoute('send-message', { handle: ({ params }) => … })` with `params` typed for send-message. */
export function defineRoute<Id extends OperationId>(operationId: Id, handlers: RouteHandlers<NoInfer<Id>>): RouteSpec {
  // The one place types meet the untyped pipeline; readParams validated what the types promise.
  return { operationId, ...(handlers as unknown as Omit<RouteSpec, 'operationId'>) };
}

/**
 * Runs a domain action as one transaction of the caller's realm (the only way routes change state). The
 * action sees the caller and the realm as they are inside the transaction, not as they were when the
 * request arrived.
 */
export function transactAs<T>(ctx: GateContext<OperationId> & { actor: Actor }, action: (tx: Tx, actor: ActorContext) => T): Promise<T> {
  const userId = String(ctx.actor.user.user_id);
  return ctx.app.store.transact(ctx.realmId, (tx) => {
    const user = tx.tables.users[userId]!;
    return action(tx, { realm: tx.tables.realm.realm, user, features: ctx.features, now: ctx.now, userAgent: ctx.client });
  });
}

/** A state-changing operation's one action (`do<Operation>`, in its area): typed parameters and the actor. */
export type Action<P, T> = (tx: Tx, actor: ActorContext, params: P) => T;

/** An action whose result is the answer; one that returns nothing may serve only an operation whose answer has no required field. */
type AnsweringAction<Id extends OperationId> = Action<
  ParamsOf<Id>,
  Record<never, never> extends AnswerOf<Id> ? AnswerOf<Id> | void : AnswerOf<Id>
>;

/** Operations that always have a caller: the document opens no write operation to anonymous access. */
type WriteOperationId = Exclude<OperationId, AnonymousOperationId>;

interface ActionOptions<Id extends OperationId> {
  gate?(ctx: GateContext<Id>): void;
}

/**
 * A write route in one declaration: `defineAction('update-stream', doUpdateStream)` runs the action as one
 * transaction of the caller's realm and answers its result (`{}` when it returns nothing). Where the answer is
 * not the result itself, `answer` maps it (`{ answer: (id) => ({ id }) }`). So an action returns its answer or
 * nothing: where every answer field is optional, the compiler cannot tell an incidental result from an answer.
 */
export function defineAction<Id extends WriteOperationId>(
  operationId: Id,
  action: AnsweringAction<NoInfer<Id>>,
  options?: ActionOptions<NoInfer<Id>>,
): RouteSpec;
export function defineAction<Id extends WriteOperationId, T>(
  operationId: Id,
  action: Action<ParamsOf<NoInfer<Id>>, T>,
  options: ActionOptions<NoInfer<Id>> & { answer(result: T): AnswerOf<NoInfer<Id>> },
): RouteSpec;
export function defineAction(
  operationId: WriteOperationId,
  action: Action<never, unknown>,
  options: ActionOptions<OperationId> & { answer?(result: unknown): object } = {},
): RouteSpec {
  const { gate, answer } = options;
  const run = action as Action<unknown, unknown>;
  const handle = async (ctx: RequestContext & { actor: Actor }): Promise<object> => {
    const result = await transactAs(ctx, (tx, actor) => run(tx, actor, ctx.params));
    return answer ? answer(result) : ((result ?? {}) as object);
  };
  return { operationId, action, ...(gate ? { gate } : {}), handle: handle as RouteSpec['handle'] };
}
