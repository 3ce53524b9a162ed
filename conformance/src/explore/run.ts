import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Tier } from '../model.js';
import type { ResponseSchemas } from '../openapi.js';
import type { Target } from '../target.js';
import type { World } from '../world.js';
import { OperationIndex } from './document.js';
import { choiceOf, drawStep, touched } from './draw.js';
import { templatesFor } from './operations/index.js';
import type { Choice, Template } from './operations/template.js';
import { UnboundRef } from './knowledge.js';
import { NotApplicable, Sequence, type SequenceEnv } from './sequence.js';
import { shrinkSteps, type Reproduce } from './shrink.js';
import {
  EXPLORE_RULE_LIST,
  Violation,
  type ExploreFinding,
  type ExploreResult,
  type ExploreRule,
  type RanStep,
  type Step,
} from './types.js';

export interface ExploreOptions {
  target: Target;
  api: OpenAPIV3_1.Document;
  schemas: ResponseSchemas;
  tiers: Tier[];
  seed: number;
  /** Stop drawing new steps after this long (ms); the sequence under way stops at its next step. */
  durationMs?: number;
  /** Stop after this many steps. */
  steps?: number;
  /** Actors (world roles), at least 2. */
  users: number;
  /** Most steps in one sequence (fast-check's array length). */
  maxSequence?: number;
  /** How long shrinking a finding may take (ms). */
  shrinkMs?: number;
  interrupt?: AbortSignal;
  onSequence?(done: { sequences: number; steps: number }): void;
}

const DEFAULTS = { maxSequence: 40, shrinkMs: 120_000, durationMs: 60_000 };

/**
 * Explore: random sequences of steps valid for the state (fast-check draws them, one sequence per fresh
 * world), every oracle after every step; the first violation is shrunk by fast-check to a shortest
 * sequence that breaks the same rule, then replayed on a fresh world to confirm it.
 */
/** What explore and replay share: the realm they act in (an isolated one on the mock), the document, the tally. */
export interface ExploreSession {
  world: World;
  templates: Template[];
  oracles: Record<ExploreRule, number>;
  /**
   * Before a world is made: on the mock, every world but the session's first gets a fresh realm. Each world's
   * archived channels would add about 6 KB to every later register of the realm (28 KB at first, 123 KB after
   * 20 worlds) while the events oracle registers afresh after every step, a realm costs the mock a few ms, and a
   * replay must not meet what earlier worlds left there (archived channels, a server's counters gone wrong).
   */
  renew(): Promise<void>;
  /** The environment of sequence `n` (its channels' names carry the run's ID and n). */
  env(n: number, counting?: () => boolean): SequenceEnv;
  close(): Promise<void>;
}

export async function openSession(opts: Pick<ExploreOptions, 'target' | 'api' | 'schemas' | 'tiers' | 'users'>): Promise<ExploreSession> {
  const ops = new OperationIndex(opts.api);
  const templates = templatesFor(ops, opts.tiers);
  const oracles = Object.fromEntries(EXPLORE_RULE_LIST.map((r) => [r, 0])) as Record<ExploreRule, number>;
  let realm = opts.target.control ? await opts.target.createRealm() : null;
  let world: World = realm?.world ?? opts.target.world;
  /** Whether the realm has a world already (the session's first world uses the realm opened with it). */
  let used = false;
  const runId = `tc-explore-${randomBytes(3).toString('hex')}`;
  return {
    get world() {
      return world;
    },
    templates,
    oracles,
    renew: async () => {
      if (!realm || !used) {
        used = true;
        return;
      }
      const old = realm;
      realm = await opts.target.createRealm();
      world = realm.world;
      await opts.target.deleteRealm(old.realmId).catch(() => undefined);
    },
    env: (n, counting = () => true) => ({
      baseUrl: opts.target.baseUrl,
      world,
      featureLevel: opts.target.featureLevel,
      ops,
      schemas: opts.schemas,
      templates,
      users: opts.users,
      prefix: `${runId} s${n}`,
      tally: (rule, count = 1) => {
        if (counting()) oracles[rule] += count;
      },
    }),
    close: async () => {
      if (realm) await opts.target.deleteRealm(realm.realmId).catch(() => undefined);
    },
  };
}

