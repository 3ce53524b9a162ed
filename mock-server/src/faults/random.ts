import { generateMersenne53Randomizer } from '@faker-js/faker';

/**
 * A fault rule's own generator (faker's 53-bit Mersenne Twister, as the fixtures use): the same seed gives the same
 * draws. In a module of its own so that rules.ts loads it with the first rule: from the sources faker's entry
 * costs a second or more to import, which a server without rules should not pay.
 */
export const seeded = (seed: number): { next(): number } => generateMersenne53Randomizer(seed);
