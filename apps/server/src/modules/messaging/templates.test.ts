import { OTP_PURPOSES } from '@rpm/contracts';
import { SUPPORTED_LANGUAGES } from '@rpm/i18n';
import { describe, expect, it } from 'vitest';
import { OTP_MESSAGE_CATALOGUE, renderOtpMessage } from './templates.js';

describe('one-time code messages', () => {
  it('carry the code, the expiry and the organization in every language, purpose and channel', () => {
    for (const language of SUPPORTED_LANGUAGES) {
      for (const purpose of OTP_PURPOSES) {
        const email = renderOtpMessage({ language, purpose, channel: 'EMAIL', code: '042917', minutes: 5, organization: 'Clinic A' });
        const sms = renderOtpMessage({ language, purpose, channel: 'SMS', code: '042917', minutes: 5, organization: 'Clinic A' });
        for (const text of [email.body, sms.body]) {
          expect(text).toContain('042917');
          expect(text).toMatch(/\b5\b/);
          expect(text).not.toMatch(/\{\w+\}/);
        }
        expect(email.subject).toContain('Clinic A');
        expect(sms.body).toContain('Clinic A');
        expect(sms.subject).toBe('');
      }
    }
  });

  it('are really translated: no Vietnamese text equals its English one', () => {
    for (const purpose of OTP_PURPOSES) {
      const english = OTP_MESSAGE_CATALOGUE.en[purpose];
      const vietnamese = OTP_MESSAGE_CATALOGUE.vi[purpose];
      expect(vietnamese.subject).not.toBe(english.subject);
      expect(vietnamese.email).not.toBe(english.email);
      expect(vietnamese.sms).not.toBe(english.sms);
    }
  });

  it('use the recipient’s language, English for a language we do not have', () => {
    const render = (language: string) =>
      renderOtpMessage({ language, purpose: 'LOGIN', channel: 'SMS', code: '123456', minutes: 5, organization: 'X' }).body;
    expect(render('vi')).toBe('X: mã đăng nhập của bạn là 123456. Mã hết hạn sau 5 phút. Không chia sẻ mã này.');
    expect(render('en')).toBe('X: your login code is 123456. It expires in 5 minutes. Do not share it.');
    expect(render('can')).toBe(render('en'));
    expect(render('fr')).toBe(render('en'));
  });
});
