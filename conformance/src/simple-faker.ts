/**
 * faker's seeded generator, imported by name and loaded on demand (schedule.ts `shuffled`): a namespace import
 * of the package would make the build's bundle keep every one of faker's locales.
 */
export { SimpleFaker } from '@faker-js/faker';
