import { ApiClient, type Reply } from '../client.js';
import type { Exchange } from '../model.js';
import { actorsOf, type ExploreActor } from './actors.js';
import { Knowledge, keysNamedBy } from './knowledge.js';
import { maySeeMessage } from './visibility.js';
import { checkAnswer } from './oracles/answer.js';
import { checkCounters, movesNewest } from './oracles/counters.js';
import { checkEvents, pollAll } from './oracles/events.js';
import type { Choice, Plan, Template } from './operations/template.js';
import type { PolledEvent } from './reducers/index.js';
import { EXPLORE_RULES, Violation, type RanStep, type Step, type StepValue } from './types.js';
import type { SequenceEnv } from './env.js';
import { buildWorld, teardownWorld } from './world.js';

/**
 * One sequence on its own fresh world: a step at a time, every oracle after every step (the events oracle's fresh
 * register for the actors #toJudge names, every actor by the end, finish). A step that does not fit the state
 * (nothing to edit yet) is skipped; a violation is thrown (shrink.ts shortens the sequence).
 */
export type { SequenceEnv } from './env.js';

export class Sequence {
  readonly k = new Knowledge();
  readonly ran: RanStep[] = [];
  readonly actors: ExploreActor[];
  readonly #exchanges: Exchange[] = [];
  readonly #client: ApiClient;
  /** The step after which each actor was last judged by the events oracle (0: its queue's register). */
  readonly #judgedAt = new Map<string, number>();
  /** Actors whose max_message_id a step may have moved since the counters oracle last read it. */
  readonly #newestDue = new Set<string>();

