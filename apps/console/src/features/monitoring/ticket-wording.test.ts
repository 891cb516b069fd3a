import { TICKET_TYPES } from '@rpm/contracts';
import { resources, SUPPORTED_LANGUAGES } from '@rpm/i18n';
import { describe, expect, it } from 'vitest';
import { assignLabel, ticketWording } from './ticket-wording';

function textOf(language: (typeof SUPPORTED_LANGUAGES)[number], key: string): string {
  let node: unknown = resources[language].monitoring;
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
  if (typeof node !== 'string') throw new Error(`missing ${language} monitoring:${key}`);
  return node;
}

describe('ticket wording', () => {
  for (const language of SUPPORTED_LANGUAGES) {
    it(`speaks of the SOS only on SOS tickets (${language})`, () => {
      for (const type of TICKET_TYPES) {
        const texts = Object.values(ticketWording(type)).map((key) => textOf(language, key));
        if (type === 'SOS') expect(texts.some((text) => text.includes('SOS')), type).toBe(true);
        else expect(texts.filter((text) => /SOS/i.test(text)), type).toEqual([]);
      }
    });
  }

  it('offers "Assign to me" on an unassigned ticket and "Take over" on another handler’s', () => {
    expect(assignLabel({ assignee: null })).toBe('ticketAction.assign');
    expect(assignLabel({ assignee: { id: 'u1', fullName: 'Olga' } })).toBe('ticketAction.takeOver');
    for (const language of SUPPORTED_LANGUAGES) {
      expect(textOf(language, 'ticketAction.takeOver')).not.toBe(textOf(language, 'ticketAction.assign'));
    }
  });
});
