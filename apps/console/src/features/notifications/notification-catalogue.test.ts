import { describe, expect, it } from 'vitest';
import { NOTIFICATION_CHANNELS, NOTIFICATION_TYPES } from '@rpm/contracts';
import { resources, SUPPORTED_LANGUAGES } from '@rpm/i18n';

function read(catalogue: unknown, key: string): unknown {
  let node = catalogue;
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return node;
}

describe('notifications catalogue', () => {
  // Every kind's title and body: packages/i18n/src/catalogue.test.ts.
  it('names every type and channel the inbox and the preferences show', () => {
    const wanted = [
      ...NOTIFICATION_TYPES.map((type) => `types.${type}`),
      ...NOTIFICATION_CHANNELS.map((channel) => `channels.${channel}`),
    ];
    for (const language of SUPPORTED_LANGUAGES) {
      const missing = wanted.filter((key) => {
        const text = read(resources[language].notifications, key);
        return typeof text !== 'string' || text.trim() === '';
      });
      expect(missing, language).toEqual([]);
    }
  });

  it('names the bell, the inbox and the account tab in both languages', () => {
    expect(resources.en.notifications.title).toBe('Notifications');
    expect(resources.vi.notifications.title).toBe('Thông báo');
    expect(resources.en.common.account.tabs.notifications).toBe('Notifications');
    expect(resources.vi.common.account.tabs.notifications).toBe('Thông báo');
  });
});
