import type { RealmState } from '../../store/state.js';
import { badRequest } from '../errors.js';

/**
 * Full names (§4.7 full_name, §4.10; the spec is silent on the rules, so the reference server's hold,
 * reference §4.7 check 4): at most 100 characters, at least 2, none of the characters that would break
 * mention syntax, not ending in `|` plus digits (that is the `@**Name|ID**` form), and unique in realms
 * that require unique names. The caller strips whitespace (the document's x-strip) beforehand.
 */
export const MAX_NAME_LENGTH = 100;
export const MIN_NAME_LENGTH = 2;

// Characters the reference server refuses in names: they are mention and quote syntax.
const INVALID_CHARACTERS = /[*`\\>"@]/;
// Control and format characters (Unicode categories Cc, Cf) and unpaired surrogates.
const CONTROL = /[\p{Cc}\p{Cf}]|\p{Cs}/u;

export function checkFullName(tables: Pick<RealmState, 'users' | 'realm'>, name: string, exceptUserId: number | null = null): string {
  if ([...name].length > MAX_NAME_LENGTH) throw badRequest('Name too long!');
  if ([...name].length < MIN_NAME_LENGTH) throw badRequest('Name too short!');
  if (INVALID_CHARACTERS.test(name) || CONTROL.test(name)) throw badRequest('Invalid characters in name!');
  if (/\|\d+$/.test(name)) throw badRequest('Invalid format!');
  if (tables.realm.realm.require_unique_names) {
    const wanted = name.toLowerCase();
    const taken = Object.values(tables.users).some(
      (u) => u.user_id !== exceptUserId && !u.is_system_bot && u.full_name.toLowerCase() === wanted,
    );
    if (taken) throw badRequest('Unique names required in this organization.');
  }
  return name;
}
