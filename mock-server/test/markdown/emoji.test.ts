import { describe, expect, it } from 'vitest';
import * as catalogue from '../../src/domain/emoji.js';
import { SERVICE_EXTRA_EMOJI, UNICODE_EMOJI, unicodeEmoji } from '../../src/fixtures/emoji.js';
import type { RealmState } from '../../src/store/state.js';

describe('the fixture emoji agree with the catalogue', () => {
  // The codes the reference server uses for the fixture's names (reference doc §4.20 for smile).
  it.each([
    ['smile', '1f642'],
    ['car', '1f697'],
    ['computer', '1f4bb'],
    ['+1', '1f44d'],
    ['tada', '1f389'],
    ['heart', '2764'],
    ['octopus', '1f419'],
  ])('%s = %s', (name, code) => {
    expect(unicodeEmoji(name)).toEqual({ emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji' });
    expect(catalogue.unicodeEmojiCode(name)).toBe(code);
  });

  it('covers every fixture emoji', () => {
    for (const e of UNICODE_EMOJI) expect(catalogue.unicodeEmojiMatches(e.emoji_name, e.emoji_code)).toBe(true);
  });

  it('re-exports the extra emoji of the catalogue', () => {
    expect(SERVICE_EXTRA_EMOJI).toBe(catalogue.SERVICE_EXTRA_EMOJI);
    expect(SERVICE_EXTRA_EMOJI).toEqual({ emoji_name: 'teamchat', emoji_code: 'teamchat', reaction_type: 'service_extra_emoji' });
  });
});

describe('Unicode names and codes', () => {
  it.each<[string, string | undefined]>([
    ['smile', '1f642'],
    ['slightly_smiling_face', '1f642'],
    ['big_smile', '1f604'],
    ['thumbsup', '1f44d'],
    ['-1', '1f44e'],
    ['poop', '1f4a9'],
    ['hankey', '1f4a9'],
    ['woman_shrugging', '1f937-200d-2640'],
    ['hash', '0023-20e3'],
    ['eye_in_speech_bubble', '1f441-200d-1f5e8'],
    ['woman-shrugging', undefined],
    ['skin_tone_2', undefined],
    ['skin-tone-2', undefined],
    ['teamchat', undefined],
    ['Smile', undefined],
  ])('name %j → %j', (name, code) => {
    expect(catalogue.unicodeEmojiCode(name)).toBe(code);
  });

  it.each<[string, string | undefined]>([
    ['1f642', 'smile'],
    ['1f604', 'big_smile'],
    ['1f4a9', 'poop'],
    ['2764', 'heart'],
    ['1f44d', '+1'],
    ['1F642', undefined],
    ['2764-fe0f', undefined],
    ['1f3fb', undefined],
  ])('code %j → canonical name %j', (code, name) => {
    expect(catalogue.unicodeEmojiName(code)).toBe(name);
    expect(catalogue.isUnicodeEmojiCode(code)).toBe(name !== undefined);
  });

  it.each<[string, string, boolean]>([
    ['thumbsup', '1f44d', true],
    ['+1', '1f44d', true],
    ['smile', '1f604', false],
    ['big_smile', '1f604', true],
    ['heart', '2764-fe0f', false],
    ['nonsense', '1f642', false],
  ])('%s is a name of %s: %s', (name, code, matches) => {
    expect(catalogue.unicodeEmojiMatches(name, code)).toBe(matches);
  });

  it.each([
    ['🙂', '1f642'],
    ['❤️', '2764'],
    ['#️⃣', '0023-20e3'],
    ['🤷‍♀️', '1f937-200d-2640'],
  ])('characters %s → code %s', (chars, code) => {
    expect(catalogue.codeOfCharacters(chars)).toBe(code);
  });
});

describe('realm emoji and name resolution', () => {
  const tables = {
    custom_emoji: {
      '1': { id: 1, name: 'party_parrot', source_url: '/e/1.png', deactivated: false, author_id: 1 },
      '2': { id: 2, name: 'gone', source_url: '/e/2.png', deactivated: true, author_id: 1 },
      '3': { id: 3, name: 'heart', source_url: '/e/3.png', deactivated: false, author_id: 1 },
    },
  } as Pick<RealmState, 'custom_emoji'>;

  it('finds active custom emoji by name and any custom emoji by code', () => {
    expect(catalogue.activeRealmEmoji(tables, 'party_parrot')?.id).toBe(1);
    expect(catalogue.activeRealmEmoji(tables, 'gone')).toBeUndefined();
    expect(catalogue.realmEmojiByCode(tables, '2')?.name).toBe('gone');
    expect(catalogue.realmEmojiByCode(tables, '9')).toBeUndefined();
    expect(catalogue.realmEmojiByCode(tables, 'x1')).toBeUndefined();
  });

  it.each([
    ['party_parrot', { emoji_name: 'party_parrot', emoji_code: '1', reaction_type: 'realm_emoji' }],
    ['heart', { emoji_name: 'heart', emoji_code: '3', reaction_type: 'realm_emoji' }],
    ['teamchat', { emoji_name: 'teamchat', emoji_code: 'teamchat', reaction_type: 'service_extra_emoji' }],
    ['smile', { emoji_name: 'smile', emoji_code: '1f642', reaction_type: 'unicode_emoji' }],
    ['gone', undefined],
  ])('emojiByName(%j)', (name, emoji) => {
    expect(catalogue.emojiByName(tables, name)).toEqual(emoji);
  });
});
