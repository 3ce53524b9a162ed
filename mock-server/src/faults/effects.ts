import type { Request, Response } from 'express';
import type { AppContext } from '../app-context.js';
import type { UserRow } from '../store/state.js';
import { answerOf, type Answer } from './presets.js';
import type { Decision, FaultRules } from './rules.js';

/**
 * What a fault rule does to one API request (control API "Fault rules"), called by the request pipeline once the
 * caller and realm are known (http/pipeline.ts, only while some rule exists). Answers true when the request is
 * answered here (phase `before`: the request is not run, so nothing changes); false when it runs, possibly with
 * its answer intercepted (`res.end`): held back (latency), spread out (trickle), replaced (phase `after`) or
 * turned into a wire fault. `res.locals.injected` names what was done, for the request log, the inspector's
 * capture and the journal.
 *
 * Answers are written here, not by the error handler: they are what the test asked the wire to carry (an HTML
 * page, a cut body, bytes that are not HTTP), and an injected API error keeps the catalogue's envelope
 * (ApiError.body() through presets.ts).
 */
export async function applyFaults(
  app: AppContext,
  op: { operationId: string },
  actor: { user: UserRow } | null,
  realmId: string,
  req: Request,
  res: Response,
): Promise<boolean> {
  const decision = app.faults.decide(realmId, op.operationId, req, actor?.user ?? null);
  if (!decision) return false;
  res.locals.injected = decision.label;
  const { effect } = decision;
  if (effect.type === 'latency' || effect.type === 'trickle') {
    intercept(res, (end, args) =>
      effect.type === 'latency' ? delay(app.faults, res, decision.ms, end, args) : trickle(app.faults, res, decision.ms, end, args),
    );
    return false;
  }
  if (decision.rule.phase === 'after') {
    intercept(res, (end, args) => act(decision, req, res, end, bodyOf(args[0])));
    return false;
  }
  act(decision, req, res, res.end.bind(res) as End, null);
  return true;
}

type End = (...args: unknown[]) => Response;

/**
 * Takes over the request's answer: the next `res.end` (the route's answer, or the error handler's) goes to
 * `replace` with the `end` it would have called. Installed after the request log's and the capture's own
 * wrappers, so those see what this writes in the end.
 */
function intercept(res: Response, replace: (end: End, args: unknown[]) => void): void {
  const end = res.end as unknown as End;
  res.end = ((...args: unknown[]) => {
    res.end = end as unknown as Response['end'];
    replace(end.bind(res) as End, args);
    return res;
  }) as Response['end'];
}

/** Answer, preset, error or wire fault; `body` is the request's own answer (phase `after`), else null. */
function act(decision: Decision, req: Request, res: Response, end: End, body: Buffer | null): void {
  const { effect } = decision;
  const socket = req.socket;
  // An answer whose head already went out (no route streams today) cannot be replaced: the connection ends instead.
  if (res.headersSent && effect.type !== 'reset' && effect.type !== 'garbage') {
    socket.destroy();
    return;
  }
  switch (effect.type) {
    case 'preset':
    case 'error':
      write(res, answerOf(effect), end);
      return;
    case 'reset':
      // An RST instead of a FIN: the client's read fails with ECONNRESET, as when a proxy or the server dies.
      socket.resetAndDestroy();
      return;
    case 'close':
      socket.destroy();
      return;
    case 'truncate': {
      // The headers promise the whole body (Content-Length); half of it arrives, then the connection closes.
      const whole = body ?? Buffer.from(SUCCESS_BODY);
      if (body === null) {
        res.statusCode = 200;
        res.setHeader('Content-Type', 'application/json');
      }
      res.setHeader('Content-Length', whole.length);
      res.write(whole.subarray(0, Math.floor(whole.length / 2)), () => socket.destroy());
      return;
    }
    case 'garbage':
      socket.end(garbage(decision), () => socket.destroy());
      return;
    default:
      return;
  }
}

/** What a truncated answer stands for when the request was not run: an empty success. */
const SUCCESS_BODY = JSON.stringify({ result: 'success', msg: '' });

/** Bytes no HTTP client reads as a status line (the first is NUL), from the rule's generator. */
function garbage(decision: Decision): Buffer {
  const bytes = Buffer.alloc(64);
  for (let i = 1; i < bytes.length; i++) bytes[i] = Math.floor(decision.random.next() * 256);
  return bytes;
}

/** A whole answer in place of the request's own: the route's content headers go, the rest (CORS, Date) stays. */
function write(res: Response, answer: Answer, end: End): void {
  for (const name of res.getHeaderNames()) if (name.startsWith('content-') || name === 'retry-after') res.removeHeader(name);
  res.statusCode = answer.status;
  if (answer.reason) res.statusMessage = answer.reason;
  for (const name in answer.headers) res.setHeader(name, answer.headers[name]!);
  res.setHeader('Content-Length', Buffer.byteLength(answer.body));
  end(answer.body);
}

/** The answer as the route gave it, after `ms` of wall time; nothing is sent if the client leaves first. */
function delay(faults: FaultRules, res: Response, ms: number, end: End, args: unknown[]): void {
  if (gone(res, end, args)) return;
  const timer = faults.later(ms, () => {
    res.off('close', timer.cancel);
    end(...args);
  });
  res.once('close', timer.cancel);
}

/**
 * The headers at once, then the body in pieces spread evenly over `ms` (about one every 100 ms, at most 100),
 * the Content-Length kept: a slow network as the client's reader meets it.
 */
function trickle(faults: FaultRules, res: Response, ms: number, end: End, args: unknown[]): void {
  if (gone(res, end, args)) return;
  const body = bodyOf(args[0]) ?? Buffer.alloc(0);
  const pieces = Math.max(1, Math.min(100, Math.ceil(ms / 100), body.length));
  res.flushHeaders();
  let sent = 0;
  let current: { cancel(): void } | null = null;
  const cancel = () => current?.cancel();
  res.once('close', cancel);
  const next = () => {
    sent++;
    const from = Math.floor(((sent - 1) * body.length) / pieces);
    const to = Math.floor((sent * body.length) / pieces);
    if (sent < pieces) {
      res.write(body.subarray(from, to));
      current = faults.later(ms / pieces, next);
    } else {
      res.off('close', cancel);
      end(body.subarray(from, to));
    }
  };
  current = faults.later(ms / pieces, next);
}

/**
 * The client left before the answer was written (a long-poll it gave up on): its 'close' already fired, so a
 * timer would wait for nothing and never be cancelled. The answer ends at once (nothing goes out; the wrappers
 * of the request log and capture still see it end).
 */
function gone(res: Response, end: End, args: unknown[]): boolean {
  if (!res.destroyed) return false;
  end(...args);
  return true;
}

function bodyOf(chunk: unknown): Buffer | null {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  return Buffer.isBuffer(chunk) ? chunk : null;
}
