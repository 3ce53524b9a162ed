import { create } from 'xmlbuilder2';
import { EXPLORE_RULE_LIST, type ExploreResult } from '../types.js';
import { figuresLine, findingText, RULE_TEXT, type ExploreReportContext } from './text.js';

/**
 * explore-junit.xml: one <testsuite>, one <testcase> per oracle rule. The rule of a finding is a <failure>
 * whose message is the finding's and whose text is the shrunk script (numbered steps, curl lines, events),
 * so a CI log alone reproduces it; a run that could not start, lost its target or was interrupted adds an
 * `explore/run` <error> with the reason. Valid under the same JUnit schema as junit.xml (tested).
 */
export function renderExploreJUnit(result: ExploreResult, context: ExploreReportContext = {}): string {
  const failures = new Set(result.findings.map((f) => f.rule)).size;
  const errors = result.stopped ? 1 : 0;
  const tests = EXPLORE_RULE_LIST.length + errors;
  // A rule no step checked (the run stopped first) neither held nor failed.
  const unchecked = EXPLORE_RULE_LIST.filter((r) => !(result.oracles[r] > 0) && !result.findings.some((f) => f.rule === r));
  const time = seconds(result.ms);
  // Response bodies may hold characters XML 1.0 cannot carry; replace them rather than fail the report.
  const doc = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '\uFFFD' });
  const root = doc.ele('testsuites', { name: 'teamchat conform --explore', tests, failures, errors, time });
  const name = context.replayOf === undefined ? 'explore' : `explore replay of ${context.replayOf}`;
  const suite = root.ele('testsuite', { name, tests, failures, errors, skipped: unchecked.length, time, timestamp: result.startedAt });
  const props = suite.ele('properties');
  const property = (key: string, value: string) => props.ele('property', { name: key, value });
  property('target', result.target);
  property('target_kind', result.targetKind);
  property('feature_level', result.featureLevel === null ? 'unknown' : String(result.featureLevel));
  property('seed', String(result.seed));
  property('tier', result.tiers.join(','));
  property('actors', result.actors.map((a) => `${a.name}${a.legacy ? ' (legacy)' : ''}`).join(', '));
  property('sequences', String(result.sequences));
  property('steps', String(result.steps));
  property('steps_per_second', String(result.stepsPerSecond));
  if (result.stopped) property('stopped', result.stopped.message);
  for (const rule of EXPLORE_RULE_LIST) {
    const tc = suite.ele('testcase', { classname: 'explore', name: `${rule}: ${RULE_TEXT[rule] ?? rule}`, time: '0.000' });
    const finding = result.findings.find((f) => f.rule === rule);
    if (finding) tc.ele('failure', { message: finding.message, type: 'ExploreFinding' }).txt(findingText(finding).join('\n'));
    else if (unchecked.includes(rule)) tc.ele('skipped', { message: 'no step of this run was checked by this rule' });
    tc.ele('system-out').txt(`held ${result.oracles[rule] ?? 0} times; ${figuresLine(result)}`);
  }
  if (result.stopped) {
    const tc = suite.ele('testcase', { classname: 'explore', name: 'explore/run: the run starts and ends by its budget', time });
    tc.ele('error', { message: result.stopped.message, type: result.stopped.kind }).txt(result.stopped.message);
  }
  return doc.end({ prettyPrint: true });
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);
