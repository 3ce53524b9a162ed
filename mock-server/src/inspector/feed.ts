import type { Request, Response } from 'express';
import type { ExchangeLog, ExchangeSummary } from './exchange-log.js';

/**
 * The inspector's live updates: server-sent events on GET /__inspector/feed, so the page
 * never polls. Events:
 * - `hello` on connect: the exchanges still in the log and the current state (inspector/state.ts);
 * - `exchanges`: the requests finished since the last such event (summaries; bodies are fetched on click), sent
 *   at most every BATCH_MS: one write per page for a burst of traffic instead of one per request, and one redraw of
 *   the page's table (at a thousand requests a second, per-request events cost the API ~30 % with one page open);
 * - `state` (realms, clocks, queues, snapshots, the latest report) shortly after requests finish, debounced to
 *   one per STATE_DELAY_MS whatever the traffic, and every KEEP_ALIVE_MS (changes made without a request, e.g.
 *   the scheduler or the programmatic API, show within that time; it also keeps proxies from closing the stream).
 *
 * Owners: the feed holds its clients (at most `maxClients`: beyond that a page gets a clear error), the
 * keep-alive timer (running only while a client is connected), the debounce and batch timers and the batch (at
 * most the log's capacity: a page keeps no more rows); a client is dropped when its connection closes, and
 * `close()` ends every stream and clears every timer (server shutdown).
 */
export const STATE_DELAY_MS = 100;
export const BATCH_MS = 50;
export const KEEP_ALIVE_MS = 15_000;

export interface FeedOptions {
  log: ExchangeLog;
  state: () => unknown;
  maxClients: number;
}

export class LiveFeed {
  readonly #clients = new Set<Response>();
  #keepAlive: NodeJS.Timeout | null = null;
  #statePending: NodeJS.Timeout | null = null;
  #batch: ExchangeSummary[] = [];
  #batchTimer: NodeJS.Timeout | null = null;
  /** Listening to the log only while a page is open: with none, the API path builds no summary for the feed. */
  #unsubscribe: (() => void) | null = null;

  constructor(private readonly options: FeedOptions) {}

  get clients(): number {
    return this.#clients.size;
  }

  get full(): boolean {
    return this.#clients.size >= this.options.maxClients;
  }

  /** Starts a stream on this response (the caller checked `full` and the session). */
  attach(req: Request, res: Response): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      // No proxy buffering (nginx), or updates would arrive in bursts.
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    this.#clients.add(res);
    req.socket.setNoDelay(true);
    // A write to a stream the client just dropped: the 'close' below removes it; without a listener the error would be uncaught.
    res.on('error', () => res.destroy());
    res.once('close', () => {
      this.#clients.delete(res);
      if (this.#clients.size === 0) this.#idle();
    });
    send(res, 'hello', { exchanges: this.options.log.recent(), state: this.options.state() });
    this.#unsubscribe ??= this.options.log.onExchange((summary) => this.#exchange(summary));
    this.#keepAlive ??= setInterval(() => this.#broadcast('state', this.options.state), KEEP_ALIVE_MS).unref();
  }

  /** Ends every stream and frees the timers. */
  close(): void {
    this.#idle();
    if (this.#statePending) clearTimeout(this.#statePending);
    this.#statePending = null;
    if (this.#batchTimer) clearTimeout(this.#batchTimer);
    this.#batchTimer = null;
    this.#batch = [];
    for (const res of this.#clients) res.end();
    this.#clients.clear();
  }

  #exchange(summary: ExchangeSummary): void {
    this.#batch.push(summary);
    if (this.#batch.length > this.options.log.capacity) this.#batch.shift();
    this.#batchTimer ??= setTimeout(() => {
      this.#batchTimer = null;
      const batch = this.#batch;
      this.#batch = [];
      this.#broadcast('exchanges', () => batch);
    }, BATCH_MS).unref();
    this.#statePending ??= setTimeout(() => {
      this.#statePending = null;
      this.#broadcast('state', this.options.state);
    }, STATE_DELAY_MS).unref();
  }

  /**
   * Runs in timers, where nothing would catch a throw: a state or batch that cannot be read or serialised is
   * logged and that push dropped (the next one tries again); the server and the other pages carry on.
   */
  #broadcast(event: string, data: () => unknown): void {
    if (this.#clients.size === 0) return;
    let frame: string;
    try {
      // Serialised once for every client.
      frame = frameOf(event, data());
    } catch (error) {
      console.error(`teamchat-kit: inspector feed: the '${event}' push was dropped:`, error);
      return;
    }
    for (const res of this.#clients) res.write(frame);
  }

  /** No page open: stop listening to the log and the keep-alive. */
  #idle(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.#keepAlive) clearInterval(this.#keepAlive);
    this.#keepAlive = null;
  }
}

function send(res: Response, event: string, data: unknown): void {
  res.write(frameOf(event, data));
}

/** One SSE frame; JSON has no raw newlines, so one `data:` line carries it. */
const frameOf = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
