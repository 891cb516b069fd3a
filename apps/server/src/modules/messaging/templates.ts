import type { OtpPurpose } from '@rpm/contracts';
import { pickLanguage, type SupportedLanguage } from '@rpm/i18n';

/**
 * Texts of the messages the server sends, in every supported language. They live here rather
 * than in @rpm/i18n because only the server renders them and they carry placeholders the console
 * never sees: {organization}, {code}, {minutes}.
 */
interface OtpTexts {
  subject: string;
  email: string;
  sms: string;
}

const OTP_CATALOGUE: Record<SupportedLanguage, Record<OtpPurpose, OtpTexts>> = {
  en: {
    LOGIN: {
      subject: '{organization}: your login code',
      email:
        'Your login code is {code}. It expires in {minutes} minutes.\n\nIf you did not try to log in, ignore this message and do not share the code.',
      sms: '{organization}: your login code is {code}. It expires in {minutes} minutes. Do not share it.',
    },
    RESET_PASSWORD: {
      subject: '{organization}: reset your password',
      email:
        'Your password reset code is {code}. It expires in {minutes} minutes.\n\nIf you did not ask to reset your password, ignore this message: your password stays the same.',
      sms: '{organization}: your password reset code is {code}. It expires in {minutes} minutes. Do not share it.',
    },
    REGISTER: {
      subject: '{organization}: verify your email',
      email: 'Your verification code is {code}. It expires in {minutes} minutes.\n\nIf you did not register, ignore this message.',
      sms: '{organization}: your verification code is {code}. It expires in {minutes} minutes.',
    },
    UNLOCK: {
      subject: '{organization}: unlock your account',
      email:
        'Your account was locked after too many wrong passwords. Your unlock code is {code}. It expires in {minutes} minutes.\n\nIf you did not ask to unlock your account, ignore this message and consider changing your password.',
      sms: '{organization}: your unlock code is {code}. It expires in {minutes} minutes. Do not share it.',
    },
  },
  vi: {
    LOGIN: {
      subject: '{organization}: mã đăng nhập của bạn',
      email:
        'Mã đăng nhập của bạn là {code}. Mã hết hạn sau {minutes} phút.\n\nNếu bạn không đăng nhập, hãy bỏ qua thư này và không chia sẻ mã.',
      sms: '{organization}: mã đăng nhập của bạn là {code}. Mã hết hạn sau {minutes} phút. Không chia sẻ mã này.',
    },
    RESET_PASSWORD: {
      subject: '{organization}: đặt lại mật khẩu',
      email:
        'Mã đặt lại mật khẩu của bạn là {code}. Mã hết hạn sau {minutes} phút.\n\nNếu bạn không yêu cầu đặt lại mật khẩu, hãy bỏ qua thư này: mật khẩu của bạn vẫn giữ nguyên.',
      sms: '{organization}: mã đặt lại mật khẩu của bạn là {code}. Mã hết hạn sau {minutes} phút. Không chia sẻ mã này.',
    },
    REGISTER: {
      subject: '{organization}: xác minh email của bạn',
      email: 'Mã xác minh của bạn là {code}. Mã hết hạn sau {minutes} phút.\n\nNếu bạn không đăng ký, hãy bỏ qua thư này.',
      sms: '{organization}: mã xác minh của bạn là {code}. Mã hết hạn sau {minutes} phút.',
    },
    UNLOCK: {
      subject: '{organization}: mở khóa tài khoản',
      email:
        'Tài khoản của bạn đã bị khóa do nhập sai mật khẩu quá nhiều lần. Mã mở khóa của bạn là {code}. Mã hết hạn sau {minutes} phút.\n\nNếu bạn không yêu cầu mở khóa tài khoản, hãy bỏ qua thư này và cân nhắc đổi mật khẩu.',
      sms: '{organization}: mã mở khóa tài khoản của bạn là {code}. Mã hết hạn sau {minutes} phút. Không chia sẻ mã này.',
    },
  },
};

/** The catalogue, for tests that check every language has every text. */
export const OTP_MESSAGE_CATALOGUE = OTP_CATALOGUE;

export interface RenderedMessage {
  subject: string;
  body: string;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder);
}

/**
 * The message carrying a one-time code, in the recipient's language (users.language, or the
 * caller's language before an account exists). Unknown languages fall back to English.
 */
export function renderOtpMessage(options: {
  language: string;
  purpose: OtpPurpose;
  channel: 'EMAIL' | 'SMS';
  code: string;
  minutes: number;
  organization: string;
}): RenderedMessage {
  const texts = OTP_CATALOGUE[pickLanguage(options.language)][options.purpose];
  const values = { code: options.code, minutes: String(options.minutes), organization: options.organization };
  return options.channel === 'EMAIL'
    ? { subject: fill(texts.subject, values), body: fill(texts.email, values) }
    : { subject: '', body: fill(texts.sms, values) };
}
