import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Output } from '../../report/console.js';
import type { FileReporterName } from '../../report/index.js';
import type { PolledEvent } from '../reducers/index.js';
import { scriptOf } from '../script.js';
import type { ExploreResult, RanStep } from '../types.js';
import { renderExploreHtml } from './html.js';
import { renderExploreJUnit } from './junit.js';
import { EVENTS_KEPT, type ExploreReportContext } from './text.js';

/** The files of an explore run in --report-dir, by the --reporter name that asks for each. */
export const EXPLORE_FILES = { json: 'explore.json', html: 'explore.html', junit: 'explore-junit.xml' } as const satisfies Record<
  FileReporterName,
  string
>;
/** The shrunk script of a finding: `--replay` reruns it. Written with any file reporter. */
export const FINDING_FILE = 'explore-finding.json';

/** A response body or a violation's evidence longer than this is cut in the reports (the start kept). */
const TEXT_LIMIT = 50_000;

const cut = (value: unknown): unknown => {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined || text.length <= TEXT_LIMIT) return value;
  return { truncated: `${text.length - TEXT_LIMIT} of ${text.length} characters left out`, start: text.slice(0, TEXT_LIMIT) };
};

function boundedStep(r: RanStep): RanStep & { eventsOmitted?: Record<string, number> } {
  const events: Record<string, PolledEvent[]> = {};
  const omitted: Record<string, number> = {};
  for (const [actor, list] of Object.entries(r.events)) {
    events[actor] = list.slice(0, EVENTS_KEPT);
    if (list.length > EVENTS_KEPT) omitted[actor] = list.length - EVENTS_KEPT;
  }
  return {
    ...r,
    exchange: { ...r.exchange, body: cut(r.exchange.body) },
    events,
    ...(Object.keys(omitted).length > 0 ? { eventsOmitted: omitted } : {}),
  };
}

/**
 * The result as the reports hold it: at most EVENTS_KEPT events per actor and step (the rest counted in
 * `eventsOmitted`), long bodies and evidence cut, so a finding after a busy sequence stays a readable file.
 */
export function boundedResult(result: ExploreResult): ExploreResult {
  return {
    ...result,
    findings: result.findings.map((f) => {
      const details = cut(f.details);
      return { ...f, ...(details === undefined ? {} : { details }), steps: f.steps.map(boundedStep) };
    }),
  };
}

/**
 * Writes the explore reports asked for into `reportDir`, and the finding's script when there is one (an
 * old script is removed, so the directory never offers to replay a finding this run did not make; a replay
 * leaves the script it reran). False, with the reason on `err`, when they could not be written.
 */
export async function writeExploreReports(
  result: ExploreResult,
  names: readonly FileReporterName[],
  reportDir: string,
  io: { out: Output; err: Output },
  context: ExploreReportContext = {},
): Promise<boolean> {
  if (names.length === 0) return true;
  const dir = resolve(reportDir);
  const bounded = boundedResult(result);
  const render: Record<FileReporterName, () => string> = {
    json: () => `${JSON.stringify(bounded, null, 2)}\n`,
    html: () => renderExploreHtml(bounded, context),
    junit: () => renderExploreJUnit(bounded, context),
  };
  try {
    await mkdir(dir, { recursive: true });
    for (const name of names) {
      const path = join(dir, EXPLORE_FILES[name]);
      await writeFile(path, render[name]());
      io.out.write(`${name} report: ${path}\n`);
    }
    if (context.replayOf === undefined) {
      const script = join(dir, FINDING_FILE);
      const finding = result.findings[0];
      if (finding) {
        await writeFile(script, `${JSON.stringify(scriptOf(finding, result.actors), null, 2)}\n`);
        io.out.write(`finding script: ${script} (rerun it with --explore --replay ${script})\n`);
      } else await rm(script, { force: true });
    }
    return true;
  } catch (e) {
    io.err.write(`teamchat conform: cannot write the explore reports to ${dir}: ${(e as Error).message}\n`);
    return false;
  }
}
