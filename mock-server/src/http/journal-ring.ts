import type { IncomingHttpHeaders } from 'node:http';
import type { OperationSpec } from './openapi.js';
import { put, TextLog } from './text-log.js';

/** What the journal (http/request-journal.ts) tells of one request; filters and matchers read these fields only. */
export interface RequestSummary {
  /** Unique within the server's life, rising. */
  id: number;
  /** Realm time the request was taken up, UNIX seconds with a millisecond fraction. */
  at: number;
  operation: string;
  method: string;
  /** The caller's user ID and email; null when anonymous. */
  user_id: number | null;
  user: string | null;
  /** null: no answer yet (a waiting long-poll), or the client went away before it. */
  status: number | null;
  /** From the pipeline taking the request up to the answer's end; null while there is none. */
  ms: number | null;
  /** What a fault rule did to the exchange (`rate_limit`, `latency 500ms`, …), null when none did. */
  injected: string | null;
}

/** What the client sent, as the ring keeps it until someone reads it. */
export interface SentParts {
  /** The URL as sent (or only its path: the head was not kept). */
  url: string;
  /** The path's parameters as the route table read them (undecoded JSON). */
  pathValues: Readonly<Record<string, string>>;
  headers: IncomingHttpHeaders;
  /** null: not kept (the entry's note says why), or no body. */
  form: Record<string, string> | null;
}

/** One request as the journal hands it to its realm's ring. */
export interface NewEntry extends SentParts {
  id: number;
  at: number;
  op: OperationSpec;
  method: string;
  userId: number | null;
  user: string | null;
  /** What the kept head and form count against the realm's budget. */
  keptBytes: number;
  note: string | null;
  /** performance.now() when the pipeline took it up (for `ms`). */
  started: number;
}

/**
 * A realm's ring: the newest `capacity` requests, overwritten oldest first, kept column by column. The numbers sit
 * in arrays of unboxed doubles and what the client sent in a TextLog as JSON text, so a journaled request owns no
 * object on the JS heap (text-log.ts says why that matters). The other columns hold strings that outlive the
 * request anyway: the operation, the method's name, the user's email, the notes.
 */
export class JournalRing {
  /** Requests ever added; request n (from 0) sits at n % capacity while it is among the newest `capacity`. */
  #count = 0;
  /**
   * What the kept requests count against the realm's budget (request-journal.ts JOURNAL_BODY_BUDGET): for each, what
   * the journal counted of what was sent or the bytes its text takes, whichever is more.
   */
  bytes = 0;
  // NaN stands for null in the numeric columns, 0 for a status: a null would turn an array of doubles into one of boxes.
  readonly #id: number[] = [];
  readonly #at: number[] = [];
  readonly #started: number[] = [];
  readonly #ms: number[] = [];
  readonly #status: number[] = [];
  readonly #userId: number[] = [];
  readonly #kept: number[] = [];
  /** Where each request's text is in the log. */
  readonly #text: number[] = [];
  readonly #op: OperationSpec[] = [];
  readonly #method: string[] = [];
  readonly #user: (string | null)[] = [];
  readonly #note: (string | null)[] = [];
  readonly #injected: (string | null)[] = [];
  readonly #log = new TextLog();

  constructor(
    readonly capacity: number,
    /** Which of its realm's rings this is (request-journal.ts): a reset starts a new one. */
    readonly serial: number,
  ) {}

  /** Keeps the request, in place of the oldest once full; the number returned is its place for `finish`. */
  add(entry: NewEntry): number {
    const n = this.#count++;
    const slot = n % this.capacity;
    if (n >= this.capacity) this.bytes -= this.#kept[slot]!;
    const text = JSON.stringify([entry.url, entry.pathValues, entry.headers, entry.form]);
    const position = this.#log.append(text);
    // What the text takes where it is kept, when more than the journal's count of what was sent: JSON escapes a
    // control character in 6 bytes, UTF-8 takes 3 for most other scripts. The budget then bounds the pages too.
    const kept = Math.max(entry.keptBytes, this.#log.end - position);
    this.bytes += kept;
    put(this.#id, slot, entry.id);
    put(this.#at, slot, entry.at);
    put(this.#started, slot, entry.started);
    put(this.#ms, slot, NaN);
    put(this.#status, slot, 0);
    put(this.#userId, slot, entry.userId ?? NaN);
    put(this.#kept, slot, kept);
    put(this.#text, slot, position);
    put(this.#op, slot, entry.op);
    put(this.#method, slot, entry.method);
    put(this.#user, slot, entry.user);
    put(this.#note, slot, entry.note);
    put(this.#injected, slot, null);
    // The oldest request still kept is the next one to be overwritten: every text before it can go.
    if (this.#count > this.capacity) this.#log.trim(this.#text[this.#count % this.capacity]!);
    return n;
  }

  /** Request `n`'s answer is out (status) or the client went away (null); nothing once it has left the ring. */
  finish(n: number, status: number | null, now: number, injected: string | null): void {
    if (this.#count - n > this.capacity) return;
    const slot = n % this.capacity;
    this.#status[slot] = status ?? 0;
    this.#ms[slot] = Math.round((now - this.#started[slot]!) * 10) / 10;
    this.#injected[slot] = injected;
  }

  get storedBytes(): number {
    return this.#log.bytes;
  }

  /** The requests kept, oldest first. */
  list(): JournaledRequest[] {
    const out: JournaledRequest[] = [];
    for (let n = Math.max(0, this.#count - this.capacity); n < this.#count; n++) out.push(this.#view(n % this.capacity));
    return out;
  }

  #view(slot: number): JournaledRequest {
    const status = this.#status[slot]!;
    const ms = this.#ms[slot]!;
    const userId = this.#userId[slot]!;
    const position = this.#text[slot]!;
    const log = this.#log;
    return new JournaledRequest(
      {
        id: this.#id[slot]!,
        at: this.#at[slot]!,
        operation: this.#op[slot]!.operationId,
        method: this.#method[slot]!,
        user_id: Number.isNaN(userId) ? null : userId,
        user: this.#user[slot]!,
        status: status === 0 ? null : status,
        ms: Number.isNaN(ms) ? null : ms,
        injected: this.#injected[slot]!,
      },
      this.#op[slot]!,
      this.#note[slot]!,
      () => log.read(position),
    );
  }
}

/** A journaled request as read from its ring: the summary fields, and what was sent, decoded when asked for. */
export class JournaledRequest implements RequestSummary {
  readonly id: number;
  readonly at: number;
  readonly operation: string;
  readonly method: string;
  readonly user_id: number | null;
  readonly user: string | null;
  readonly status: number | null;
  readonly ms: number | null;
  readonly injected: string | null;

  constructor(
    summary: RequestSummary,
    readonly op: OperationSpec,
    readonly note: string | null,
    private readonly text: () => string | null,
  ) {
    ({
      id: this.id,
      at: this.at,
      operation: this.operation,
      method: this.method,
      user_id: this.user_id,
      user: this.user,
      status: this.status,
      ms: this.ms,
      injected: this.injected,
    } = summary);
  }

  /** What the client sent (empty if its text is gone, which happens only once it has left the ring). */
  sent(): SentParts {
    const text = this.text();
    if (text === null) return { url: '', pathValues: {}, headers: {}, form: null };
    const [url, pathValues, headers, form] = JSON.parse(text) as [
      string,
      Record<string, string>,
      IncomingHttpHeaders,
      Record<string, string> | null,
    ];
    return { url, pathValues, headers, form };
  }
}
