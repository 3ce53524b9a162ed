import { describe, expect, it } from 'vitest';
import { renderJUnit } from '../../src/report/junit.js';
import type { RunResult } from '../../src/model.js';
import { junitSchemaErrors } from './junit-schema.js';
import { fixtureRun } from './run-fixture.js';

/**
 * CI servers read `junit.xml` (GitLab, Jenkins, GitHub test-report actions): it must be valid
 * under the common JUnit schema, not merely well-formed. The files a real `teamchat conform` writes are
 * checked in cli.test.ts and cli-ci.test.ts with the same validator.
 */
describe('junit.xml under the common JUnit schema (junit-10.xsd)', () => {
  it('a run with passes, a failure, an error, a skip and hostile text is valid', async () => {
    expect(await junitSchemaErrors(renderJUnit(fixtureRun()))).toEqual([]);
  });

  it('a run stopped early, with a shuffle seed and no scenario at all, is valid', async () => {
    const stopped: RunResult = { ...fixtureRun(), seed: 7, stopped: { message: 'the target stopped answering' } } as RunResult;
    expect(await junitSchemaErrors(renderJUnit(stopped))).toEqual([]);
    const empty: RunResult = {
      ...fixtureRun(),
      scenarios: [],
      totals: { ...fixtureRun().totals, passed: 0, failed: 0, error: 0, skipped: 0 },
    };
    expect(await junitSchemaErrors(renderJUnit(empty))).toEqual([]);
  });

  it('the validator names what the schema refuses (what the report used to write)', async () => {
    const before = renderJUnit(fixtureRun())
      .replace('<testsuites ', '<testsuites skipped="1" ')
      .replace(/(<testcase [^>]*>)/, '$1<properties><property name="rule" value="R1"/></properties>');
    const errors = await junitSchemaErrors(before);
    expect(errors).toEqual([
      expect.stringMatching(/testsuites', attribute 'skipped': The attribute 'skipped' is not allowed/),
      expect.stringMatching(/Element 'properties': This element is not expected/),
    ]);
  });
});
