import type { OpenAPIV3_1 } from 'openapi-types';
import { TIERS } from '../model.js';
import type { ResponseSchemas } from '../openapi.js';
import type { Target } from '../target.js';
import { ACTOR_ROLES } from './actors.js';
import { openSession, replaySteps } from './run.js';
import {
  EXPLORE_RULE_LIST,
  type ExploreFinding,
  type ExploreResult,
  type ExploreRule,
  type ExploreScript,
  type RanStep,
  type Step,
  type Violation,
} from './types.js';

/**
 * A finding's shrunk sequence as a file (`explore-finding.json`) and its replay (`--replay FILE`): the steps
 * name what they use symbolically (`{"$ref":"m3"}`), so the same file reruns on a fresh world of any target.
 */

export const SCRIPT_FORMAT = 'teamchat-explore-script/1';

/** The script of a finding: what `--replay` reruns. */
export function scriptOf(finding: ExploreFinding, actors: ExploreResult['actors']): ExploreScript {
  return {
    format: SCRIPT_FORMAT,
    seed: finding.seed,
    rule: finding.rule,
    message: finding.message,
    actors: actors.map((a) => ({ name: a.name, legacy: a.legacy })),
    steps: finding.steps.map((r) => r.step),
  };
}

/** A script file that is not one: the reason names the file and what is wrong. */
export class ScriptError extends Error {}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a script file's text; throws ScriptError saying what is wrong (the first problem). */
export function parseScript(text: string, source: string): ExploreScript {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ScriptError(`${source} is not JSON (${(e as Error).message})`);
  }
  const wrong = (what: string) => new ScriptError(`${source} is not an explore script: ${what}`);
  if (!isRecord(data)) throw wrong('not an object');
  if (data.format !== SCRIPT_FORMAT) throw wrong(`format is ${JSON.stringify(data.format)}, expected "${SCRIPT_FORMAT}"`);
  if (typeof data.seed !== 'number' || !Number.isSafeInteger(data.seed)) throw wrong('seed is not an integer');
  if (!(EXPLORE_RULE_LIST as readonly unknown[]).includes(data.rule))
    throw wrong(`rule ${JSON.stringify(data.rule)} is not an explore rule`);
  if (typeof data.message !== 'string') throw wrong('message is not a string');
  const actors = data.actors;
  if (!Array.isArray(actors) || actors.length < 2 || actors.length > ACTOR_ROLES.length)
    throw wrong(`actors is not a list of 2 to ${ACTOR_ROLES.length}`);
  for (const [i, a] of actors.entries())
    if (!isRecord(a) || typeof a.name !== 'string' || typeof a.legacy !== 'boolean') throw wrong(`actors[${i}] is not {name, legacy}`);
  if (!Array.isArray(data.steps) || data.steps.length === 0) throw wrong('steps is not a non-empty list');
  const names = new Set((actors as { name: string }[]).map((a) => a.name));
  for (const [i, s] of data.steps.entries()) {
    const problem = stepProblem(s, names);
    if (problem) throw wrong(`steps[${i}] ${problem}`);
  }
  return data as unknown as ExploreScript;
}

function stepProblem(s: unknown, actors: ReadonlySet<string>): string | null {
  if (!isRecord(s)) return 'is not an object';
  for (const key of ['kind', 'actor', 'operation', 'method', 'path'] as const)
    if (typeof s[key] !== 'string' || s[key] === '') return `has no ${key}`;
  if (!actors.has(s.actor as string)) return `acts as ${String(s.actor)}, not one of the script's actors`;
  if (!(s.path as string).startsWith('/')) return 'has a path that does not start with /';
  if (!isRecord(s.params)) return 'has no params object';
  if (s.expect !== 'success' && s.expect !== 'either') return 'expects neither "success" nor "either"';
  return null;
}

/** The actors a replay acts as on this world: the first `count` roles it has (as explore picks them). */
function actorNamesOf(credentials: Record<string, unknown>, count: number): string[] {
  return ACTOR_ROLES.filter((r) => credentials[r] !== undefined).slice(0, Math.max(2, count));
}

export interface ReplayOutcome {
  /** The first violation the replay met, if any. */
  violation: Violation | null;
  /** Whether it broke the script's rule (the finding reproduced). */
  sameRule: boolean;
  ran: RanStep[];
  oracles: Record<ExploreRule, number>;
}

/**
 * Replays a script on a fresh world of the target (an isolated realm on the mock), every oracle after every
 * step. Every tier's templates are loaded: the script names its steps' kinds, whatever tier found them.
 */
export async function replayScript(opts: {
  target: Target;
  api: OpenAPIV3_1.Document;
  schemas: ResponseSchemas;
  script: ExploreScript;
}): Promise<ReplayOutcome> {
  const { script } = opts;
  const session = await openSession({ ...opts, tiers: [...TIERS], users: script.actors.length });
  try {
    const names = actorNamesOf(session.world.credentials, script.actors.length);
    const missing = script.actors.filter((a, i) => names[i] !== a.name);
    if (missing.length > 0)
      throw new ScriptError(
        `the target's world gives the actors ${names.join(', ')}; the script acts as ${script.actors.map((a) => a.name).join(', ')}`,
      );
    const unknown = script.steps.find((s) => !session.templates.some((t) => t.name === s.kind));
    if (unknown) throw new ScriptError(`the script has a step of kind ${unknown.kind}, which this version of explore does not know`);
    const { violation, ran } = await replaySteps(session.env(1), script.steps as Step[]);
    return { violation, sameRule: violation?.rule === script.rule, ran, oracles: session.oracles };
  } finally {
    await session.close();
  }
}
