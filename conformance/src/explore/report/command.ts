import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Tier } from '../../model.js';
import type { ResponseSchemas } from '../../openapi.js';
import type { Output } from '../../report/console.js';
import type { Target } from '../../target.js';
import { explore } from '../run.js';
import { parseScript, replayScript } from '../script.js';
import { EXPLORE_RULE_LIST, type ExploreResult, type ExploreRule } from '../types.js';
import { ExploreConsole } from './console.js';
import { writeExploreReports } from './files.js';
import { DEFAULT_DURATION_MS, type ExploreChoices } from './options.js';
import { figuresLine, findingText, oracleCounts, stepsText } from './text.js';

/**
 * `teamchat conform --explore` (README "Explore"): random valid sequences judged by the oracles, or with
 * `--replay FILE` one script rerun. Exit codes as `conform`'s: 0 no finding (a replay that no longer fails),
 * 1 a finding (a replay that fails again), 2 it could not start, broke off or was interrupted. The reports
 * are written in every case past the options, so CI always finds the reason.
 */

export const EXPLORE_EXIT = { clean: 0, finding: 1, cannotStart: 2 } as const;

export interface ExploreIo {
  out: Output;
  err: Output;
  interrupt: AbortSignal;
}

export interface ExploreInputs {
  target: Target;
  api: OpenAPIV3_1.Document;
  schemas: ResponseSchemas;
}

const zeroOracles = (): Record<ExploreRule, number> =>
  Object.fromEntries(EXPLORE_RULE_LIST.map((r) => [r, 0])) as Record<ExploreRule, number>;

/** The result of a run that could not start (or a replay that could not run its script): the reason in one line. */
export function notStartedExplore(
  reason: string,
  target: string | undefined,
  startedAt: Date,
  ms: number,
  seed: number,
  tiers: Tier[],
): ExploreResult {
  return {
    target: target ?? '(none)',
    featureLevel: null,
    targetKind: 'server',
    startedAt: startedAt.toISOString(),
    ms,
    seed,
    tiers,
    actors: [],
    sequences: 0,
    steps: 0,
    stepsPerSecond: 0,
    oracles: zeroOracles(),
    operations: {},
    findings: [],
    stopped: { kind: 'not-started', message: reason },
  };
}

/** Writes the reports, then the exit code of the result (2 when the reports could not be written). */
async function finish(result: ExploreResult, choices: ExploreChoices, io: ExploreIo, replayOf?: string): Promise<number> {
  const written = await writeExploreReports(result, choices.files, choices.reportDir, io, replayOf === undefined ? {} : { replayOf });
  if (!written || result.stopped) return EXPLORE_EXIT.cannotStart;
  return result.findings.length > 0 ? EXPLORE_EXIT.finding : EXPLORE_EXIT.clean;
}

/** A seed for a run without --seed: random, printed and recorded so the run can be repeated. */
export const randomSeed = (): number => randomInt(0, 2 ** 31 - 1);

export async function runExplore(inputs: ExploreInputs, choices: ExploreChoices, io: ExploreIo): Promise<number> {
  if (choices.replay !== undefined) return replay(inputs, choices, io, choices.replay);
  const seed = choices.seed ?? randomSeed();
  const durationMs = choices.durationMs ?? (choices.steps === undefined ? DEFAULT_DURATION_MS : undefined);
  const budget = [
    ...(durationMs === undefined ? [] : [`${(durationMs / 1000).toFixed(durationMs % 1000 ? 1 : 0)} s`]),
    ...(choices.steps === undefined ? [] : [`${choices.steps} steps`]),
  ].join(' or ');
  const con = choices.console ? new ExploreConsole(io.out) : null;
  con?.start({ target: inputs.target.baseUrl, seed, users: choices.users, tiers: choices.tiers, budget });
  const startedAt = new Date();
  const started = performance.now();
  let result: ExploreResult;
  try {
    result = await explore({
      ...inputs,
      tiers: choices.tiers,
      seed,
      users: choices.users,
      ...(durationMs === undefined ? {} : { durationMs }),
      ...(choices.steps === undefined ? {} : { steps: choices.steps }),
      interrupt: io.interrupt,
      onSequence: (done) => con?.progress(done),
    });
  } catch (e) {
    const reason = (e as Error).message;
    result = notStartedExplore(reason, inputs.target.baseUrl, startedAt, Math.round(performance.now() - started), seed, choices.tiers);
  }
  con?.end(result);
  if (result.stopped) io.err.write(`teamchat conform --explore: ${result.stopped.message}\n`);
  return finish(result, choices, io);
}

/** `--replay FILE`: the script's steps on a fresh world; whether they break the script's rule again. */
async function replay(inputs: ExploreInputs, choices: ExploreChoices, io: ExploreIo, file: string): Promise<number> {
  const startedAt = new Date();
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const tiers = [...new Set([...choices.tiers, 'spec', 'companion'])] as Tier[];
  let script;
  let outcome;
  try {
    script = parseScript(await readFile(file, 'utf8'), file);
    outcome = await replayScript({ ...inputs, script });
  } catch (e) {
    const reason = `cannot replay ${file}: ${(e as Error).message}`;
    io.err.write(`teamchat conform --explore: ${reason}\n`);
    return finish(notStartedExplore(reason, inputs.target.baseUrl, startedAt, ms(), script?.seed ?? 0, tiers), choices, io, file);
  }
  const { violation, sameRule, ran } = outcome;
  const result: ExploreResult = {
    target: inputs.target.baseUrl,
    featureLevel: inputs.target.featureLevel,
    targetKind: inputs.target.control ? 'mock' : 'server',
    startedAt: startedAt.toISOString(),
    ms: ms(),
    seed: script.seed,
    tiers,
    actors: script.actors,
    sequences: 1,
    steps: ran.length,
    stepsPerSecond: Math.round((ran.length / Math.max(ms(), 1)) * 10_000) / 10,
    oracles: outcome.oracles,
    operations: Object.fromEntries([...new Set(ran.map((r) => r.step.kind))].map((k) => [k, ran.filter((r) => r.step.kind === k).length])),
    findings: violation
      ? [
          {
            rule: violation.rule,
            message: violation.message,
            ...(violation.actor ? { actor: violation.actor } : {}),
            ...(violation.details === undefined ? {} : { details: violation.details }),
            seed: script.seed,
            foundAfter: ran.length,
            steps: ran,
            replayed: sameRule,
          },
        ]
      : [],
  };
  if (choices.console) {
    const lines = [`explore: replaying ${file} (${script.steps.length} steps, ${script.rule}) on ${inputs.target.baseUrl}`];
    if (violation) lines.push(...findingText(result.findings[0]!));
    else lines.push(...stepsText(ran));
    lines.push(`explore: ${figuresLine(result)}`, `oracles held: ${oracleCounts(result)}`);
    io.out.write(`${lines.join('\n')}\n`);
  }
  // The one line a CI log needs: did the finding come back?
  io.out.write(
    sameRule
      ? `replay: fails the same way (${script.rule}): ${violation!.message}\n`
      : violation
        ? `replay: fails differently: ${violation.rule} (the script's finding was ${script.rule}): ${violation.message}\n`
        : ran.length < script.steps.length
          ? `replay: no longer fails: step ${ran.length + 1} of ${script.steps.length} no longer applies to the state the steps before it made, and they broke no rule (the script's finding was ${script.rule})\n`
          : `replay: no longer fails: the ${ran.length} steps broke no rule (the script's finding was ${script.rule})\n`,
  );
  return finish(result, choices, io, file);
}
