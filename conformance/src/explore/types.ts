import type { Exchange, Tier } from '../model.js';
import type { PolledEvent } from './reducers/index.js';

/**
 * Explore's plain data: the steps it takes, what it finds, what a run reports. Nothing here knows HTTP.
 *
 * A step names the entities it uses symbolically (`{"$ref": "m3"}`: the third message this sequence made),
 * so the same steps replay on a fresh world, where every ID differs.
 */

/** The oracle rules, each named by what it checks (README "Explore"). */
export const EXPLORE_RULES = {
  /** Envelope, status, response schema and a documented error, as the scripted checks judge every answer. */
  answer: 'explore/answer',
  /** The register state an actor started with, with every event its queue received applied, equals a fresh register. */
  eventsSnapshot: 'explore/events-snapshot',
  /** What a write said it did is what the matching read returns, for those allowed to see it. */
  readYourWrites: 'explore/read-your-writes',
  /** No event or read shows an actor a message, channel or user it may not see. */
  noLeaks: 'explore/no-leaks',
  /** Unread counts, subscriber counts, topic lists and max_message_id agree with the messages. */
  counters: 'explore/counters',
} as const;
export type ExploreRule = (typeof EXPLORE_RULES)[keyof typeof EXPLORE_RULES];
export const EXPLORE_RULE_LIST: readonly ExploreRule[] = Object.values(EXPLORE_RULES);

/** A reference to an entity made earlier in the same sequence (`m3`, `c1`, …). */
export interface Ref {
  $ref: string;
}
export type StepValue = string | number | boolean | null | Ref | StepValue[] | { [key: string]: StepValue };

/** One request of a sequence, as a script holds it (values may be references). */
export interface Step {
  /** The kind of step (its template): `send-channel-message`, `move-topic`, … */
  kind: string;
  /** The actor's name: a role of the world file (`member`, `guest`, …). */
  actor: string;
  operation: string;
  method: string;
  /** The path with its parameters filled in; `{ref}` segments are resolved at run time. */
  path: string;
  params: Record<string, StepValue>;
  /** Set when the step is wrong on purpose: what is wrong, and the documented error it must get. */
  invalid?: { what: string; status: number; code: string };
  /** `success`: valid for the state, so an error answer is a finding; `either`: the server decides. */
  expect: 'success' | 'either';
  /** The key a success's ID is bound to (`m7`: the message step 7 made; kept when other steps are dropped). */
  binds?: string;
}

/** A step as it ran: the request and answer (credentials redacted) and the events each actor received after it. */
export interface RanStep {
  n: number;
  step: Step;
  exchange: Exchange;
  /** Events each actor's queue received after the step (only actors that received any). */
  events: Record<string, PolledEvent[]>;
}

/** What an oracle found: the rule it breaks, one line, and the evidence. */
export class Violation extends Error {
  constructor(
    readonly rule: ExploreRule,
    message: string,
    /** The actor whose view broke the rule, when there is one. */
    readonly actor?: string,
    /** Structured evidence (differences, the event, the read). */
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** A failing sequence, shrunk: what a report shows and `--replay` reruns. */
export interface ExploreFinding {
  rule: ExploreRule;
  message: string;
  actor?: string;
  details?: unknown;
  /** The seed of the run that found it (`--seed` repeats the search). */
  seed: number;
  /** Steps of the failing sequence before shrinking. */
  foundAfter: number;
  /** The shrunk sequence as it ran last, the failing step last. */
  steps: RanStep[];
  /** Whether replaying the shrunk steps on a fresh world failed the same way. */
  replayed: boolean;
}

export interface ExploreResult {
  target: string;
  featureLevel: number | null;
  targetKind: 'mock' | 'server';
  startedAt: string;
  ms: number;
  seed: number;
  tiers: Tier[];
  /** Actors (world roles) the run acted as, and which of them registered without client capabilities. */
  actors: { name: string; legacy: boolean }[];
  /** Sequences run (fast-check runs), steps taken, steps per second (oracles included). */
  sequences: number;
  steps: number;
  stepsPerSecond: number;
  /** How often each oracle rule was checked and held. */
  oracles: Record<ExploreRule, number>;
  /** Steps per operation. */
  operations: Record<string, number>;
  findings: ExploreFinding[];
  /** Set when the run could not start or stopped early (the reason in one line). */
  stopped?: { kind: 'not-started' | 'target-unreachable' | 'interrupted'; message: string };
}

/** A shrunk sequence as a file: `--replay FILE` reruns it. */
export interface ExploreScript {
  format: 'teamchat-explore-script/1';
  seed: number;
  rule: ExploreRule;
  message: string;
  actors: { name: string; legacy: boolean }[];
  steps: Step[];
}
