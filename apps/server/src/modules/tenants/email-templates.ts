import {
  EMAIL_TEMPLATE_PLACEHOLDERS,
  type EmailTemplate,
  type EmailTemplateKey,
  type EmailTemplatePlaceholder,
  type Language,
} from '@rpm/contracts';
import { pickLanguage } from '@rpm/i18n';
import { findEmailTemplate, type ControlPlane } from './store.js';

interface TemplateText {
  subject: string;
  body: string;
}

/**
 * The words each email has until a tenant writes its own (GET shows them as the starting point).
 * Emails go out as plain text; {{placeholders}} are filled when one is sent.
 */
export const DEFAULT_EMAIL_TEMPLATES: Record<Language, Record<EmailTemplateKey, TemplateText>> = {
  en: {
    WELCOME: {
      subject: '{{tenant}}: your administrator account is ready',
      body:
        'Hello {{name}},\n\nAn administrator account has been created for you at {{tenant}}.\n\n' +
        'To choose your password, open {{link}}, enter the tenant code {{tenantCode}} and your email {{email}}, ' +
        'and use this code: {{code}} (valid for {{minutes}} minutes). If it has expired, ask for a new code on the same page.\n\n' +
        'If you did not expect this message, you can ignore it.',
    },
    PASSWORD_RESET: {
      subject: '{{tenant}}: reset your password',
      body: 'Your password reset code is {{code}}. It expires in {{minutes}} minutes.\n\nIf you did not ask to reset your password, ignore this message: your password stays the same.',
    },
    LOGIN_CODE: {
      subject: '{{tenant}}: your login code',
      body: 'Your login code is {{code}}. It expires in {{minutes}} minutes.\n\nIf you did not try to log in, ignore this message and do not share the code.',
    },
    VERIFY_EMAIL: {
      subject: '{{tenant}}: verify your email',
      body: 'Your verification code is {{code}}. It expires in {{minutes}} minutes.\n\nIf you did not register, ignore this message.',
    },
  },
  vi: {
    WELCOME: {
      subject: '{{tenant}}: tài khoản quản trị của bạn đã sẵn sàng',
      body:
        'Xin chào {{name}},\n\nMột tài khoản quản trị đã được tạo cho bạn tại {{tenant}}.\n\n' +
        'Để đặt mật khẩu, hãy mở {{link}}, nhập mã tổ chức {{tenantCode}}, email {{email}} ' +
        'và mã sau: {{code}} (có hiệu lực trong {{minutes}} phút). Nếu mã đã hết hạn, hãy yêu cầu mã mới trên cùng trang đó.\n\n' +
        'Nếu bạn không mong đợi thư này, hãy bỏ qua.',
    },
    PASSWORD_RESET: {
      subject: '{{tenant}}: đặt lại mật khẩu',
      body: 'Mã đặt lại mật khẩu của bạn là {{code}}. Mã hết hạn sau {{minutes}} phút.\n\nNếu bạn không yêu cầu đặt lại mật khẩu, hãy bỏ qua thư này: mật khẩu của bạn vẫn giữ nguyên.',
    },
    LOGIN_CODE: {
      subject: '{{tenant}}: mã đăng nhập của bạn',
      body: 'Mã đăng nhập của bạn là {{code}}. Mã hết hạn sau {{minutes}} phút.\n\nNếu bạn không đăng nhập, hãy bỏ qua thư này và không chia sẻ mã.',
    },
    VERIFY_EMAIL: {
      subject: '{{tenant}}: xác minh email của bạn',
      body: 'Mã xác minh của bạn là {{code}}. Mã hết hạn sau {{minutes}} phút.\n\nNếu bạn không đăng ký, hãy bỏ qua thư này.',
    },
  },
};

export type TemplateValues = Partial<Record<EmailTemplatePlaceholder, string>>;

const PLACEHOLDER = /\{\{\s*([A-Za-z]+)\s*\}\}/g;
const isPlaceholder = (name: string): name is EmailTemplatePlaceholder => (EMAIL_TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name);

/**
 * Fills {{placeholders}} in one pass, so a value that itself contains "{{code}}" is never filled
 * again. Unknown or missing placeholders stay as written.
 */
export function fillTemplate(template: string, values: TemplateValues, { singleLine = false } = {}): string {
  return template.replace(PLACEHOLDER, (placeholder, name: string) => {
    const value = isPlaceholder(name) ? values[name] : undefined;
    if (value === undefined) return placeholder;
    // A subject is one header line: a value must not be able to start another header.
    return singleLine ? value.replace(/[\r\n]+/g, ' ') : value;
  });
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/**
 * A rendered email. `html` is the same text for showing in a page: everything (the template and
 * the values) escaped, line breaks kept, so neither a template nor a value can inject markup.
 */
export function renderEmail(template: TemplateText, values: TemplateValues) {
  const subject = fillTemplate(template.subject, values, { singleLine: true });
  const text = fillTemplate(template.body, values);
  return { subject, text, html: escapeHtml(text).replace(/\r?\n/g, '<br>\n') };
}

/** The tenant's own wording of an email in a language, else the default. */
export async function loadEmailTemplate(
  controlPlane: ControlPlane,
  tenantId: string,
  key: EmailTemplateKey,
  language: string,
): Promise<EmailTemplate> {
  const chosen = pickLanguage(language);
  const stored = await findEmailTemplate(controlPlane, tenantId, key, chosen);
  const text = stored ?? DEFAULT_EMAIL_TEMPLATES[chosen][key];
  return { key, language: chosen, subject: text.subject, body: text.body, isDefault: stored === undefined, placeholders: [...EMAIL_TEMPLATE_PLACEHOLDERS] };
}
