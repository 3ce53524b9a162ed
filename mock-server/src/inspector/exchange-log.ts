import { put, TextLog } from '../http/text-log.js';

/** One exchange as the inspector's list shows it (inspector/capture.ts fills the log). */
export interface ExchangeSummary {
  id: number;
  /** Wall time of the request, ms (the log's time column; realm clocks are the injected clock's business). */
  at: number;
  method: string;
  path: string;
  realm: string | null;
  user: string | null;
  /** null: the client went away before the answer was sent. */
  status: number | null;
  ms: number;
  code: string | null;
  msg: string | null;
  /** A 400 the parameter checks gave (BAD_REQUEST, REQUEST_VARIABLE_*, …): the page highlights it. */
  validation: boolean;
  /** The parameter an error names (`var_name`), when it names one. */
  var_name: string | null;
  /** What a fault rule did to the exchange (`rate_limit`, `latency 500ms`, `reset`, …), or null. */
  injected: string | null;
}

export interface Exchange extends ExchangeSummary {
  query: string;
  requestType: string | null;
  requestBody: Body;
  responseType: string | null;
  responseBody: Body;
}

/** Text cut to the cap; `length` is the whole text's. */
export interface Body {
  text: string | null;
  length: number;
}

/** The summary's and the head's texts, in the order the log keeps them (one JSON array per exchange). */
type HeadTexts = [
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string,
  string | null,
  string | null,
];

/**
 * The inspector's ring buffer of the last `capacity` exchanges, owned by the inspector and emptied when the server
 * closes. Kept column by column: numbers in arrays of unboxed doubles, texts in a TextLog outside the heap (one
 * JSON array of the short ones, then each body as it is), so an exchange kept here owns no object on the JS heap
 * (http/text-log.ts says why that matters). Memory is bounded whatever the traffic: capture.ts cuts each exchange's
 * path, query and two bodies to bodyCap characters, so an exchange holds at most about 4 × bodyCap × 6 bytes (the
 * worst case: control characters, escaped as JSON) plus a few short names.
 */
export class ExchangeLog {
  #nextId = 1;
  readonly #listeners = new Set<(summary: ExchangeSummary) => void>();
  // By slot (`#slotOf`). NaN stands for a missing body, 0 for a missing status.
  readonly #id: number[] = [];
  readonly #at: number[] = [];
  readonly #status: number[] = [];
  readonly #ms: number[] = [];
  readonly #validation: boolean[] = [];
  readonly #method: string[] = [];
  /** Where each exchange's texts start in the log: its head, then its request and answer bodies. */
  readonly #head: number[] = [];
  readonly #request: number[] = [];
  readonly #requestLength: number[] = [];
  readonly #response: number[] = [];
  readonly #responseLength: number[] = [];
  #log = new TextLog();

  constructor(
    readonly capacity = 500,
    readonly bodyCap = 16 * 1024,
  ) {}

  add(exchange: Omit<Exchange, 'id'>): void {
    const id = this.#nextId++;
    const slot = this.#slotOf(id);
    const { requestBody, responseBody } = exchange;
    const head: HeadTexts = [
      exchange.path,
      exchange.realm,
      exchange.user,
      exchange.code,
      exchange.msg,
      exchange.var_name,
      exchange.injected,
      exchange.query,
      exchange.requestType,
      exchange.responseType,
    ];
    put(this.#head, slot, this.#log.append(JSON.stringify(head)));
    put(this.#request, slot, requestBody.text === null ? NaN : this.#log.append(requestBody.text));
    put(this.#response, slot, responseBody.text === null ? NaN : this.#log.append(responseBody.text));
    put(this.#id, slot, id);
    put(this.#at, slot, exchange.at);
    put(this.#status, slot, exchange.status ?? 0);
    put(this.#ms, slot, exchange.ms);
    put(this.#validation, slot, exchange.validation);
    put(this.#method, slot, exchange.method);
    put(this.#requestLength, slot, requestBody.length);
    put(this.#responseLength, slot, responseBody.length);
    // The oldest exchange kept is the next to be overwritten: every text before its head can go.
    const oldest = this.#slotOf(id + 1);
    if (this.#id[oldest] === id + 1 - this.capacity) this.#log.trim(this.#head[oldest]!);
    if (this.#listeners.size === 0) return;
    const summary = summaryOf({ ...exchange, id });
    for (const listener of this.#listeners) listener(summary);
  }

  /** The exchanges still held, oldest first. */
  recent(): ExchangeSummary[] {
    const out: ExchangeSummary[] = [];
    for (let id = Math.max(1, this.#nextId - this.capacity); id < this.#nextId; id++) {
      const summary = this.#summary(id);
      if (summary) out.push(summary);
    }
    return out;
  }

  get(id: number): Exchange | undefined {
    const summary = Number.isSafeInteger(id) && id > 0 ? this.#summary(id) : undefined;
    if (!summary) return undefined;
    const slot = this.#slotOf(id);
    const [, , , , , , , query, requestType, responseType] = this.#headOf(slot);
    return {
      ...summary,
      query,
      requestType,
      requestBody: this.#body(this.#request[slot]!, this.#requestLength[slot]!),
      responseType,
      responseBody: this.#body(this.#response[slot]!, this.#responseLength[slot]!),
    };
  }

  /** Bytes the texts of the exchanges held take outside the heap (http/text-log.ts). */
  get storedBytes(): number {
    return this.#log.bytes;
  }

  /** Called for every exchange added; returns the unsubscribe function (its owner calls it). */
  onExchange(listener: (summary: ExchangeSummary) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Frees everything (server shutdown). */
  clear(): void {
    for (const column of [this.#id, this.#at, this.#status, this.#ms, this.#validation, this.#method]) column.length = 0;
    for (const column of [this.#head, this.#request, this.#requestLength, this.#response, this.#responseLength]) column.length = 0;
    this.#log = new TextLog();
    this.#listeners.clear();
  }

  /** Exchange 1 sits in slot 0, so the columns fill without holes. */
  #slotOf(id: number): number {
    return (id - 1) % this.capacity;
  }

  #summary(id: number): ExchangeSummary | undefined {
    const slot = this.#slotOf(id);
    if (this.#id[slot] !== id) return undefined;
    const [path, realm, user, code, msg, var_name, injected] = this.#headOf(slot);
    const status = this.#status[slot]!;
    return {
      id,
      at: this.#at[slot]!,
      method: this.#method[slot]!,
      path,
      realm,
      user,
      status: status === 0 ? null : status,
      ms: this.#ms[slot]!,
      code,
      msg,
      validation: this.#validation[slot]!,
      var_name,
      injected,
    };
  }

  #headOf(slot: number): HeadTexts {
    return JSON.parse(this.#log.read(this.#head[slot]!)!) as HeadTexts;
  }

  #body(position: number, length: number): Body {
    return { text: Number.isNaN(position) ? null : this.#log.read(position), length };
  }
}

function summaryOf(e: Exchange): ExchangeSummary {
  const { query: _q, requestType: _qt, requestBody: _qb, responseType: _rt, responseBody: _rb, ...summary } = e;
  return summary;
}
