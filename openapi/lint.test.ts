/**
 * The OpenAPI document under the two linters its users run: Redocly's `recommended`
 * ruleset (openapi/redocly.yaml) and Spectral's `spectral:oas`. Both must report nothing at all, warnings
 * included: a warning here (an example that does not match its schema, an array without `items`) is a
 * mistake a client generator or the /docs page shows to users.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lint, loadConfig } from '@redocly/openapi-core';
import spectralCore, { type RulesetDefinition } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { describe, expect, it } from 'vitest';

const docPath = fileURLToPath(new URL('./team-chat.openapi.yaml', import.meta.url));
const redoclyConfigPath = fileURLToPath(new URL('./redocly.yaml', import.meta.url));
const SEVERITY = ['error', 'warn', 'info', 'hint'];

describe('team-chat.openapi.yaml under the linters', () => {
  it('passes Redocly (recommended) with no problem of any severity', async () => {
    const config = await loadConfig({ configPath: redoclyConfigPath });
    const problems = await lint({ ref: docPath, config });
    const found = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer ?? '').join(', ')}`);
    expect(found).toEqual([]);
  });

  it('extends the recommended ruleset and only switches rules off (none is downgraded to hide its findings)', () => {
    const text = readFileSync(redoclyConfigPath, 'utf8');
    expect(text).toMatch(/^extends:\n {2}- recommended$/m);
    const settings = [...text.matchAll(/^ {2}[a-z0-9-]+: (\S+)$/gm)].map((m) => m[1]);
    expect(settings.length).toBeGreaterThan(0);
    expect(new Set(settings)).toEqual(new Set(['off']));
  });

  it('passes Spectral (spectral:oas) with no problem of any severity', async () => {
    const { Spectral, Document } = spectralCore;
    const spectral = new Spectral();
    // `spectral:oas` in a .spectral.yaml: the oas ruleset with its recommended rules, nothing switched off.
    // (The cast: spectral-rulesets' declaration of `oas` lacks the `extends` key spectral-core's type requires.)
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
    const document = new Document(readFileSync(docPath, 'utf8'), spectralParsers.Yaml, docPath);
    const results = await spectral.run(document);
    const found = results.map(
      (r) =>
        `${SEVERITY[r.severity] ?? r.severity} ${String(r.code)}: ${r.message} at ${r.path.join('.')} (line ${r.range.start.line + 1})`,
    );
    expect(found).toEqual([]);
  });
});
