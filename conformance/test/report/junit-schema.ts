import { readFile } from 'node:fs/promises';
import { validateXML } from 'xmllint-wasm';

/** The common JUnit schema (Jenkins' junit-10.xsd; where it comes from and its licence: schema/README.md). */
const SCHEMA = new URL('./schema/junit-10.xsd', import.meta.url);

/** What libxml2 finds wrong with a JUnit file under that schema: [] when it is valid. */
export async function junitSchemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: { fileName: 'junit.xml', contents: xml },
    schema: { fileName: 'junit-10.xsd', contents: await readFile(SCHEMA, 'utf8') },
  });
  return result.errors.map((e) => e.rawMessage);
}
