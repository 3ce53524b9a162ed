import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Email address syntax for user creation (§4.10) and email changes (§4.7). The spec names no syntax;
 * the reference server uses Django's validator. Here the JSON Schema `email` format of ajv-formats (a
 * dependency already): a dot-atom local part and a dotted host name, plus the longest address a mail
 * path may carry (RFC 5321, also the reference server's column width). Compiled once.
 */
const MAX_EMAIL_LENGTH = 254;

const emailFormat = (() => {
  const ajv = new Ajv();
  addFormats.default(ajv, ['email']);
  return ajv.compile<string>({ type: 'string', format: 'email' });
})();

export function isEmailAddress(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && emailFormat(value);
}
