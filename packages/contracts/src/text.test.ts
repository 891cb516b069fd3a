import { describe, expect, it } from 'vitest';
import { personNameSchema } from './account.js';
import { safeName, safeText, TEXT_PROBLEM_MESSAGES, textProblem, textProblemOfMessage } from './text.js';

const BIDI_CONTROLS = [
  '\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C',
];

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('safeName', () => {
  const name = safeName(60);

  it('stores names composed (NFC) and trimmed', () => {
    expect(name.parse('e\u0301')).toBe('\u00e9');
    expect(name.parse('  Nguye\u0302\u0303n  ')).toBe('Nguyễn');
    expect(name.parse('e\u0301').length).toBe(1);
  });

  it('accepts ordinary names with diacritics, spaces, apostrophes and hyphens', () => {
    for (const value of ['Nguyễn Thị Ánh', 'Trần Đức Thắng', 'Lê Ngọc Hân', "O'Brien", 'Jean-Luc', 'Zoë', 'Müller', '李小龍']) {
      expect(name.parse(value)).toBe(value.normalize('NFC'));
    }
  });

  it('refuses every bidi control, wherever it is', () => {
    for (const control of BIDI_CONTROLS) {
      for (const value of [`Eve${control}evil`, `${control}Eve`, `Eve${control}`]) {
        const result = name.safeParse(value);
        expect(result.success, JSON.stringify(value)).toBe(false);
        expect(messagesOf(result)).toContain(TEXT_PROBLEM_MESSAGES.invisibleCharacters);
      }
    }
  });

  it('refuses other format characters (zero-width space and joiners, soft hyphen, BOM, tags) and control characters', () => {
    for (const value of ['Ann\u200Ba', 'An\u200Cna', 'An\u200Dna', 'An\u00ADna', 'An\uFEFFna', 'Anna\u{E0041}', 'An\u0007na']) {
      expect(messagesOf(name.safeParse(value)), JSON.stringify(value)).toContain(TEXT_PROBLEM_MESSAGES.invisibleCharacters);
    }
  });

  it('trims a leading or trailing byte order mark like any white space', () => {
    expect(name.parse('\uFEFFAnna\uFEFF')).toBe('Anna');
  });

  it('refuses values that show nothing, and requires a name', () => {
    for (const value of ['\u200B', '\u200B\u200C\u2060', '\u3164', '\u3164 \u115F', '\u2800', '\uFE0F']) {
      expect(name.safeParse(value).success, JSON.stringify(value)).toBe(false);
    }
    expect(messagesOf(name.safeParse('\u3164\u3164'))).toEqual([TEXT_PROBLEM_MESSAGES.blank]);
    expect(messagesOf(name.safeParse('\u200B\u200B'))).toEqual([TEXT_PROBLEM_MESSAGES.invisibleCharacters]);
    expect(name.safeParse('   ').success).toBe(false);
    expect(name.safeParse('').success).toBe(false);
  });

  it('counts the length of the composed form', () => {
    expect(safeName(3).parse('e\u0301e\u0301e\u0301')).toBe('ééé');
    expect(safeName(3).safeParse('abcd').success).toBe(false);
  });
});

describe('safeText and textProblem', () => {
  it('lets an optional text stay empty', () => {
    expect(safeText().parse('')).toBe('');
    expect(safeText().parse('  ')).toBe('');
  });

  it('names the problem of a value and of a contract message', () => {
    expect(textProblem('e\u202Egnp.exe')).toBe('invisibleCharacters');
    expect(textProblem('\u3164')).toBe('blank');
    expect(textProblem('Nguyễn Thị Ánh')).toBeNull();
    expect(textProblem('')).toBeNull();
    expect(textProblemOfMessage(TEXT_PROBLEM_MESSAGES.blank)).toBe('blank');
    expect(textProblemOfMessage('must not contain digits')).toBeUndefined();
  });

  it('is what the person name fields use', () => {
    expect(personNameSchema.parse('e\u0301')).toBe('é');
    expect(personNameSchema.safeParse('Eve\u202Eevil').success).toBe(false);
  });
});
