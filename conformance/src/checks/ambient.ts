import type { Check, Exchange } from '../model.js';
import type { JudgedLevel, ResponseSchemas } from '../openapi.js';
import type { SchemaProblem } from '../schema-errors.js';

/** Rule IDs of the catalogue that the ambient checks encode (conformance/rules/catalogue.json). */
export const AMBIENT_RULES = {
  envelope: 'R1-2',
  success: 'R1-3',
  error: 'R7-1',
  streamExtra: 'R7-2',
} as const;

/**
 * Checks made on every exchange of every scenario, whatever it is about (Schemathesis-style): the
 * envelope of spec §1 and §7, the response schema of openapi/ for the operation and status, and the
 * error extras (§7 STREAM_DOES_NOT_EXIST carries stream_id or stream; the reference's queue_id on
 * BAD_EVENT_QUEUE_ID). Only failures are reported, so a passing run stays readable.
 *
 * The schema is the one of `level`, the feature level the server announced (null: unknown, so fields that
 * exist only at some levels are optional). Where the spec deliberately differs from the reference server
 * (`x-reference-conflict`), the failure is a separate check of kind `deliberate`, labelled as such.
 */
export function ambientChecks(exchanges: readonly Exchange[], schemas: ResponseSchemas, level: JudgedLevel): Check[] {
  const out: Check[] = [];
  exchanges.forEach((x, i) => {
    if (!x.path.startsWith('/api/v1/')) return;
    const fail = (rule: string | null, message: string, source?: Check['source']) =>
      out.push({
        rule,
        ok: false,
        message: `${x.method} ${x.path.split('?')[0]} → ${x.status}: ${message}`,
        exchange: i,
        ...(source ? { source } : {}),
      });
    const body = x.body as Record<string, unknown> | string | null;
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      return fail(AMBIENT_RULES.envelope, 'the body is not a JSON object');
    if (body.result !== 'success' && body.result !== 'error') fail(AMBIENT_RULES.envelope, `result is ${JSON.stringify(body.result)}`);
    if (typeof body.msg !== 'string') fail(AMBIENT_RULES.envelope, 'msg is missing or not a string');
    if (body.result === 'success') {
      if (body.msg !== '') fail(AMBIENT_RULES.success, `a success with msg ${JSON.stringify(body.msg)}`);
      if (x.status !== 200) fail(AMBIENT_RULES.success, `a success with HTTP status ${x.status}`);
    }
    if (body.result === 'error') {
      if (typeof body.code !== 'string') fail(AMBIENT_RULES.error, 'an error without a code');
      if (x.status < 400) fail(AMBIENT_RULES.error, `an error with HTTP status ${x.status}`);
      if (body.code === 'STREAM_DOES_NOT_EXIST' && typeof body.stream_id !== 'number' && typeof body.stream !== 'string')
        fail(AMBIENT_RULES.streamExtra, 'STREAM_DOES_NOT_EXIST without stream_id or stream');
      if (body.code === 'BAD_EVENT_QUEUE_ID' && typeof body.queue_id !== 'string')
        fail(null, 'BAD_EVENT_QUEUE_ID without queue_id', { kind: 'reference', operation: 'get-events' });
    }
    if (x.status >= 500) fail(null, `a server error (${x.status})`);
    const found = schemas.problems(x.method, x.path, x.status, body, level);
    if (!found) return;
    const of = `the OpenAPI response schema of ${found.operationId} ${x.status}`;
    const plain = found.problems.filter((p) => !p.conflict);
    if (plain.length > 0) fail(null, `does not match ${of}: ${listed(plain)}`);
    const byConflict = new Map<string, SchemaProblem[]>();
    for (const p of found.problems.filter((q) => q.conflict)) {
      const key = `${p.conflict!.spec}\n${p.conflict!.reference}`;
      byConflict.set(key, [...(byConflict.get(key) ?? []), p]);
    }
    for (const group of byConflict.values()) {
      const { spec, reference } = group[0]!.conflict!;
      const label = `(spec ${spec} deliberately differs from the reference: ${reference})`;
      out.push({
        rule: null,
        ok: false,
        kind: 'deliberate',
        message: `${x.method} ${x.path.split('?')[0]} → ${x.status}: does not match ${of}: ${listed(group)} ${label}`,
        exchange: i,
      });
    }
  });
  return out;
}

/** The first problems, and how many more: one answer's schema line stays one line. */
function listed(problems: readonly SchemaProblem[]): string {
  const shown = problems.slice(0, 3).map((p) => p.text);
  return shown.join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : '');
}
