import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv';
import type { ValidateFunction } from 'ajv';
import type * as AjvFormatsModule from 'ajv-formats';
import { indexOf, type IndexedTables } from '../../store/indexes.js';

/**
 * Email address syntax for user creation (§4.10) and email changes (§4.7). The spec names no syntax;
 * the reference server uses Django's validator. Here the JSON Schema `email` format of ajv-formats (a
 * dependency already): a dot-atom local part and a dotted host name, plus the longest address a mail
 * path may carry (RFC 5321, also the reference server's column width). Compiled once, on first use: not
 * at start-up, which then loads no ajv (CommonJS, so a synchronous require serves this check).
 */
const MAX_EMAIL_LENGTH = 254;

const require = createRequire(import.meta.url);
let emailFormat: ValidateFunction<string> | null = null;

function compileEmailFormat(): ValidateFunction<string> {
  const { Ajv } = require('ajv') as typeof AjvModule;
  const addFormats = require('ajv-formats') as typeof AjvFormatsModule.default;
  const ajv = new Ajv();
  addFormats.default(ajv, ['email']);
  return ajv.compile<string>({ type: 'string', format: 'email' });
}

export function isEmailAddress(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && (emailFormat ??= compileEmailFormat())(value);
}

/**
 * An address already used in the realm (§4.10 "already in use", §4.7 new_email): as any other account's
 * API email or delivery email, bots and system bots included, compared without case (an address names
 * one mailbox whatever its case). `exceptUserId`: the user whose own address does not count.
 */
export function emailInUse(tables: IndexedTables, email: string, exceptUserId: number | null = null): boolean {
  const people = indexOf(tables).people;
  return [...people.withEmail(email), ...people.withDeliveryEmail(email)].some((id) => id !== exceptUserId);
}
