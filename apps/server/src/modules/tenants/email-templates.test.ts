import { EMAIL_TEMPLATE_KEYS, LANGUAGES } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EMAIL_TEMPLATES, fillTemplate, renderEmail } from './email-templates.js';

describe('email templates', () => {
  it('has every template in every language, using only known placeholders', () => {
    for (const language of LANGUAGES) {
      for (const key of EMAIL_TEMPLATE_KEYS) {
        const template = DEFAULT_EMAIL_TEMPLATES[language][key];
        expect(template.subject.trim(), `${language} ${key}`).not.toBe('');
        const rendered = renderEmail(template, { name: 'N', email: 'e', tenant: 'T', tenantCode: 'c', link: 'l', code: '1', minutes: '5' });
        expect(`${rendered.subject}${rendered.text}`, `${language} ${key}`).not.toMatch(/\{\{/);
      }
    }
  });

  it('fills placeholders once (a value holding a placeholder stays literal) and keeps unknown ones', () => {
    expect(fillTemplate('Hi {{ name }}, code {{code}} {{other}}', { name: '{{code}}', code: '42' })).toBe('Hi {{code}}, code 42 {{other}}');
  });

  it('keeps a subject on one line and escapes the HTML rendering of template and values', () => {
    const rendered = renderEmail({ subject: 'For {{name}}', body: '<b>{{tenant}}</b>\nbye' }, { name: 'a\r\nBcc: x@y', tenant: '<script>alert(1)</script>&' });
    expect(rendered.subject).toBe('For a Bcc: x@y');
    expect(rendered.text).toBe('<b><script>alert(1)</script>&</b>\nbye');
    expect(rendered.html).toBe('&lt;b&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;&lt;/b&gt;<br>\nbye');
  });
});
