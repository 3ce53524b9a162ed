import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { DEFAULT_OPENAPI_PATH } from '../../src/http/openapi.js';
import { GENERATED_TYPES_PATH, generateOperationTypes } from '../../../tools/gen-types.js';

/** The committed types are what `npm run gen:types` makes of the document today. */
describe('generated operation types', () => {
  it('match the OpenAPI document (run `npm run gen:types` after changing it)', async () => {
    expect(await readFile(GENERATED_TYPES_PATH, 'utf8')).toBe(await generateOperationTypes());
  }, 30_000);

  it('change when a parameter of the document changes, so the check above can fail', async () => {
    const document = parseYaml(await readFile(DEFAULT_OPENAPI_PATH, 'utf8'));
    document.components.schemas.SendMessageRequest.properties.read_by_sender = { type: 'string' };
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-types-'));
    try {
      const path = join(dir, 'changed.openapi.yaml');
      await writeFile(path, stringifyYaml(document));
      const changed = await generateOperationTypes(path);
      const sendMessage = (text: string) => text.slice(text.indexOf('"send-message.parameters"'), text.indexOf('"get-message.parameters"'));
      expect(sendMessage(await readFile(GENERATED_TYPES_PATH, 'utf8'))).toContain('read_by_sender?: boolean;');
      expect(sendMessage(changed)).toContain('read_by_sender?: string;');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('give every decoded parameter that always arrives (required, or defaulted and not tied to a level) a non-optional type', async () => {
    const text = await readFile(GENERATED_TYPES_PATH, 'utf8');
    const block = text.slice(text.indexOf('"get-message.parameters"'), text.indexOf('"report-message.parameters"'));
    expect(block).toContain('apply_markdown: boolean;'); // default true
    expect(block).toContain('allow_empty_topic_name?: boolean;'); // default false, but only from its feature level
    expect(block).toContain('message_id: number;'); // path parameter
  });
});
