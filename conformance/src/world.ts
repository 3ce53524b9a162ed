import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { packagePath } from '../../cli/package-root.js';
import type { World } from '../../fixtures/world.js';

export type { World, WorldChannel, WorldChannelKind, WorldCredential, WorldRole } from '../../fixtures/world.js';

const SCHEMA_PATH = packagePath('fixtures/world.schema.json');
export const DEMO_WORLD_PATH = packagePath('fixtures/world.demo.json');

export class WorldError extends Error {}

/** A world file (fixtures/README.md), validated against fixtures/world.schema.json. */
export async function loadWorld(path: string): Promise<World> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new WorldError(`cannot read world file ${path}: ${(e as Error).message}`);
  }
  return validateWorld(data, path);
}

let validator: (((data: unknown) => boolean) & { errors?: unknown }) | null = null;

export async function validateWorld(data: unknown, source: string): Promise<World> {
  if (!validator) {
    const schema = JSON.parse(await readFile(SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    validator = ajv.compile(schema);
  }
  if (!validator(data))
    throw new WorldError(`world file ${source} does not match fixtures/world.schema.json: ${JSON.stringify(validator.errors)}`);
  return data as World;
}
