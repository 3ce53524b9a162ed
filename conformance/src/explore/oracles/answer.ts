import { ambientChecks } from '../../checks/ambient.js';
import type { Exchange } from '../../model.js';
import type { SequenceEnv } from '../env.js';
import { EXPLORE_RULES, Violation, type Step } from '../types.js';

/**
 * The answer on its own, as the scripted checks judge every answer (checks/ambient.ts: envelope, status,
 * response schema), and for the state: an error's status is one the document describes for the operation,
 * a step valid for the state succeeds, a wrong-on-purpose step gets its documented error.
 */
export function checkAnswer(env: Pick<SequenceEnv, 'schemas' | 'featureLevel' | 'ops'>, step: Step, x: Exchange): void {
  const fail = (message: string): never => {
    throw new Violation(EXPLORE_RULES.answer, `${step.method} ${x.path.split('?')[0]} → ${x.status}: ${message}`, step.actor, x.body);
  };
  const ambient = ambientChecks([x], env.schemas, env.featureLevel);
  if (ambient.length > 0) throw new Violation(EXPLORE_RULES.answer, ambient[0]!.message, step.actor, x.body);
  const body = x.body as Record<string, unknown>;
  const facts = env.ops.get(step.operation);
  if (body.result === 'error' && !facts.statuses.has(x.status)) fail(`the document describes no ${x.status} answer for ${step.operation}`);
  if (step.invalid) {
    if (body.result !== 'error')
      fail(`a request with ${step.invalid.what} succeeded (expected ${step.invalid.status} ${step.invalid.code})`);
    if (x.status !== step.invalid.status || body.code !== step.invalid.code)
      fail(
        `a request with ${step.invalid.what}: expected ${step.invalid.status} ${step.invalid.code}, got ${String(body.code)} "${String(body.msg)}"`,
      );
    return;
  }
  if (step.expect === 'success' && body.result !== 'success')
    fail(`a request valid for the state was refused: ${String(body.code)} "${String(body.msg)}"`);
}
