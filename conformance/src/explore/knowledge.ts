import type { Ref, Step, StepValue } from './types.js';

/**
 * What explore knows of the world it made, learnt from the answers of its own steps: enough to draw steps
 * that are valid for the current state (a message the actor can see, a topic that exists) and to say who
 * may see what. It is not a model of the server: every oracle judges the server by the server's own
 * answers (snapshots, events, reads); this only chooses and names.
 */
export interface KnownChannel {
  key: string;
  id: number;
  name: string;
  /** invite_only; explore's private channels share their history with subscribers. */
  private: boolean;
  webPublic: boolean;
  archived: boolean;
  /**
   * Actors ever subscribed during the sequence: one who left still holds the messages it received there
   * (its feed lists them) but may no longer read them by ID (visibility.ts).
   */
  everIn?: Set<string>;
  /** Whether it was private before the latest step that changed its privacy (no-leaks judges both). */
  wasPrivate?: boolean;
}

export interface KnownMessage {
  key: string;
  id: number;
  sender: string;
  /** The channel's key for a channel message, null for a direct message. */
  channel: string | null;
  topic: string;
  /** Direct messages: every participant's actor name, the sender included. */
  participants: string[];
  /** The Markdown source as last sent or edited. */
  content: string;
  deleted: boolean;
  /** The channel it was in before the latest move that took it elsewhere (no-leaks judges both). */
  movedFrom?: string | null;
  /** `actor emoji_name` of the reactions added through explore's steps and not removed. */
  reactions: Set<string>;
  /**
   * Actors whose queue received the message: they keep their copy after leaving its channel (their feed and
   * flag changes still show it, visibility.ts mayHoldMessage), though not access to it by ID.
   */
  receivedBy?: Set<string>;
  /** Who had received it before the latest step moved it to another channel (judging what they saw before). */
  receivedBefore?: Set<string>;
  /**
   * Deleted: the actors who had no access to it then. The reference tells them nothing (its event recipients follow
   * has_message_access), though their copy goes with the message: their starred_messages cannot follow.
   */
  deletedUnseenBy?: Set<string>;
}

/**
 * Something a step made that would outlive the sequence on the target (a draft, a linkifier, a changed
 * status): how to take it back at teardown, as its owner, with IDs already resolved.
 */
export interface Owned {
  /** The entity's key (`d2`), or a name for a setting (`status:member`). */
  key: string;
  kind: string;
  /** The actor who made it (and may remove it). */
  owner: string;
  /** What the entity holds as last written (content, title, …): what reads must show. */
  data: Record<string, StepValue>;
  undo: { method: string; path: string; params: Record<string, unknown> };
}

/** Entities a sequence made, by key; the keys restart for every sequence so that scripts replay. */
export class Knowledge {
  /** The sequence's unique name stem (letters and digits): names of realm-wide things a step makes. */
  token = 'tcx';
  /** What steps made that teardown takes back, in the order made. */
  readonly owned: Owned[] = [];
  readonly channels: KnownChannel[] = [];
  readonly messages: KnownMessage[] = [];
  /** Other entities (drafts, snippets, …) by kind: their keys, in creation order. */
  readonly others = new Map<string, string[]>();
  readonly #ids = new Map<string, number>();
  /** One count per kind, so that a message the server made (a notification) does not renumber drafts. */
  readonly #next = new Map<string, number>();

  /**
   * Names an ID under a key a step chose (`m7`: the message step 7 made), so that dropping other steps while
   * shrinking renames nothing.
   */
  bindAs(key: string, id: number): string {
    this.#ids.set(key, id);
    return key;
  }

