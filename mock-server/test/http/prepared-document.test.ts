import { readFile } from 'node:fs/promises';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { AJV_OPTIONS, DEFAULT_OPENAPI_PATH, documentFrom, loadDocument, loadOperations, prepareDocument } from '../../src/http/openapi.js';

/**
 * The OpenAPI document as the build prepares it (issue 17 item 2): dereferenced once, written as JSON into
 * dist/prepared/ and read back at start-up instead of the YAML. cli/test/compiled.test.ts checks the file the
 * build wrote; here, that the prepared form is the document the server reads from the sources, and when the
 * loader trusts it.
 */
const text = await readFile(DEFAULT_OPENAPI_PATH, 'utf8');

describe('the prepared OpenAPI document', () => {
  it('survives JSON: written and read back, it equals the document read from the YAML at run time', async () => {
    const prepared = await prepareDocument(text);
    const runTime = await loadDocument();
    expect(JSON.parse(JSON.stringify(prepared.document))).toEqual(runTime);
    expect(JSON.stringify(prepared.document)).not.toContain('"$ref"');
  });

  it('is used only when prepared from the same text (its hash): an edited YAML is read afresh', async () => {
    const prepared = JSON.parse(JSON.stringify(await prepareDocument(text))) as Awaited<ReturnType<typeof prepareDocument>>;
    prepared.document.info.title = 'marked by the test';
    expect((await documentFrom(text, prepared)).info.title).toBe('marked by the test');
    const edited = text.replace(/^(\s+title:).*$/m, '$1 Edited');
    expect(edited).not.toBe(text);
    expect((await documentFrom(edited, prepared)).info.title).toBe('Edited');
    expect((await documentFrom(text, null)).info.title).not.toBe('marked by the test');
  });
});

describe('validators compiled on first use', () => {
  it("every parameter's schema compiles, once: the same function answers again, with its errors", async () => {
    const operations = await loadOperations();
    const params = operations.flatMap((op) => op.params);
    expect(params.length).toBeGreaterThan(100);
    for (const param of params) {
      const first = param.validate;
      expect(typeof first).toBe('function');
      expect(param.validate).toBe(first);
    }
    // The server compiles without checking schemas against the meta-schema (start-up and first requests
    // skip that work): this is that check, for every parameter.
    const checker = new Ajv({ ...AJV_OPTIONS });
    const invalid = params.filter((p) => !checker.validateSchema(p.schema)).map((p) => p.name);
    expect(invalid).toEqual([]);
    const id = params.find((p) => p.name === 'message_id' && p.types.includes('integer'))!;
    expect(id.validate('x')).toBe(false);
    expect(id.validate.errors?.[0]?.keyword).toBe('type');
  });
});
