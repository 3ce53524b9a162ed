/**
 * What a read's answer depends on besides the rows of its realm, which the store's version stands for
 * (store.ts `versionOf`). The parameters, the realm's feature level and the ignored parameters are always
 * part of the key; a route adds only what it reads beyond them.
 */
export interface CachePolicy {
  /**
   * How much of the caller the answer shows: `user` (their ID: subscriptions, email visibility, own role)
   * or `none` (the same answer for anyone, anonymous callers included).
   */
  caller: 'user' | 'none';
  /**
   * The answer shows the realm's time (activity windows, recency): it is kept with its second, and one kept for
   * another second is replaced, not kept beside it (time moves on: a second is rarely asked for again).
   */
  time?: boolean;
}

/** The default bound: big enough for every answer of a few realms with hundreds of users each. */
export const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;

/** Bytes an entry costs besides its text: key, the entry object, its places in two maps (an estimate). */
const ENTRY_OVERHEAD = 200;

/** An answer as it was sent: its JSON text and that text's length in UTF-8 bytes (its Content-Length). */
export interface KeptAnswer {
  readonly text: string;
  readonly byteLength: number;
}

interface Entry extends KeptAnswer {
  readonly bucket: Bucket;
  readonly key: string;
  /** The realm's second the answer shows, or null for answers that show no time. */
  readonly time: number | null;
  /** What the entry counts against the bound. */
  readonly bytes: number;
}

/** One realm's entries, all made at one version of it (an older version's answers can never be sent again). */
interface Bucket {
  readonly realmId: string;
  version: number;
  readonly entries: Map<string, Entry>;
}

/**
 * Answers of reads, as the text that was sent, per realm and version, bounded by bytes (least recently
 * used first out). A change to a realm makes every answer of its earlier version unreachable: they are
 * dropped at the realm's next lookup, or when the realm is replaced or removed (`forgetRealm`), or by the
 * bound. Owned by the app context; holds no timer or handle, so dropping it frees everything.
 */
export class AnswerCache {
  #buckets = new Map<string, Bucket>();
  /** Every entry, least recently used first (a Set keeps insertion order; a hit moves its entry to the end). */
  #lru = new Set<Entry>();
  #bytes = 0;
  /** Lookups answered from the cache, and the others (a test's proof that the cache was used at all). */
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number = ANSWER_CACHE_BYTES) {}

  /** Bytes held (texts, keys and the per-entry estimate), never above `maxBytes`. */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#lru.size;
  }

  /** Entries held for one realm (of its newest version seen). */
  sizeOf(realmId: string): number {
    return this.#buckets.get(realmId)?.entries.size ?? 0;
  }

  /** The answer sent for `key` at this version of the realm (and this second, for answers showing it), or undefined. */
  get(realmId: string, version: number, key: string, time: number | null = null): KeptAnswer | undefined {
    const bucket = this.#buckets.get(realmId);
    // Only newer versions come: what an older bucket holds can never be sent again.
    if (bucket !== undefined && bucket.version < version) this.#drop(bucket);
    const entry = bucket?.version === version ? bucket.entries.get(key) : undefined;
    if (entry === undefined || entry.time !== time) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.#lru.delete(entry);
    this.#lru.add(entry);
    return entry;
  }

  /**
   * Keeps the answer built at `version` of the realm. An answer built at an older version than the bucket's
   * (a write came between the handler and the answer) is not kept; one larger than the bound neither.
   */
  set(realmId: string, version: number, key: string, text: string, time: number | null = null): void {
    // Strings are kept as they were sent (the request log and the inspector read the text); the bound counts
    // UTF-8 bytes, which is at least what V8 holds for a text of one-byte characters.
    const byteLength = Buffer.byteLength(text);
    const bytes = byteLength + key.length + ENTRY_OVERHEAD;
    if (bytes > this.maxBytes) return;
    let bucket = this.#buckets.get(realmId);
    if (bucket !== undefined && bucket.version !== version) {
      if (bucket.version > version) return;
      this.#drop(bucket);
      bucket = undefined;
    }
    if (bucket === undefined) {
      bucket = { realmId, version, entries: new Map() };
      this.#buckets.set(realmId, bucket);
    }
    // Replaced in place: removing it first could empty and unlist the bucket this entry goes into.
    const old = bucket.entries.get(key);
    if (old !== undefined) {
      this.#lru.delete(old);
      this.#bytes -= old.bytes;
    }
    const entry: Entry = { bucket, key, time, text, byteLength, bytes };
    bucket.entries.set(key, entry);
    this.#lru.add(entry);
    this.#bytes += bytes;
    while (this.#bytes > this.maxBytes) this.#remove(this.#lru.values().next().value!);
  }

  /** A realm created, replaced (reset, snapshot restore) or removed: its answers go. */
  forgetRealm(realmId: string): void {
    const bucket = this.#buckets.get(realmId);
    if (bucket !== undefined) this.#drop(bucket);
  }

  clear(): void {
    for (const bucket of [...this.#buckets.values()]) this.#drop(bucket);
  }

  #drop(bucket: Bucket): void {
    for (const entry of bucket.entries.values()) {
      this.#lru.delete(entry);
      this.#bytes -= entry.bytes;
    }
    this.#buckets.delete(bucket.realmId);
  }

  #remove(entry: Entry): void {
    this.#lru.delete(entry);
    this.#bytes -= entry.bytes;
    const { bucket } = entry;
    bucket.entries.delete(entry.key);
    if (bucket.entries.size === 0 && this.#buckets.get(bucket.realmId) === bucket) this.#buckets.delete(bucket.realmId);
  }
}

/** What of a request's context a key may read (the pipeline's context, define-routes.ts RequestContext). */
interface KeyContext {
  actor: { user: { user_id: number } } | null;
  now: number;
  realm: { feature_level: number };
  params: object;
}

/**
 * The key of a request's answer at its realm's version: the operation, the caller where the answer shows
 * them, the feature level, the parameters as decoded (their defaults included) and the names of the ignored
 * ones (the answer lists them). The second, where the answer shows it, goes beside the key (`answerTime`).
 */
export function answerKey(operationId: string, policy: CachePolicy, ctx: KeyContext, ignored: readonly string[]): string {
  const caller = policy.caller === 'user' ? (ctx.actor?.user.user_id ?? '-') : '';
  // Names and values in JSON, so that no two requests' keys can run together.
  const rest = ignored.length === 0 ? JSON.stringify(ctx.params) : JSON.stringify([ctx.params, ignored]);
  return `${operationId}|${caller}|${ctx.realm.feature_level}|${rest}`;
}

/** The realm's second where the answer shows the time, else null. */
export const answerTime = (policy: CachePolicy, ctx: KeyContext): number | null => (policy.time === true ? ctx.now : null);
