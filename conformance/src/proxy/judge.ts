import { AMBIENT_RULES, ambientChecks } from '../checks/ambient.js';
import type { CheckKind, RuleDef } from '../model.js';
import type { JudgedLevel, ResponseSchemas } from '../openapi.js';
import { spanText, type ContractFacts, type OperationFacts } from './contract.js';
import { DocumentedTexts } from './texts.js';

/**
 * What one exchange (plus the feature level the server announced earlier) can prove about a server, and
 * nothing more: rules about sequences (state, events, permissions across users) need the suite's
 * scenarios. Every finding names a rule of the catalogue where one states it.
 */

/** One exchange as the judge sees it: the request's parameter names and values, the parsed answer. */
export interface Observed {
  method: string;
  /** Path and query as sent. */
  path: string;
  /** Every request key: query string and form/multipart fields (null when the body was too big to read). */
  params: Record<string, string> | null;
  status: number;
  /** Parsed JSON, or the text, or null when the answer was too big to keep. */
  body: unknown;
}

export interface Finding {
  rule: string | null;
  /** `§4.12`-style section (the rule's, else the operation's). */
  section: string;
  message: string;
  /** `deliberate`: the spec deliberately differs from the reference server here (`x-reference-conflict`). */
  kind?: CheckKind;
}

export interface Verdict {
  operation: OperationFacts | null;
  /** Rules this exchange was judged against (passing or not): the coverage of the run. */
  judged: string[];
  findings: Finding[];
}

/** Rules the proxy can judge from one exchange besides the ambient ones (catalogue IDs). */
export const PROXY_RULES = {
  ignoredParameters: 'R1-4',
  emptyTopicDisplay: 'R1-8',
  emptyTopicSingle: 'R4.3-3',
  badRequestStatus: 'R7-7',
  emptyTopicLevel: 'R9-6',
  emptyTopicQueue: 'R4.21-17',
} as const;

/** Queues whose register the proxy saw, remembered for their client capability; the oldest are forgotten. */
const MAX_QUEUES = 10_000;

const TOPIC_OPERATIONS = new Set(['get-messages', 'get-message', 'get-stream-topics', 'get-message-history']);
const LEVEL_OPERATIONS = new Set(['register-queue', 'get-server-settings']);

export class Judge {
  readonly #codeRules = new Map<string, string>();
  readonly #levelRules = new Map<number, string>();
  readonly #sections = new Map<string, string>();
  readonly #texts: DocumentedTexts;
  /** Queue ID → whether its register declared empty_topic_name (what its events may then show). */
  readonly #queues = new Map<string, boolean>();

