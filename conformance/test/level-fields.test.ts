import { describe, expect, it } from 'vitest';
import { loadContract, levelOf, type FeatureName } from '../src/openapi.js';
import { CHANNEL_FIELD_LEVELS } from '../scenarios/level-fields.js';

/**
 * The scenarios' table of level-marked channel fields is the Channel schema's `x-feature-level` marks, written
 * again where scenario code can read it synchronously: this keeps the two from drifting apart.
 */
describe('the channel fields scenarios check by level', () => {
  it('are exactly the marked properties of the Channel schema, with the same names and levels', async () => {
    const doc = await loadContract();
    const channel = doc.components?.schemas?.Channel as {
      properties: Record<string, { 'x-feature-level'?: { name: string; level: number } }>;
    };
    const marked = Object.fromEntries(
      Object.entries(channel.properties).flatMap(([field, p]) => (p['x-feature-level'] ? [[field, p['x-feature-level']]] : [])),
    );
    const table = CHANNEL_FIELD_LEVELS as Record<string, FeatureName>;
    expect(Object.keys(table).sort()).toEqual(Object.keys(marked).sort());
    for (const [field, feature] of Object.entries(table)) {
      expect({ field, name: feature, level: levelOf(feature) }).toEqual({ field, ...marked[field] });
    }
  });
});
