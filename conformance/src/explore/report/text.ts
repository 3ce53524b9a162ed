import type { PolledEvent } from '../reducers/index.js';
import type { ExploreFinding, ExploreResult, RanStep } from '../types.js';

/**
 * A finding as plain text: the numbered steps with their curl lines and the events each actor received,
 * for the console and the JUnit report (CI logs). Bounded: a step shows at most EVENTS_SHOWN events per
 * actor, each in one short line; explore.json keeps up to EVENTS_KEPT of them whole.
 */

/** What a report adds about the run beyond its result: a replay names the script it reran. */
export interface ExploreReportContext {
  replayOf?: string;
}

/** Events per actor and step a text report names (the rest are counted). */
export const EVENTS_SHOWN = 8;
/** Events per actor and step the JSON and HTML reports keep whole. */
export const EVENTS_KEPT = 50;

const short = (v: unknown, max = 24): string => {
  const text = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/** Fields that say which entity an event is about, in the order they are shown. */
const KEY_FIELDS = [
  'op',
  'message_id',
  'message_ids',
  'stream_id',
  'stream_ids',
  'subject',
  'topic',
  'flag',
  'user_id',
  'emoji_name',
  'property',
];

/** One event in a few words: `update_message(message_id=12, subject="beta")`; a message event by its message. */
export function compactEvent(e: PolledEvent): string {
  const parts: string[] = [];
  if (e.type === 'message' && typeof e.message === 'object' && e.message !== null) {
    const m = e.message as Record<string, unknown>;
    parts.push(`id=${short(m.id)}`);
    if (m.stream_id !== undefined) parts.push(`stream_id=${short(m.stream_id)}`);
    if (m.subject !== undefined || m.topic !== undefined) parts.push(`topic=${short(m.subject ?? m.topic)}`);
  }
  for (const key of KEY_FIELDS) if (e[key] !== undefined) parts.push(`${key}=${short(e[key])}`);
  return `${e.type}(${parts.join(', ')})`;
}

/** The events of one step, one line per actor (at most EVENTS_SHOWN events each). */
export function eventLines(events: Record<string, PolledEvent[]>): string[] {
  return Object.entries(events).map(([actor, list]) => {
    const shown = list.slice(0, EVENTS_SHOWN).map(compactEvent);
    const more = list.length > EVENTS_SHOWN ? `, … ${list.length - EVENTS_SHOWN} more` : '';
    return `${actor}: ${shown.join(', ')}${more}`;
  });
}

/** One step's headline: `3. member move-topic: PATCH /api/v1/messages/{m1} → 200 (invalid on purpose: …)`. */
export function stepHeadline(r: RanStep): string {
  const invalid = r.step.invalid
    ? ` (wrong on purpose: ${r.step.invalid.what}; documented ${r.step.invalid.status} ${r.step.invalid.code})`
    : '';
  return `${r.n}. ${r.step.actor} ${r.step.kind}: ${r.step.method} ${r.step.path} → ${r.exchange.status}${invalid}`;
}

/** The numbered steps, each with its curl line and the events each actor received after it. */
export function stepsText(steps: readonly RanStep[], indent = '  '): string[] {
  const lines: string[] = [];
  for (const r of steps) {
    lines.push(`${indent}${stepHeadline(r)}`);
    lines.push(`${indent}   ${r.exchange.curl}`);
    const events = eventLines(r.events);
    if (events.length === 0) lines.push(`${indent}   events: none`);
    else for (const line of events) lines.push(`${indent}   events of ${line}`);
  }
  return lines;
}

/** A finding: the rule and message, the shrunk steps, whether its replay failed the same way. */
export function findingText(f: ExploreFinding): string[] {
  return [
    `finding: ${f.rule}${f.actor ? ` (as ${f.actor} sees it)` : ''}`,
    `  ${f.message}`,
    `  found after ${plural(f.foundAfter, 'step')} (seed ${f.seed}), shrunk to ${plural(f.steps.length, 'step')}; replayed: ${f.replayed ? 'yes, it fails the same way' : 'no, a fresh world did not fail the same way'}`,
    `  curl lines use $KEY_<role>: the API key of that role's user in the world file`,
    ...stepsText(f.steps),
  ];
}

/** `explore/answer 120, explore/events-snapshot 480, …`: each oracle rule and how often it held. */
export function oracleCounts(result: Pick<ExploreResult, 'oracles'>): string {
  return Object.entries(result.oracles)
    .map(([rule, n]) => `${rule} ${n}`)
    .join(', ');
}

/** The run's figures in one line. */
export function figuresLine(r: Pick<ExploreResult, 'sequences' | 'steps' | 'stepsPerSecond' | 'ms' | 'seed'>): string {
  return `${plural(r.sequences, 'sequence')}, ${plural(r.steps, 'step')} in ${(r.ms / 1000).toFixed(1)} s, ${r.stepsPerSecond} steps/s (oracles included), seed ${r.seed}`;
}

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What each oracle rule checks, in a line (the reports' rule tables and JUnit test names). */
export const RULE_TEXT: Record<string, string> = {
  'explore/answer': 'every answer has the envelope, status, schema and documented error the state calls for',
  'explore/events-snapshot': 'register state + every event received = a fresh register, for every actor',
  'explore/read-your-writes': 'what a write said it did is what the matching read returns',
  'explore/no-leaks': 'no event or read shows an actor a message, channel or user it may not see',
  'explore/counters': 'unread and subscriber counts, topic lists and max_message_id agree with the messages',
};