export async function explore(opts: ExploreOptions): Promise<ExploreResult> {
  const startedAt = new Date();
  const started = performance.now();
  const session = await openSession(opts);
  const { templates, oracles } = session;
  const operations: Record<string, number> = {};
  let sequences = 0;
  let steps = 0;
  let shrinking: { rule: ExploreRule; until: number } | null = null;
  let failure: { violation: Violation; ran: RanStep[] } | null = null;
  let broken: Error | null = null;
  let actors: ExploreResult['actors'] | null = null;
  /** Time spent drawing and running steps, shrinking and replaying aside: what steps per second divide by. */
  let exploredMs: number | null = null;
  const shrinkBudget = opts.shrinkMs ?? DEFAULTS.shrinkMs;
  let shrinkStarted = 0;
  const shrinkUntil = () => shrinkStarted + shrinkBudget;
  const deadline = started + (opts.durationMs ?? (opts.steps === undefined ? DEFAULTS.durationMs : Infinity));
  const exploring = () =>
    !opts.interrupt?.aborted && performance.now() < deadline && (opts.steps === undefined || steps < opts.steps) && broken === null;
  // Every world gets its own number, shrinking's and replays' too: channel names never repeat.
  let worlds = 0;
  const env = () => session.env(++worlds, () => !shrinking);
  /**
   * A sequence broke a rule: the finding, thrown on; while shrinking, only the rule of the first finding counts
   * (another is another finding: nothing is thrown, the candidate does not reproduce).
   */
  const violated = (e: unknown, ran: readonly RanStep[]): void => {
    if (!(e instanceof Violation)) throw e;
    if (shrinking && e.rule !== shrinking.rule) return;
    failure = { violation: e, ran: [...ran] };
    if (!shrinking) {
      exploredMs = performance.now() - started;
      shrinkStarted = performance.now();
      shrinking = { rule: e.rule, until: shrinkStarted + shrinkBudget };
    }
    throw e;
  };
  const property = async (choices: Choice[]): Promise<void> => {
    const going = () => (shrinking ? !opts.interrupt?.aborted && performance.now() < shrinking.until : exploring());
    if (!going()) return;
    sequences += shrinking ? 0 : 1;
    // A world that cannot be built is no finding: the run breaks off (retrying would loop until the deadline,
    // forever with --steps).
    const seq = await session
      .renew()
      .then(() => Sequence.open(env()))
      .catch((e: Error) => {
        broken ??= e;
        return null;
      });
    if (!seq) return;
    actors ??= seq.actors.map((a) => ({ name: a.name, legacy: a.legacy }));
    // What the step before touched: a draw may follow on from it (draw.ts).
    let focus: string[] = [];
    try {
      for (const choice of choices) {
        if (!going()) return;
        const step = drawStep(seq, choice, focus);
        if (!step) continue;
        if (!shrinking) {
          steps += 1;
          operations[step.kind] = (operations[step.kind] ?? 0) + 1;
        }
        try {
          await seq.run(step);
          focus = touched(seq.k, step);
        } catch (e) {
          violated(e, seq.ran);
          return;
        }
      }
      // After the last step, the actors it did not judge (Sequence.finish): a violation there is one of the sequence.
      if (going()) await seq.finish().catch((e: unknown) => violated(e, seq.ran));
    } catch (e) {
      if (!(e instanceof Violation)) broken ??= e as Error;
      throw e;
    } finally {
      await seq.close();
    }
  };
  const findings: ExploreFinding[] = [];
  try {
    for (let run = 0; exploring(); run++) {
      const arb = fc.array(choiceOf(templates, Math.max(2, opts.users)), {
        minLength: 1,
        maxLength: opts.maxSequence ?? DEFAULTS.maxSequence,
        // Lengths drawn over the whole range: a fresh world per sequence is worth many steps.
        size: 'max',
      });
      const seed = (opts.seed + run) | 0;
      // No shrinking by fast-check: a draw names "the 3rd message the actor can see", which means another
      // message once an earlier draw is dropped; shrink.ts drops concrete steps instead.
      const out = await fc.check(fc.asyncProperty(arb, property), { numRuns: 1, seed, endOnFailure: true });
      opts.onSequence?.({ sequences, steps });
      if (broken) break;
      if (out.failed && failure) {
        const { violation, ran } = failure as { violation: Violation; ran: RanStep[] };
        // fast-check simplified the draws; now the concrete steps: drop what the failure does not need.
        // Each replay in a realm of its own on the mock, as `--replay` runs: the same world every time.
        const reproduce: Reproduce = async (candidate) => {
          await session.renew();
          const again = await replaySteps(env(), candidate);
          return again.violation?.rule === violation.rule ? again.ran : null;
        };
        const shrunk = await shrinkSteps(reproduce, ran, shrinkUntil());
        await session.renew();
        const last = await replaySteps(
          env(),
          shrunk.ran.map((r) => r.step),
        );
        const confirmed = last.violation?.rule === violation.rule ? last.violation : null;
        const shown = confirmed ?? violation;
        findings.push({
          rule: violation.rule,
          message: shown.message,
          ...(shown.actor ? { actor: shown.actor } : {}),
          ...(shown.details === undefined ? {} : { details: shown.details }),
          seed,
          foundAfter: steps,
          steps: confirmed ? last.ran : shrunk.ran,
          replayed: confirmed !== null,
        });
        break;
      }
    }
  } finally {
    await session.close();
  }
  const ms = Math.round(performance.now() - started);
  return {
    target: opts.target.baseUrl,
    featureLevel: opts.target.featureLevel,
    targetKind: opts.target.control ? 'mock' : 'server',
    startedAt: startedAt.toISOString(),
    ms,
    seed: opts.seed,
    tiers: opts.tiers,
    actors: actors ?? [],
    sequences,
    steps,
    stepsPerSecond: Math.round((steps / Math.max(exploredMs ?? ms, 1)) * 10_000) / 10,
    oracles,
    operations,
    findings,
    ...(broken
      ? { stopped: { kind: 'not-started' as const, message: (broken as Error).message } }
      : opts.interrupt?.aborted
        ? { stopped: { kind: 'interrupted' as const, message: `interrupted by ${String(opts.interrupt.reason)}` } }
        : {}),
  };
}

/** Replays steps as they are written on a fresh world, every oracle after each; the first violation, if any. */
export async function replaySteps(env: SequenceEnv, steps: readonly Step[]): Promise<{ violation: Violation | null; ran: RanStep[] }> {
  const seq = await Sequence.open(env);
  try {
    for (const step of steps) {
      try {
        await seq.run(step, true);
      } catch (e) {
        if (e instanceof Violation) return { violation: e, ran: seq.ran };
        // A step naming what a dropped step made, or no longer valid: this candidate reproduces nothing.
        if (e instanceof UnboundRef || e instanceof NotApplicable) return { violation: null, ran: seq.ran };
        throw e;
      }
    }
    try {
      await seq.finish();
    } catch (e) {
      if (e instanceof Violation) return { violation: e, ran: seq.ran };
      throw e;
    }
    return { violation: null, ran: seq.ran };
  } finally {
    await seq.close();
  }
}
