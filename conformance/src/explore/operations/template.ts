import type { Reply } from '../../client.js';
import type { ExploreActor } from '../actors.js';
import type { OperationFacts } from '../document.js';
import type { Knowledge } from '../knowledge.js';
import type { PolledEvent } from '../reducers/index.js';
import type { Step, StepValue } from '../types.js';

/**
 * What fast-check draws for one step: which template, which actor, and a few numbers and flags each
 * template reads as it needs (an index into the messages the actor can see, a topic, …). Shrinking makes
 * them smaller: the first message, the first topic, the valid variant.
 */
export interface Choice {
  template: number;
  actor: number;
  a: number;
  b: number;
  c: number;
  flag: boolean;
  /** Draw the template's wrong-on-purpose variant, when it has one. */
  invalid: boolean;
  /**
   * 0 or absent: a step as drawn. Otherwise the step follows on from the one before (draw.ts): among the steps of
   * every template and actor that touch what it touched, the one this number falls on (by the templates' weights).
   */
  near?: number;
  /** What the step before touched, nearest first (keys: `m3`, `c2`, topics `c2/alpha`): targets picked prefer these. */
  focus?: readonly string[];
}

export interface PlanContext {
  k: Knowledge;
  actor: ExploreActor;
  actors: readonly ExploreActor[];
  choice: Choice;
  /** The step's number in its sequence: makes texts unique and readable (`explore 12`). */
  n: number;
}

/** A planned request: path parameters and parameters may be references to entities of the sequence. */
export interface Plan {
  pathParams?: Record<string, StepValue>;
  params: Record<string, StepValue>;
  /** `success`: the state makes the request valid, so an error answer is a finding. `either`: the server decides (a permission the world file does not state). */
  expect: 'success' | 'either';
  /** The entity kind a success makes (`m` message, `c` channel, `d` draft, …): its ID is bound to a key. */
  binds?: string;
  /** A wrong-on-purpose plan: what is wrong and the documented error it must get. */
  invalid?: { what: string; status: number; code: string };
}

export interface LearnContext {
  k: Knowledge;
  step: Step;
  reply: Reply;
  /** The key bound to the entity the step made, when it made one. */
  bound?: string;
  actor: ExploreActor;
  actors: readonly ExploreActor[];
  /** The events every actor received after the step. */
  events: ReadonlyMap<string, readonly PolledEvent[]>;
}

export interface VerifyContext extends LearnContext {
  /** Fails the read-your-writes rule with this message (and the read's answer as evidence). */
  fail(message: string, actor?: string, details?: unknown): never;
}

/** One kind of step: an operation of the document with how to choose its parameters from the world. */
export interface Template {
  /** Names the kind of step in scripts (`send-channel-message`, `move-topic`). */
  name: string;
  operation: string;
  /** Relative frequency. */
  weight: number;
  /** A request for this actor, or null when nothing fits now (no message to edit yet). */
  plan(p: PlanContext, facts: OperationFacts): Plan | null;
  /** The ID a success made, when the answer names it otherwise than `id` or `ids[0]` (`reminder_id`, …). */
  bind?(reply: Reply): unknown;
  /**
   * Whether a concrete step planned `expect: 'success'` is still valid for the state (a shrunk sequence
   * replays it after dropping others): otherwise the candidate does not reproduce. Where absent, the
   * generic check of sequence.ts applies (what it names exists and the actor may see it).
   */
  valid?(p: Omit<PlanContext, 'choice' | 'n'>, step: Step): boolean;
  /** After a success: what the step made or changed, into the knowledge. */
  learn?(l: LearnContext): void;
  /** After a success: reads that must show what the write said it did (read-your-writes). */
  verify?(v: VerifyContext): Promise<void>;
}

/**
 * An element of a list picked by a drawn number (null for an empty list). With a focus (what the step before
 * touched), the element it names first wins: a message sent, then reacted to; a channel left, then written to.
 * `keyOf` names an element as the focus does (channels, messages and owned things by their `key`).
 */
export function pick<T>(list: readonly T[], n: number, focus?: readonly string[], keyOf: (t: T) => unknown = keyOfEntity): T | null {
  if (list.length === 0) return null;
  for (const key of focus ?? []) {
    const near = list.find((x) => keyOf(x) === key);
    if (near !== undefined) return near;
  }
  return list[n % list.length]!;
}

const keyOfEntity = (x: unknown): unknown => (x !== null && typeof x === 'object' ? (x as { key?: unknown }).key : x);

/** A topic as a focus names it: its channel's key and its name without regard to case (`c2/alpha`). */
export const topicKey = (channelKey: string, topic: string): string => `${channelKey}/${topic.toLowerCase()}`;