  constructor(
    private readonly schemas: ResponseSchemas,
    private readonly facts: ContractFacts,
    catalogue: readonly RuleDef[],
  ) {
    for (const rule of catalogue) {
      this.#sections.set(rule.id, rule.section);
      // §7's table: `CODE | when | extra fields`.
      const code = /^([A-Z_]+) \|/.exec(rule.text);
      if (rule.section === '7' && code && !this.#codeRules.has(code[1]!)) this.#codeRules.set(code[1]!, rule.id);
      const level = /^level (\d+) /.exec(rule.text);
      if (rule.section === '9' && level) this.#levelRules.set(Number(level[1]), rule.id);
    }
    this.#texts = new DocumentedTexts(facts.messages);
  }

  /** The feature level a success of register or server settings announces, if this exchange is one. */
  announcedLevel(x: Observed): number | null {
    const op = this.schemas.operationOf(x.method, x.path)?.operationId;
    if (!op || !LEVEL_OPERATIONS.has(op) || x.status !== 200 || !isObject(x.body)) return null;
    const level = x.body.service_feature_level ?? x.body.zulip_feature_level;
    return typeof level === 'number' ? level : null;
  }

  /**
   * Judges one exchange at the level the server announced (null: none announced, so any level's documented
   * answers are accepted and fields that exist only at some levels are optional).
   */
  judge(x: Observed, level: JudgedLevel): Verdict {
    const bare = x.path.split('?')[0]!;
    const operationId = this.schemas.operationOf(x.method, bare)?.operationId;
    const operation = (operationId && this.facts.get(operationId)) || null;
    const findings: Finding[] = [];
    const judged = new Set<string>();
    const section = (rule: string | null) => (rule && this.#sections.get(rule)) || operation?.section || '1';
    const add = (rule: string | null, message: string, kind?: CheckKind) =>
      findings.push({ rule, section: section(rule), message, ...(kind ? { kind } : {}) });
    // HEAD and OPTIONS (a CORS preflight) answer without a body by definition; a body past the cap was not kept.
    if (!bare.startsWith('/api/v1/') || x.method === 'HEAD' || x.method === 'OPTIONS' || x.body === null)
      return { operation, judged: [], findings };

    const body = isObject(x.body) ? x.body : null;
    const success = body?.result === 'success';
    for (const rule of [AMBIENT_RULES.envelope, success ? AMBIENT_RULES.success : AMBIENT_RULES.error]) judged.add(rule);
    for (const c of ambientChecks([{ ...exchangeShape(x), path: bare }], this.schemas, level)) {
      // The ambient check leaves schema mismatches without a rule: §1 (success: "further fields are listed
      // per operation") and §7 (errors "carry extra fields") state them.
      const schemaRule = /OpenAPI response schema/.test(c.message) ? (success ? AMBIENT_RULES.success : AMBIENT_RULES.error) : null;
      // A code no error variant has is the code check's finding (below), which names the documented codes.
      if (operation && schemaRule && /: \/code \S+ is none of the documented variants \([^)]*\)$/.test(c.message)) continue;
      add(c.rule ?? schemaRule, c.message.replace(/^\S+ \S+ → \d+: /, ''), c.kind);
    }
    if (!operation || !body) return { operation, judged: [...judged], findings };

    if (body.result === 'error' && typeof body.code === 'string')
      this.#errorCode(operation, x.status, body.code, body.msg, level, add, judged);
    if (success && x.params) this.#ignored(x.params, operation, body, level, add, judged);
    if (level !== null) {
      for (const f of this.facts.fieldsAboveLevel(operation.operationId, x.status, body, level)) {
        const rule = this.#levelRules.get(f.level) ?? null;
        if (rule) judged.add(rule);
        add(
          rule,
          `${f.path} is there, but ${f.name} came at feature level ${f.level} and the server announced ${level}` +
            (rule ? '' : ' (no §9 rule names that level)'),
        );
      }
    }
    if (success && TOPIC_OPERATIONS.has(operation.operationId)) this.#topics(operation.operationId, x, body, level, add, judged);
    if (success && operation.operationId === 'register-queue') this.#register(x, body, add, judged);
    if (success && operation.operationId === 'get-events') this.#events(x, body, add, judged);
    return { operation, judged: [...judged], findings };
  }

  #errorCode(op: OperationFacts, status: number, code: string, msg: unknown, level: JudgedLevel, add: AddFn, judged: Set<string>): void {
    // An unreadable request (a non-Basic Authorization header, a body that does not decode): the client's fault,
    // answered alike on every operation, which the document lists once (`x-wire-errors`), not per operation.
    if (this.facts.isWireError(status, code, msg)) {
      judged.add(AMBIENT_RULES.error);
      return;
    }
    const here = this.facts.codesAt(op, status, level);
    const codeRule = this.#codeRules.get(code) ?? AMBIENT_RULES.error;
    if (here.has(code) || this.facts.isSharedAuthError(op, status, code, level)) {
      judged.add(codeRule);
      const wrong = this.#texts.problem(code, msg, level);
      if (wrong) add(codeRule, wrong);
      return;
    }
    const atOtherLevels = op.codes.get(status)?.get(code);
    if (atOtherLevels) {
      // Documented for this status, but not at the announced level: a §9 level rule where one names the level.
      const boundary = atOtherLevels.map((s) => s.from ?? s.below).find((l) => l !== undefined);
      const rule = (boundary !== undefined && this.#levelRules.get(boundary)) || codeRule;
      judged.add(rule);
      add(rule, `error code ${code} is documented for ${op.operationId} ${spanText(atOtherLevels)}; the server announced ${level}`);
      return;
    }
    const elsewhere = [...op.codes.keys()].filter((s) => s !== status && this.facts.codesAt(op, s, level).has(code));
    if (here.size > 0) {
      // The code the document gives this status names the rule broken (NOT_FOUND answered as BAD_REQUEST → R7-4).
      const only = here.size === 1 ? this.#codeRules.get([...here][0]!) : undefined;
      const rule = only ?? AMBIENT_RULES.error;
      judged.add(rule);
      add(rule, `error code ${code} is not one ${op.operationId} documents for HTTP ${status} (${[...here].join(', ')})`);
    } else if (elsewhere.length === 0) {
      judged.add(AMBIENT_RULES.error);
      add(AMBIENT_RULES.error, `${op.operationId} documents no error answer with HTTP ${status}`);
    }
    if (elsewhere.length > 0) {
      const rule = code === 'BAD_REQUEST' ? PROXY_RULES.badRequestStatus : codeRule;
      judged.add(rule);
      add(rule, `${code} answered with HTTP ${status}; ${op.operationId} documents it with ${elsewhere.join(', ')}`);
    }
  }

  /**
   * R1-4: from level 167 a success lists the request keys the operation does not read. Judged only at a known
   * level: a realm that announced none on a server whose realms announced different levels (a mock's realms made
   * at level 100 by the control API) would otherwise be held to a rule of a level it may not have.
   */
  #ignored(
    params: Record<string, string>,
    op: OperationFacts,
    body: Record<string, unknown>,
    level: number | null,
    add: AddFn,
    judged: Set<string>,
  ) {
    if (level === null || level < 167) return;
    judged.add(PROXY_RULES.ignoredParameters);
    const unknown = Object.keys(params).filter((k) => !op.params.has(k));
    const listed = Array.isArray(body.ignored_parameters_unsupported) ? (body.ignored_parameters_unsupported as unknown[]) : [];
    const missing = unknown.filter((k) => !listed.includes(k));
    if (missing.length > 0)
      add(
        PROXY_RULES.ignoredParameters,
        `parameter${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not read by ${op.operationId} but missing from ignored_parameters_unsupported`,
      );
  }

