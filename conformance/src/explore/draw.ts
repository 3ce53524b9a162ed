import fc from 'fast-check';
import { isRef, keysNamedBy, type Knowledge } from './knowledge.js';
import { topicKey, type Choice, type Template } from './operations/template.js';
import type { Sequence } from './sequence.js';
import type { Step, StepValue } from './types.js';

/**
 * How explore draws its steps. A step is drawn as fast-check draws it (a weighted template, an actor, small
 * numbers), or, one time in two, it follows on from the step before, as a stateful fuzzer's steps do: it
 * touches what that step touched (the message just sent, the channel just left, the topic a message was just
 * moved to). A bug that needs a short story (leave, then a message, then a reaction to it) is then met within
 * a few sequences, where independent draws would need thousands; every template is still drawn on its own.
 */

/** One step's draw. `near` 0 shrinks to a step as drawn; wrong on purpose one time in ten. */
export function choiceOf(templates: readonly Template[], actors: number): fc.Arbitrary<Choice> {
  return fc.record({
    template: fc.oneof(...templates.map((t, i) => ({ arbitrary: fc.constant(i), weight: t.weight }))),
    actor: fc.nat({ max: actors - 1 }),
    a: fc.nat({ max: 30 }),
    b: fc.nat({ max: 30 }),
    c: fc.nat({ max: 30 }),
    flag: fc.boolean(),
    // Shrinks towards 0, the valid variant.
    invalid: fc.nat({ max: 9 }).map((n) => n === 9),
    near: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: NEAR_RANGE })),
  });
}

const NEAR_RANGE = 1_000_000;

/**
 * The step of a choice. Following on (`near`), every template but the previous step's, as every actor, plans
 * with the focus (what the step before touched, nearest first); of the steps that touch the focus, one is taken
 * by the templates' weights. Nothing touches it (the first step, a focus no one can reach): the step as drawn.
 */
export function drawStep(seq: Sequence, choice: Choice, focus: readonly string[]): Step | null {
  if (!choice.near || focus.length === 0) return seq.plan(choice);
  const near: Step[] = [];
  const weights: number[] = [];
  const templates = seq.env.templates;
  // A story moves on: the step after a leave is not another leave, the one after an edit not another edit.
  const last = seq.ran.at(-1)?.step.kind;
  for (let template = 0; template < templates.length; template++) {
    if (templates[template]!.name === last) continue;
    const steps: Step[] = [];
    for (let actor = 0; actor < seq.actors.length; actor++) {
      const step = seq.plan({ ...choice, template, actor, focus });
      if (step && touched(seq.k, step).some((key) => focus.includes(key))) steps.push(step);
    }
    // A template's weight is shared by the actors who can take it: a step only one actor can take (a message to
    // the private channel just left) is not outweighed by one everyone may try (changing its description).
    for (const step of steps) {
      near.push(step);
      weights.push(templates[template]!.weight / steps.length);
    }
  }
  if (near.length === 0) return seq.plan(choice);
  let at = ((choice.near - 1) / NEAR_RANGE) * weights.reduce((sum, w) => sum + w, 0);
  for (const [i, step] of near.entries()) {
    at -= weights[i]!;
    if (at < 0) return step;
  }
  return seq.plan(choice);
}

/**
 * What a step touches, as a focus names it, nearest first. A step that made something: that alone (a message
 * just sent is what the next step most likely wants: a reaction, an edit, a move). Otherwise what it names
 * (messages, channels, drafts, …), then each message's topic and channel (where it is now, after a move), then
 * the topic its parameters name.
 */
export function touched(k: Knowledge, step: Step): string[] {
  if (step.binds && k.idOf(step.binds) !== undefined) return [step.binds];
  const keys = new Set<string>();
  const named = keysNamedBy(step);
  for (const key of named) keys.add(key);
  for (const key of named) {
    const m = k.message(key);
    if (m?.channel) keys.add(topicKey(m.channel, m.topic)).add(m.channel);
  }
  const channel = refOf(step.params.to) ?? refOf(step.params.stream_id);
  const topic = step.params.topic ?? step.params.topic_name;
  if (channel && typeof topic === 'string') keys.add(topicKey(channel, topic));
  return [...keys];
}

function refOf(v: StepValue | undefined): string | undefined {
  return isRef(v) ? v.$ref : undefined;
}
