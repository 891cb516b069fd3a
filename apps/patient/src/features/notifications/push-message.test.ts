import { describe, expect, it } from 'vitest';
import { isAppWindow, notificationOptions, notificationTargetUrl, readPushPayload } from './push-message';

const SCOPE = 'https://rpm.example/app/';
const ID = '0190f2a4-7b7e-7c3a-9d1e-2f4b5c6d7e8f';
const payload = (fields: Record<string, unknown>) => JSON.stringify({ notificationId: ID, title: 'Appointment', body: 'Open the app to read it.', link: null, ...fields });

describe('readPushPayload', () => {
  it('reads the server payload', () => {
    expect(readPushPayload(payload({ link: `/appointments/${ID}` }))).toEqual({
      notificationId: ID,
      title: 'Appointment',
      body: 'Open the app to read it.',
      link: `/appointments/${ID}`,
    });
    expect(readPushPayload(payload({}))?.link).toBeNull();
  });

  it.each([
    ['no data', undefined],
    ['no data (null)', null],
    ['empty text', ''],
    ['not JSON', 'hello'],
    ['JSON that is no object', '"text"'],
    ['an array', '[1, 2]'],
    ['null', 'null'],
  ])('ignores %s', (_, text) => {
    expect(readPushPayload(text)).toBeUndefined();
  });

  it.each([
    ['no id', { notificationId: undefined }],
    ['an empty id', { notificationId: '' }],
    ['a numeric id', { notificationId: 7 }],
    ['no title', { title: undefined }],
    ['a blank title', { title: '  ' }],
    ['a title of another kind', { title: { en: 'x' } }],
    ['an overlong title', { title: 'x'.repeat(201) }],
    ['no body', { body: undefined }],
    ['a link of another kind', { link: 42 }],
    ['a missing link', { link: undefined }],
  ])('ignores a payload with %s', (_, fields) => {
    expect(readPushPayload(payload(fields))).toBeUndefined();
  });

  it.each(['https://evil.example/', '//evil.example/app', 'appointments', '/\\evil.example', 'javascript:alert(1)'])(
    'drops a link that is no app path: %s',
    (link) => {
      expect(readPushPayload(payload({ link }))?.link).toBeNull();
    },
  );
});

describe('notificationOptions', () => {
  it('tags the notification with its id and keeps the link for the click', () => {
    const read = readPushPayload(payload({ link: '/medicines' }));
    if (read === undefined) throw new Error('payload not read');
    expect(notificationOptions(read, '/app/icons/icon-192.png')).toEqual({
      body: 'Open the app to read it.',
      tag: ID,
      data: { link: '/medicines' },
      icon: '/app/icons/icon-192.png',
      badge: '/app/icons/icon-192.png',
    });
  });
});

describe('notificationTargetUrl', () => {
  it('opens the link under the app', () => {
    expect(notificationTargetUrl({ link: `/appointments/${ID}` }, SCOPE)).toBe(`https://rpm.example/app/appointments/${ID}`);
    expect(notificationTargetUrl({ link: '/notifications?tab=updates' }, SCOPE)).toBe('https://rpm.example/app/notifications?tab=updates');
  });

  it.each([
    ['no link', { link: null }],
    ['no data', null],
    ['data of another kind', 'text'],
    ['another site', { link: '//evil.example/x' }],
    ['a full address', { link: 'https://evil.example/' }],
    ['a path out of the app', { link: '/../console/' }],
  ])('opens the notification centre for %s', (_, data) => {
    expect(notificationTargetUrl(data, SCOPE)).toBe('https://rpm.example/app/notifications');
  });
});

describe('isAppWindow', () => {
  it.each([
    ['https://rpm.example/app/', true],
    ['https://rpm.example/app', true],
    ['https://rpm.example/app/health/heart-rate', true],
    ['https://rpm.example/console/', false],
    ['https://rpm.example/application', false],
    ['https://other.example/app/', false],
  ])('%s: %s', (url, expected) => {
    expect(isAppWindow(url, SCOPE)).toBe(expected);
  });
});
