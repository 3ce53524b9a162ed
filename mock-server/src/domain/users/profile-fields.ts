import type { CustomProfileFieldRow, RealmState, UserRow } from '../../store/state.js';
import { badRequest } from '../errors.js';
import { renderMarkdown } from '../markdown.js';

/**
 * Custom profile field values of PATCH /users/{user_id} (spec §4.7 profile_data: "Custom profile field
 * updates, each an object with id (integer) and value (string)"). The spec states no validation, so the
 * reference server's holds (reference §4.7 check 5): an empty or null value removes the field's value,
 * an unknown field is `Field id {id} not found.`, then the field type's own validation, whose texts are
 * the reference server's (the field's name stands where a parameter name would).
 *
 * The reference server also refuses `You are not allowed to change this field. Contact an administrator
 * to update it.`, but only to a non-administrator editing their own fields that are not editable_by_user.
 * This operation is for administrators only (§4.7, C7), so that refusal can never happen here.
 */

/** One requested change, as the document's schema admits it (a string, a list of user IDs, or null). */
export interface ProfileDataItem {
  id: number;
  value?: string | number[] | null;
}

/** What is stored for one field: `null` removes the value. */
export interface ProfileFieldChange {
  id: number;
  value: { value: string; rendered_value?: string } | null;
}

/** Field types (reference server): the numbers stored in custom_profile_fields.type. */
const SHORT_TEXT = 1;
const LONG_TEXT = 2;
const SELECT = 3;
const DATE = 4;
const URL_FIELD = 5;
const USERS = 6;
const EXTERNAL_ACCOUNT = 7;
const PRONOUNS = 8;

/** Reference limits: short strings (short text, external account, pronouns) 50, long text 500. */
const SHORT_LIMIT = 50;
const LONG_LIMIT = 500;

type Tables = Pick<RealmState, 'custom_profile_fields' | 'users'>;

/**
 * Checks every item in request order (the first failure decides the error) and returns the changes
 * that differ from what the user has: nothing is written here.
 */
export function planProfileChanges(tables: Tables, target: UserRow, items: readonly ProfileDataItem[]): ProfileFieldChange[] {
  const next = new Map<number, ProfileFieldChange['value']>();
  for (const item of items) {
    const field = tables.custom_profile_fields[String(item.id)];
    if (!field) throw badRequest(`Field id ${item.id} not found.`);
    next.set(item.id, isEmpty(item.value) ? null : storedValue(tables, field, item.value!));
  }
  const changes: ProfileFieldChange[] = [];
  for (const [id, value] of next) {
    const current = target.profile_data[String(id)];
    // Only real changes (reference: unchanged values and removals of absent values send nothing).
    if (value === null ? current === undefined : current?.value === value.value) continue;
    changes.push({ id, value });
  }
  return changes;
}

/** Reference: `""`, null and an empty user list remove the value. */
function isEmpty(value: ProfileDataItem['value']): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** The value as stored, after the field type's validation. Text fields carry their HTML as well. */
function storedValue(tables: Tables, field: CustomProfileFieldRow, value: string | number[]): ProfileFieldChange['value'] {
  if (field.type === USERS) {
    const ids = userIds(tables, value);
    // "[]" sent as text empties the field as an empty list does.
    return ids.length === 0 ? null : { value: JSON.stringify(ids) };
  }
  if (typeof value !== 'string') throw badRequest(`${field.name} is not a string`);
  switch (field.type) {
    case SHORT_TEXT:
    case LONG_TEXT:
      capped(field.name, value, field.type === SHORT_TEXT ? SHORT_LIMIT : LONG_LIMIT);
      // Only Markdown-capable types are rendered (reference server). Rendered without a realm context,
      // as the demo fixture renders the values it ships, so both kinds of value look alike.
      return { value, rendered_value: renderMarkdown(value) };
    case EXTERNAL_ACCOUNT:
    case PRONOUNS:
      capped(field.name, value, SHORT_LIMIT);
      break;
    case SELECT:
      if (!Object.hasOwn(selectOptions(field), value)) throw badRequest(`'${value}' is not a valid choice for '${field.name}'.`);
      break;
    case DATE:
      if (!isIsoDate(value)) throw badRequest(`${field.name} is not a date`);
      break;
    case URL_FIELD:
      if (!isUrl(value)) throw badRequest(`${field.name} is not a URL`);
      break;
    default:
      // A field type this mock does not know: kept as text (the fixtures define only the eight above).
      break;
  }
  return { value };
}

function capped(name: string, value: string, limit: number): void {
  if ([...value].length > limit) throw badRequest(`${name} is too long (limit: ${limit} characters)`);
}

/** field_data of a select field: a JSON object keyed by option (reference: the value is an option key). */
function selectOptions(field: CustomProfileFieldRow): Record<string, unknown> {
  try {
    const data: unknown = JSON.parse(field.field_data);
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Reference: a date is exactly YYYY-MM-DD and a real calendar day (years 1 to 9999). */
function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The reference server accepts what Django's URL validator accepts: http, https, ftp or ftps, a host
 * (a dotted domain with a top-level domain, localhost, or an IP address), an optional port, and no
 * whitespace. This is the same rule in a simpler form (ours: the validator itself is not reproduced).
 */
function isUrl(value: string): boolean {
  if (/\s/.test(value) || !/^(https?|ftps?):\/\//i.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const host = url.hostname;
  return (
    host === 'localhost' ||
    /^\d{1,3}(\.\d{1,3}){3}$/.test(host) ||
    host.startsWith('[') ||
    /^([a-z0-9-]+\.)+[a-z]{2,63}\.?$/i.test(host) ||
    /^([a-z0-9-]+\.)+xn--[a-z0-9-]+\.?$/i.test(host)
  );
}

/**
 * A users field (type 6): a list of active human users of the realm. The reference server takes the
 * list itself (the document's array branch); the spec says values are strings, so a string holding a
 * JSON list is read as that list too (ours). Texts otherwise the reference server's.
 */
function userIds(tables: Tables, value: string | number[]): number[] {
  let list: unknown = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      list = value;
    }
  }
  if (!Array.isArray(list)) throw badRequest('User IDs is not a list');
  list.forEach((id, i) => {
    if (!Number.isInteger(id)) throw badRequest(`User IDs[${i}] is not an integer`);
  });
  const ids = list as number[];
  const missing = ids.filter((id) => {
    const user = tables.users[String(id)];
    return !user || user.is_system_bot;
  });
  if (missing.length > 0) throw badRequest(`Invalid user IDs: ${missing.join(', ')}`);
  for (const id of ids) {
    const user = tables.users[String(id)]!;
    if (!user.is_active) throw badRequest(`User with ID ${id} is deactivated`);
    if (user.is_bot) throw badRequest(`User with ID ${id} is a bot`);
  }
  return ids;
}