  private constructor(readonly env: SequenceEnv) {
    this.#client = new ApiClient(env.baseUrl, (x) => this.#exchanges.push(x) - 1);
    this.actors = actorsOf(env.world, this.#client, env.users);
  }

  static async open(env: SequenceEnv): Promise<Sequence> {
    const s = new Sequence(env);
    await buildWorld(s.k, s.actors, env.prefix);
    return s;
  }

  async close(): Promise<void> {
    await Promise.all(this.actors.map((a) => a.settled()));
    await teardownWorld(this.k, this.actors);
  }

  /** Turns a drawn choice into a step (null: nothing fits now). */
  plan(choice: Choice): Step | null {
    const template = this.env.templates[choice.template % this.env.templates.length]!;
    const actor = this.actors[choice.actor % this.actors.length]!;
    const facts = this.env.ops.get(template.operation);
    const plan = template.plan({ k: this.k, actor, actors: this.actors, choice, n: this.ran.length + 1 }, facts);
    if (!plan) return null;
    return toStep(template, actor.name, facts.method, facts.path, plan, this.ran.length + 1);
  }

  /**
   * Runs a step and every oracle after it; throws a Violation. `replay`: the step comes from a script or a
   * shrunk candidate, so a step planned as valid must still be valid here (NotApplicable otherwise).
   */
  async run(step: Step, replay = false): Promise<RanStep> {
    const template = this.env.templates.find((t) => t.name === step.kind);
    const actor = this.actors.find((a) => a.name === step.actor);
    if (!template || !actor) throw new Error(`explore: a step of ${step.kind} as ${step.actor}, which this run does not have`);
    if (replay && step.expect === 'success' && !step.invalid && !this.#stillValid(template, actor, step)) throw new NotApplicable(step);
    const path = this.k.resolvePath(step.path);
    const params = Object.fromEntries(Object.entries(step.params).map(([key, v]) => [key, this.k.resolve(v)])) as Record<string, never>;
    const reply = await actor.send(step.method, path, params);
    const exchange = this.#exchanges[reply.index]!;
    const ran: RanStep = { n: this.ran.length + 1, step, exchange, events: {} };
    this.ran.push(ran);
    try {
      await this.#oracles(template, actor, ran, reply);
    } catch (e) {
      // A state from events that missed an event explains what follows from it (a plan that no longer fits, a
      // check that read that state), so every actor not judged yet is judged first and its violation wins. A
      // request of finish that fails (not a violation) leaves the one found.
      if (e instanceof Violation && !FIRST_RULES.has(e.rule))
        await this.finish().catch((late: unknown) => {
          if (late instanceof Violation) throw late;
        });
      throw e;
    }
    return ran;
  }

  /** The oracles after a step, in this order: answer, events and leaks, counters, read-your-writes. */
  async #oracles(template: Template, actor: ExploreActor, ran: RanStep, reply: Reply): Promise<void> {
    const { step, exchange } = ran;
    checkAnswer(this.env, step, exchange);
    this.env.tally(EXPLORE_RULES.answer);
    const ok = reply.status === 200 && reply.body.result === 'success';
    const bound = ok && step.binds ? this.#bindMade(template, step, reply) : undefined;
    if (movesNewest(step)) for (const a of this.actors) this.#newestDue.add(a.name);
    const before = new Map(this.actors.map((a) => [a.name, a.state]));
    const events = await pollAll(this.actors);
    for (const [name, list] of events) if (list.length > 0) ran.events[name] = [...list];
    const context = { k: this.k, step, reply, actor, actors: this.actors, events, ...(bound ? { bound } : {}) };
    if (ok) template.learn?.(context);
    await this.#judge(events, before, this.#toJudge(ran.n, events, ok ? actor : null), { step, actor });
    if (ok && template.verify) {
      await template.verify({
        ...context,
        fail: (message, who, details) => {
          throw new Violation(EXPLORE_RULES.readYourWrites, message, who, details);
        },
      });
      this.env.tally(EXPLORE_RULES.readYourWrites);
    }
  }

  /**
   * After the last step: every actor the last step did not judge is judged now, so that an event missed since an
   * actor's last judgement is caught in the sequence that missed it (and in each replay of it).
   */
  async finish(): Promise<void> {
    const last = this.ran.at(-1);
    const judge = new Set(this.actors.filter((a) => this.#judgedAt.get(a.name) !== last?.n).map((a) => a.name));
    if (!last || judge.size === 0) return;
    const before = new Map(this.actors.map((a) => [a.name, a.state]));
    const events = await pollAll(this.actors);
    for (const [name, list] of events) {
      if (list.length === 0) continue;
      (last.events[name] ??= []).push(...list);
      judge.add(name);
    }
    await this.#judge(events, before, judge);
  }

  /**
   * Whom the events oracle judges after step `n` (a fresh register each): every actor that received events (its
   * state changed), the actor of a step that succeeded, and one more in turn, so that each actor is judged at
   * least every `actors.length` steps (and at the end, finish). An actor that missed an event keeps the gap in its
   * state from events until its next judgement, which finds it.
   */
  #toJudge(n: number, events: ReadonlyMap<string, readonly PolledEvent[]>, stepActor: ExploreActor | null): Set<string> {
    const judge = new Set<string>([this.actors[n % this.actors.length]!.name]);
    if (stepActor) judge.add(stepActor.name);
    for (const [name, list] of events) if (list.length > 0) judge.add(name);
    return judge;
  }

  /** The events, leaks and counters oracles after a step (or at the end, finish), for the actors to judge. */
  async #judge(
    events: ReadonlyMap<string, readonly PolledEvent[]>,
    before: ReadonlyMap<string, Record<string, unknown>>,
    judge: ReadonlySet<string>,
    stepped?: { step: Step; actor: ExploreActor },
  ): Promise<void> {
    this.#learnForeign(events);
    await checkEvents(this.env, this.k, this.actors, events, before, judge);
    const n = this.ran.length;
    for (const name of judge) this.#judgedAt.set(name, n);
    // After the leaks check: receiving a message is not a licence to have received it.
    this.#learnReceived(events);
    const judged = this.actors.filter((a) => judge.has(a.name));
    await checkCounters(this.env, this.k, judged, this.#newestDue, stepped);
  }

  /**
   * Messages in the sequence's channels that no step sent (the notification bot's "moved here" notes):
   * known as `n1`, `n2`, … so that the topic and newest-message counters count them too.
   */
  #learnForeign(events: ReadonlyMap<string, readonly PolledEvent[]>): void {
    for (const list of events.values()) {
      for (const e of list) {
        if (e.type !== 'message') continue;
        const m = e.message as Record<string, unknown>;
        const channel = typeof m.stream_id === 'number' ? this.k.channelById(m.stream_id) : undefined;
        if (!channel || typeof m.id !== 'number' || this.k.messageById(m.id)) continue;
        this.k.messages.push({
          key: this.k.bind('n', m.id),
          id: m.id,
          sender: '',
          channel: channel.key,
          topic: String(m.subject ?? m.topic ?? ''),
          participants: [],
          content: '',
          deleted: false,
          reactions: new Set(),
        });
      }
    }
  }

  /** A step planned as valid, on this state: the template's own check, else what it names exists and the actor may see it. */
  #stillValid(template: Template, actor: ExploreActor, step: Step): boolean {
    if (template.valid) return template.valid({ k: this.k, actor, actors: this.actors }, step);
    for (const key of keysNamedBy(step)) {
      if (this.k.idOf(key) === undefined) return false;
      const m = this.k.message(key);
      if (m && (m.deleted || maySeeMessage(actor, m, this.k) !== true)) return false;
    }
    return true;
  }

