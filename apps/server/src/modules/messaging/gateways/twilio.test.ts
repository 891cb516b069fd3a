import { describe, expect, it } from 'vitest';
import { callOutcomeOf, isValidTwilioSignature, messageOutcomeOf, spokenTwiml, twilioSignature } from './twilio.js';

describe('X-Twilio-Signature', () => {
  // The examples of Twilio's security documentation (auth token 12345).
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const params = (caller: string) => ({ CallSid: 'CA1234567890ABCDE', Caller: caller, Digits: '1234', From: caller, To: '+18005551212' });

  it('matches the signatures Twilio publishes', () => {
    expect(twilioSignature('12345', url, params('+14158675309'))).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
    expect(twilioSignature('12345', url, params('+14158675310'))).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
  });

  it('refuses another token, another address, a changed parameter and a missing header', () => {
    const signature = 'GvWf1cFY/Q7PnoempGyD5oXAezc=';
    expect(isValidTwilioSignature('12345', signature, url, params('+14158675310'))).toBe(true);
    expect(isValidTwilioSignature('54321', signature, url, params('+14158675310'))).toBe(false);
    expect(isValidTwilioSignature('12345', signature, `${url}&baz=3`, params('+14158675310'))).toBe(false);
    expect(isValidTwilioSignature('12345', signature, url, { ...params('+14158675310'), Digits: '1235' })).toBe(false);
    expect(isValidTwilioSignature('12345', undefined, url, params('+14158675310'))).toBe(false);
    expect(isValidTwilioSignature('12345', 'short', url, params('+14158675310'))).toBe(false);
  });
});

describe('Twilio statuses', () => {
  it('maps every documented call status and ignores others', () => {
    expect(['queued', 'initiated', 'ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled'].map(callOutcomeOf)).toEqual([
      'PLACED',
      'PLACED',
      'PLACED',
      'ANSWERED',
      'COMPLETED',
      'BUSY',
      'NO_ANSWER',
      'FAILED',
      'FAILED',
    ]);
    expect(callOutcomeOf('answered-by-robot')).toBeUndefined();
  });

  it('records only final message statuses', () => {
    expect(['accepted', 'queued', 'sending', 'sent', 'delivered', 'read', 'undelivered', 'failed'].map(messageOutcomeOf)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      'DELIVERED',
      'DELIVERED',
      'UNDELIVERED',
      'UNDELIVERED',
    ]);
  });

  it('escapes the spoken text and speaks the patient’s language', () => {
    const twiml = spokenTwiml('Lan <Nguyễn> & "co"', 'vi');
    expect(twiml).toContain('<Say language="vi-VN">Lan &lt;Nguyễn&gt; &amp; &quot;co&quot;</Say>');
    expect(twiml.match(/<Say /g)).toHaveLength(2);
  });
});