  /** R1-8 / R4.3-3: without allow_empty_topic_name=true a channel message's empty topic is shown by its display name. */
  #topics(operationId: string, x: Observed, body: Record<string, unknown>, level: number | null, add: AddFn, judged: Set<string>) {
    const allowed = x.params?.allow_empty_topic_name === 'true';
    const rule = operationId === 'get-message' ? PROXY_RULES.emptyTopicSingle : PROXY_RULES.emptyTopicDisplay;
    const empty: string[] = [];
    const messages = operationId === 'get-message' ? [body.message] : Array.isArray(body.messages) ? body.messages : [];
    messages.forEach((m, i) => {
      if (isObject(m) && (m.type === 'stream' || m.type === 'channel') && m.subject === '') empty.push(`message ${String(m.id ?? i)}`);
    });
    if (Array.isArray(body.topics)) body.topics.forEach((t, i) => isObject(t) && t.name === '' && empty.push(`topics[${i}]`));
    if (Array.isArray(body.message_history))
      body.message_history.forEach((h, i) => isObject(h) && (h.topic === '' || h.prev_topic === '') && empty.push(`message_history[${i}]`));
    if (level !== null && level < 334) {
      judged.add(PROXY_RULES.emptyTopicLevel);
      if (empty.length > 0)
        add(PROXY_RULES.emptyTopicLevel, `an empty topic (${empty.join(', ')}) below feature level 334 (announced ${level})`);
      return;
    }
    if (allowed) return;
    judged.add(rule);
    if (empty.length > 0) add(rule, `an empty topic (${empty.join(', ')}) shown to a client that did not send allow_empty_topic_name=true`);
  }

  /** R4.21-17 in the answer: unread topics and muted/followed topics show the display name, never ''. */
  #register(x: Observed, body: Record<string, unknown>, add: AddFn, judged: Set<string>): void {
    let declared = false;
    try {
      const caps: unknown = JSON.parse(x.params?.client_capabilities ?? '{}');
      declared = isObject(caps) && caps.empty_topic_name === true;
    } catch {
      // Not JSON: the server answered it; the capability counts as not declared.
    }
    if (typeof body.queue_id === 'string') {
      if (this.#queues.size >= MAX_QUEUES) this.#queues.delete(this.#queues.keys().next().value!);
      this.#queues.set(body.queue_id, declared);
    }
    if (declared) return;
    judged.add(PROXY_RULES.emptyTopicQueue);
    const empty: string[] = [];
    const unread = isObject(body.unread_msgs) && Array.isArray(body.unread_msgs.streams) ? body.unread_msgs.streams : [];
    unread.forEach((u, i) => isObject(u) && u.topic === '' && empty.push(`unread_msgs.streams[${i}]`));
    if (Array.isArray(body.user_topics))
      body.user_topics.forEach((t, i) => isObject(t) && t.topic_name === '' && empty.push(`user_topics[${i}]`));
    if (empty.length > 0)
      add(PROXY_RULES.emptyTopicQueue, `an empty topic (${empty.join(', ')}) in the answer to a register without empty_topic_name`);
  }

  /** R4.21-17 in events: a queue registered without empty_topic_name never gets the empty topic. */
  #events(x: Observed, body: Record<string, unknown>, add: AddFn, judged: Set<string>): void {
    const declared = this.#queues.get(x.params?.queue_id ?? '');
    if (declared !== false || !Array.isArray(body.events)) return;
    judged.add(PROXY_RULES.emptyTopicQueue);
    const empty: string[] = [];
    for (const e of body.events) {
      if (!isObject(e)) continue;
      const m = isObject(e.message) ? e.message : null;
      if (e.type === 'message' && m && (m.type === 'stream' || m.type === 'channel') && m.subject === '')
        empty.push(`event ${String(e.id)}`);
      if (e.type === 'update_message' && e.stream_id !== undefined && (e.subject === '' || e.orig_subject === ''))
        empty.push(`event ${String(e.id)}`);
    }
    if (empty.length > 0)
      add(PROXY_RULES.emptyTopicQueue, `an empty topic (${empty.join(', ')}) sent to a queue registered without empty_topic_name`);
  }
}

type AddFn = (rule: string | null, message: string, kind?: CheckKind) => void;

/** The fields ambientChecks reads. */
function exchangeShape(x: Observed) {
  return { method: x.method, path: x.path, as: null, params: {}, status: x.status, headers: {}, body: x.body, ms: 0, curl: '' };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