  /**
   * Who holds a copy of each message (visibility.ts mayHoldMessage: flag events about it may reach them; topics they
   * may mark as read): those whose queue received it. A move gives no copy to the destination's subscribers when its
   * history is shared, as explore's channels' is (the reference adds rows only where history is protected).
   */
  #learnReceived(events: ReadonlyMap<string, readonly PolledEvent[]>): void {
    for (const [name, list] of events) {
      for (const e of list) {
        if (e.type !== 'message') continue;
        const m = this.k.messageById(Number((e.message as { id?: unknown }).id));
        if (m) (m.receivedBy ??= new Set()).add(name);
      }
    }
  }

  #bindMade(template: Template, step: Step, reply: Reply): string | undefined {
    const id = template.bind ? template.bind(reply) : (reply.body.id ?? (Array.isArray(reply.body.ids) ? reply.body.ids[0] : undefined));
    if (typeof id !== 'number') return undefined;
    return this.k.bindAs(step.binds!, id);
  }
}

/** The rules of the events oracle (with leaks), which every other is checked after. */
const FIRST_RULES = new Set<string>([EXPLORE_RULES.eventsSnapshot, EXPLORE_RULES.noLeaks]);

/** A replayed step that is not valid on the state its sequence reached (the step making what it needs was dropped). */
export class NotApplicable extends Error {
  constructor(readonly step: Step) {
    super(`step ${step.kind} as ${step.actor} does not apply to this state`);
  }
}

/** The keys a step's parameters refer to. */
/** `n`: the step's number in its sequence, which names what it makes (`m7`). */
function toStep(template: Template, actor: string, method: string, pathTemplate: string, plan: Plan, n: number): Step {
  const path = pathTemplate.replace(/\{([a-z_]+)\}/g, (whole, name: string) => {
    const v = plan.pathParams?.[name] as StepValue | undefined;
    if (v === undefined) return whole;
    return typeof v === 'object' && v !== null && '$ref' in v ? `{${String((v as { $ref: string }).$ref)}}` : String(v);
  });
  return {
    kind: template.name,
    actor,
    operation: template.operation,
    method,
    path,
    params: plan.params,
    expect: plan.expect,
    ...(plan.invalid ? { invalid: plan.invalid } : {}),
    ...(plan.binds ? { binds: `${plan.binds}${n}` } : {}),
  };
}
