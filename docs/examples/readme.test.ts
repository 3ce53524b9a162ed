import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';

/**
 * The README's section "Testing your client's failure handling" shows retry.test.ts (run by `npm test` like every
 * test here) as it is, so the example a reader copies is one that passes.
 */
const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
const heading = "\n## Testing your client's failure handling\n";
const start = readme.indexOf(heading);
const end = readme.indexOf('\n## ', start + heading.length);
const section = start < 0 ? '' : readme.slice(start, end < 0 ? undefined : end);

it("the README's failure-handling section shows docs/examples/retry.test.ts verbatim", async () => {
  expect(start).toBeGreaterThan(0);
  const example = await readFile(new URL('./retry.test.ts', import.meta.url), 'utf8');
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  expect(blocks).toContain(example);
});