  /** Names an ID the sequence made by counting: `c1` (setup), `n1` (messages no step sent). */
  bind(prefix: string, id: number): string {
    const n = (this.#next.get(prefix) ?? 0) + 1;
    this.#next.set(prefix, n);
    const key = `${prefix}${n}`;
    this.#ids.set(key, id);
    return key;
  }

  /** Keys made by `bind` for kinds without a typed list (drafts, snippets, …). */
  remember(kind: string, key: string): void {
    this.others.set(kind, [...(this.others.get(kind) ?? []), key]);
  }

  forget(kind: string, key: string): void {
    this.others.set(
      kind,
      (this.others.get(kind) ?? []).filter((k) => k !== key),
    );
  }

  /** Records what a step made (a second call for the same key keeps the first undo: it restores the start). */
  own(thing: Owned): void {
    const had = this.owned.find((o) => o.key === thing.key);
    if (had) had.data = thing.data;
    else this.owned.push(thing);
  }

  /** A step removed what another made: nothing left to take back. */
  disown(key: string): void {
    const i = this.owned.findIndex((o) => o.key === key);
    if (i >= 0) this.owned.splice(i, 1);
  }

  ownedOf(kind: string, owner?: string): Owned[] {
    return this.owned.filter((o) => o.kind === kind && (owner === undefined || o.owner === owner));
  }

  /**
   * Forgets where messages were and what channels were before: called by a step that changes who may see
   * what, before it records its own change (the marks of an older step would only weaken no-leaks).
   */
  settle(): void {
    for (const m of this.messages) {
      delete m.movedFrom;
      delete m.receivedBefore;
    }
    for (const c of this.channels) delete c.wasPrivate;
  }

  idOf(key: string): number | undefined {
    return this.#ids.get(key);
  }

  channel(key: string): KnownChannel | undefined {
    return this.channels.find((c) => c.key === key);
  }
  channelById(id: number): KnownChannel | undefined {
    return this.channels.find((c) => c.id === id);
  }
  message(key: string): KnownMessage | undefined {
    return this.messages.find((m) => m.key === key);
  }
  messageById(id: number): KnownMessage | undefined {
    return this.messages.find((m) => m.id === id);
  }
  liveMessages(): KnownMessage[] {
    return this.messages.filter((m) => !m.deleted);
  }
  /** Live messages of a channel's topic (topics match without regard to case, as servers compare them). */
  inTopic(channelKey: string, topic: string): KnownMessage[] {
    return this.liveMessages().filter((m) => m.channel === channelKey && m.topic.toLowerCase() === topic.toLowerCase());
  }
  /** Topics with live messages in a channel, in first-use order. */
  topicsOf(channelKey: string): string[] {
    return [
      ...new Set(
        this.liveMessages()
          .filter((m) => m.channel === channelKey)
          .map((m) => m.topic),
      ),
    ];
  }

  /** A step value with every reference replaced by its ID; undefined when a reference names nothing known. */
  resolve(value: StepValue): unknown {
    if (isRef(value)) {
      const id = this.#ids.get(value.$ref);
      if (id === undefined) throw new UnboundRef(value.$ref);
      return id;
    }
    if (isNameRef(value)) {
      const channel = this.channel(value.$name);
      if (!channel) throw new UnboundRef(value.$name);
      return channel.name;
    }
    if (Array.isArray(value)) return value.map((v) => this.resolve(v));
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.resolve(v)]));
    return value;
  }

  /** A path whose `{key}` segments are references. */
  resolvePath(path: string): string {
    return path.replace(KEY_SEGMENT, (_, key: string) => {
      const id = this.#ids.get(key);
      if (id === undefined) throw new UnboundRef(key);
      return String(id);
    });
  }
}

/** A path segment naming an entity of the sequence: `{m7}`, `{n2}`, `{c1}`. */
export const KEY_SEGMENT = /\{([a-z]+\d+)\}/g;

/** The key of the entity a step's path names (`/api/v1/messages/{m7}` → `m7`). */
export function pathKey(path: string): string | undefined {
  return /\{([a-z]+\d+)\}/.exec(path)?.[1];
}

/** A step naming an entity its sequence never made (a shrunk sequence that dropped the step making it). */
export class UnboundRef extends Error {
  constructor(readonly key: string) {
    super(`the step refers to ${key}, which this sequence did not make`);
  }
}

export const ref = (key: string): Ref => ({ $ref: key });
/**
 * A channel named by its name (subscribe and unsubscribe take names): `{"$name": "c2"}`. Names carry the
 * sequence's prefix, so a script names the channel symbolically and replays on a fresh world.
 */
export const nameRef = (key: string): { $name: string } => ({ $name: key });
export const isNameRef = (v: unknown): v is { $name: string } =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  typeof (v as { $name?: unknown }).$name === 'string' &&
  Object.keys(v).length === 1;
export const isRef = (v: unknown): v is Ref =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as Ref).$ref === 'string' && Object.keys(v).length === 1;

/** The keys of what a step names, in order: its path's `{m7}` segments, then its `$ref` and `$name` values. */
export function keysNamedBy(step: Step): string[] {
  const keys = [...step.path.matchAll(KEY_SEGMENT)].map((m) => m[1]!);
  const walk = (v: StepValue): void => {
    if (isRef(v)) keys.push(v.$ref);
    else if (isNameRef(v)) keys.push(v.$name);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(step.params);
  return keys;
}
