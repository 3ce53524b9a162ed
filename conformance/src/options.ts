import { TIERS, type Tier } from './model.js';
import { randomSeed } from './schedule.js';

/**
 * What `teamchat conform` and `runConformance()` both take, with one set of defaults: a library call and the
 * CLI with the same choices select the same scenarios (selection.ts) and judge them the same way. This module
 * is part of the published declarations, so it names only the run's plain types.
 */
export interface RunChoices {
  /** World file describing the target (fixtures/README.md); the mock's demo realm needs none. */
  world?: string;
  /** Bearer token of the mock's control API, when it was started with one. */
  controlToken?: string;
  /** Scenarios whose ID or title match. */
  grep?: RegExp;
  /** Scenarios with one of these tags or areas. */
  tags?: string[];
  /** Scenarios checking these rules (IDs or prefixes of the catalogue). */
  rules?: string[];
  /** Tiers of scenarios (default: the spec tier only, so a server implementing the spec is judged by it alone). */
  tiers?: Tier[];
  /** Scenarios run in parallel (default 4). */
  workers?: number;
  /** Also the scenarios that wait in real time on servers without the control API. */
  slow?: boolean;
  /** Also the scenarios that deactivate users or change roles on a real server. */
  allowDestructive?: boolean;
  /** Failed reference-only checks fail their scenario (default: they are warnings, the run's verdict ignores them). */
  strictReference?: boolean;
  /** Runs the scenarios in a random order (its seed is recorded in the run). */
  shuffle?: boolean;
  /** Runs the scenarios in the order this seed gives (implies shuffle). */
  seed?: number;
  /** Stop after the first failed scenario (`--bail`, the same as `maxFailures: 1`). */
  bail?: boolean;
  /**
   * Stop after this many failed or errored scenarios (`--max-failures`): those under way finish, the rest are
   * skipped as not run, and the result's `stopped` says so (kind `max-failures`).
   */
  maxFailures?: number;
}

/** The defaults of every choice with one: the CLI's option defaults are these. */
export const RUN_DEFAULTS = {
  tiers: ['spec'],
  workers: 4,
  slow: false,
  allowDestructive: false,
  strictReference: false,
} as const satisfies Partial<RunChoices>;

export interface ResolvedChoices {
  world?: string;
  controlToken?: string;
  grep?: RegExp;
  tags: string[];
  rules: string[];
  tiers: Tier[];
  workers: number;
  slow: boolean;
  allowDestructive: boolean;
  strictReference: boolean;
  /** Set when the run is shuffled (`shuffle` without a seed draws one). */
  seed?: number;
  bail?: boolean;
  maxFailures?: number;
}

/** The choices with the defaults filled in. */
export function withDefaults(c: RunChoices): ResolvedChoices {
  const seed = c.seed ?? (c.shuffle ? randomSeed() : undefined);
  return {
    ...(c.world === undefined ? {} : { world: c.world }),
    ...(c.controlToken ? { controlToken: c.controlToken } : {}),
    ...(c.grep ? { grep: c.grep } : {}),
    tags: c.tags ?? [],
    rules: c.rules ?? [],
    tiers: [...(c.tiers ?? RUN_DEFAULTS.tiers)],
    workers: c.workers ?? RUN_DEFAULTS.workers,
    slow: c.slow ?? RUN_DEFAULTS.slow,
    allowDestructive: c.allowDestructive ?? RUN_DEFAULTS.allowDestructive,
    strictReference: c.strictReference ?? RUN_DEFAULTS.strictReference,
    ...(seed === undefined ? {} : { seed }),
    ...(c.bail ? { bail: true } : {}),
    ...(c.maxFailures === undefined ? {} : { maxFailures: c.maxFailures }),
  };
}

/** `spec`, `companion` or `all`, as given on the command line. */
export const tierName = (tiers: readonly Tier[]): string => (tiers.length === TIERS.length ? 'all' : tiers.join(','));
