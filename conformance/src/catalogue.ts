import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packagePath } from '../../cli/package-root.js';
import type { RuleDef, Tier } from './model.js';
import { referenceOfUrl } from './provenance.js';

/**
 * The rule catalogue: every normative statement of the spec with an ID (conformance/rules/catalogue.json).
 * Scenarios cite these IDs and reports group coverage by them, so a malformed file must fail loudly at
 * load time rather than silently dropping rules from the coverage table.
 */
export const CATALOGUE_PATH = packagePath('conformance/rules/catalogue.json');
/** The companion tier's rules: one file per area, format in its README.md. */
export const COMPANION_CATALOGUE_DIR = packagePath('conformance/rules/companion');

/** The areas a rule may belong to: the section-wide ones (§1–§3, §5–§9) and one per group of endpoints. */
export const RULE_AREAS = [
  'conventions',
  'resources',
  'states',
  'scheduled-messages',
  'messages',
  'markdown',
  'reports',
  'statuses',
  'drafts',
  'users',
  'subscriptions',
  'topics',
  'channels',
  'navigation-views',
  'snippets',
  'linkifiers',
  'reminders',
  'register',
  'auth',
  'events',
  'errors',
  'limits',
  'versioning',
] as const;
export type RuleArea = (typeof RULE_AREAS)[number];

/** `R<section>-<n>`: the section is a spec heading number (`1`, `2.6`, `4.21`), n counts from 1. */
export const RULE_ID = /^R(\d+(?:\.\d+)?)-([1-9]\d*)$/;

/**
 * The numbered headings of the spec, for reports. Kept by hand because the spec lives outside the
 * package (the test checks this map against the spec's headings).
 */
const SECTION_TITLES: Readonly<Record<string, string>> = {
  '1': 'What the service does',
  '2': 'Resources and their fields',
  '2.1': 'Scheduled message',
  '2.2': 'Channel (object in the channel list response)',
  '2.3': 'Subscription (object in the register response)',
  '2.4': 'Channel folder',
  '2.5': 'Message',
  '2.6': 'Draft',
  '2.7': 'User status',
  '2.8': 'User roles',
  '2.9': 'Navigation view',
  '2.10': 'Saved snippet',
  '2.11': 'Linkifier',
  '2.12': 'Reminder',
  '2.13': 'Other structures',
  '3': 'States and transitions',
  '4': 'Endpoints',
  '4.1': 'Create a scheduled message: POST /api/v1/scheduled_messages',
  '4.2': 'Edit a scheduled message: PATCH /api/v1/scheduled_messages/{scheduled_message_id}',
  '4.3': 'Fetch a single message: GET /api/v1/messages/{message_id}',
  '4.4': 'Update user status (administrator): POST /api/v1/users/{user_id}/status',
  '4.5': 'Update your status: POST /api/v1/users/me/status',
  '4.6': 'Create drafts: POST /api/v1/drafts',
  '4.7': 'Update a user: PATCH /api/v1/users/{user_id}',
  '4.8': 'Unsubscribe from channels: DELETE /api/v1/users/me/subscriptions',
  '4.9': 'Mark topic as read (deprecated): POST /api/v1/mark_topic_as_read',
  '4.10': 'Create a user: POST /api/v1/users',
  '4.11': 'Topics of a channel: GET /api/v1/users/me/{stream_id}/topics',
  '4.12': 'Update a navigation view: PATCH /api/v1/navigation_views/{fragment}',
  '4.13': 'Report a message: POST /api/v1/messages/{message_id}/report',
  '4.14': 'Edit a saved snippet: PATCH /api/v1/saved_snippets/{saved_snippet_id}',
  '4.15': 'Get all channels: GET /api/v1/streams',
  '4.16': 'Update a channel: PATCH /api/v1/streams/{stream_id}',
  '4.17': 'Deactivate a user: DELETE /api/v1/users/{user_id}',
  '4.18': 'Add a linkifier: POST /api/v1/realm/filters',
  '4.19': 'Create a message reminder: POST /api/v1/reminders',
  '4.20': 'Render a message: POST /api/v1/messages/render',
  '4.21': 'Register an event queue: POST /api/v1/register',
  '5': 'Authentication',
  '6': 'Events',
  '7': 'Errors',
  '8': 'Limits',
  '9': 'Versioning',
};

/** Every numbered section of the spec, in document order. */
export const SPEC_SECTIONS: readonly string[] = Object.keys(SECTION_TITLES).sort(compareSections);

/** The spec heading of a section (`4.8` → `Unsubscribe from channels: DELETE …`), or undefined for no such section. */
export function sectionTitle(section: string): string | undefined {
  return Object.hasOwn(SECTION_TITLES, section) ? SECTION_TITLES[section] : undefined;
}

/** Orders section numbers as the document does (`2.9` before `2.10`). */
export function compareSections(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/** `C.<area>-<n>`: a companion rule; the area is its file's name. */
export const COMPANION_RULE_ID = /^C\.([a-z][a-z-]*)-([1-9]\d*)$/;

/** The rules of the tiers asked for: the spec catalogue's, then the companion files' (areas in name order). */
export async function loadRules(tiers: readonly Tier[] = ['spec', 'companion']): Promise<RuleDef[]> {
  return [...(tiers.includes('spec') ? await loadCatalogue() : []), ...(tiers.includes('companion') ? await loadCompanionCatalogue() : [])];
}

/** Reads and validates every `<area>.json` of the companion folder, in name order. */
export async function loadCompanionCatalogue(dir: string = COMPANION_CATALOGUE_DIR): Promise<RuleDef[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const rules: RuleDef[] = [];
  // IDs cannot repeat across files: each file's IDs carry its own area.
  for (const file of files) {
    const path = join(dir, file);
    let data: unknown;
    try {
      data = JSON.parse(await readFile(path, 'utf8'));
    } catch (e) {
      throw new Error(`companion rules ${path}: ${(e as Error).message}`);
    }
    rules.push(...parseCompanionRules(data, file.slice(0, -'.json'.length), path));
  }
  return rules;
}

/**
 * Validates one companion file: a `rules` array whose entries have exactly id, section, area, text and
 * source (non-empty strings) and optionally level (the feature level the behaviour starts at), an ID
 * `C.<area>-<n>` of the file's own area, an http(s) source, no ID twice. The rule's source is the
 * reference page (its operation read from the URL) and the level.
 */
export function parseCompanionRules(data: unknown, area: string, source = 'companion rules'): RuleDef[] {
  const fail = (what: string): never => {
    throw new Error(`${source}: ${what}`);
  };
  if (!isObject(data) || !Array.isArray(data.rules)) return fail('expected an object with a "rules" array');
  const fields = ['id', 'section', 'area', 'text', 'source'] as const;
  const seen = new Set<string>();
  return data.rules.map((entry: unknown, i): RuleDef => {
    const at = `rules[${i}]`;
    if (!isObject(entry)) return fail(`${at} is not an object`);
    const extra = Object.keys(entry).filter((k) => !(fields as readonly string[]).includes(k) && k !== 'level');
    if (extra.length) fail(`${at} has unknown field(s) ${extra.join(', ')}`);
    const { level } = entry;
    if (level !== undefined && !(Number.isInteger(level) && (level as number) > 0)) fail(`${at}.level must be a positive integer`);
    for (const field of fields) {
      if (typeof entry[field] !== 'string' || entry[field].trim() === '') fail(`${at}.${field} must be a non-empty string`);
    }
    const rule = entry as Record<(typeof fields)[number], string>;
    const m = COMPANION_RULE_ID.exec(rule.id);
    if (!m) fail(`${at}: malformed ID ${JSON.stringify(rule.id)} (expected C.<area>-<n>, e.g. C.${area}-1)`);
    if (m?.[1] !== area || rule.area !== area) fail(`${at}: ${rule.id} (area ${rule.area}) is not of this file's area ${area}`);
    if (!/^https?:\/\/\S+$/.test(rule.source)) fail(`${at}: ${rule.id} source must be an http(s) URL`);
    if (seen.has(rule.id)) fail(`${at}: duplicate rule ID ${rule.id}`);
    seen.add(rule.id);
    const source = referenceOfUrl(rule.source, level as number | undefined);
    return { id: rule.id, section: rule.section, text: rule.text, area, tier: 'companion', source };
  });
}

/** Reads and validates the catalogue; the rules come back in file order. */
export async function loadCatalogue(path: string = CATALOGUE_PATH): Promise<RuleDef[]> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new Error(`rule catalogue ${path}: ${(e as Error).message}`);
  }
  return parseCatalogue(data, path);
}

/**
 * Validates the catalogue's shape: an object with a `rules` array whose entries have exactly the
 * string fields id, section, area and text, a well-formed ID that names its own section, a section of
 * the spec, a known area, non-empty text, and no ID twice.
 */
export function parseCatalogue(data: unknown, source = 'rule catalogue'): RuleDef[] {
  const fail = (what: string): never => {
    throw new Error(`${source}: ${what}`);
  };
  if (!isObject(data) || !Array.isArray(data.rules)) return fail('expected an object with a "rules" array');
  const seen = new Set<string>();
  return data.rules.map((entry: unknown, i): RuleDef => {
    const at = `rules[${i}]`;
    if (!isObject(entry)) return fail(`${at} is not an object`);
    const extra = Object.keys(entry).filter((k) => !['id', 'section', 'area', 'text'].includes(k));
    if (extra.length) fail(`${at} has unknown field(s) ${extra.join(', ')}`);
    for (const field of ['id', 'section', 'area', 'text'] as const) {
      if (typeof entry[field] !== 'string' || entry[field].trim() === '') fail(`${at}.${field} must be a non-empty string`);
    }
    const { id, section, area, text } = entry as Record<'id' | 'section' | 'area' | 'text', string>;
    const m = RULE_ID.exec(id);
    if (!m) fail(`${at}: malformed ID ${JSON.stringify(id)} (expected R<section>-<n>, e.g. R4.8-3)`);
    if (m?.[1] !== section) fail(`${at}: ID ${id} does not belong to section ${JSON.stringify(section)}`);
    if (sectionTitle(section) === undefined) fail(`${at}: ${id} names section ${section}, which the spec does not have`);
    if (!(RULE_AREAS as readonly string[]).includes(area)) fail(`${at}: ${id} has unknown area ${JSON.stringify(area)}`);
    if (seen.has(id)) fail(`${at}: duplicate rule ID ${id}`);
    seen.add(id);
    return { id, section, text, area, source: { kind: 'spec', section } };
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
