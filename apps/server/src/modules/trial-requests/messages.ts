import { pickLanguage, type SupportedLanguage } from '@rpm/i18n';

/**
 * The email a requester receives when their trial request is refused, in the language they
 * wrote it in. Platform wording (there is no tenant to word it): {name}, {organization}, {reason}.
 */
const REJECTION: Record<SupportedLanguage, { subject: string; body: string }> = {
  en: {
    subject: 'Your trial request for {organization}',
    body: 'Hello {name},\n\nThank you for your interest. Your trial request for {organization} was not approved.\n\nReason: {reason}\n\nYou are welcome to send a new request at any time.',
  },
  vi: {
    subject: 'Yêu cầu dùng thử cho {organization}',
    body: 'Xin chào {name},\n\nCảm ơn bạn đã quan tâm. Yêu cầu dùng thử cho {organization} chưa được chấp thuận.\n\nLý do: {reason}\n\nBạn có thể gửi yêu cầu mới bất cứ lúc nào.',
  },
};

/** The catalogue, for tests that check every language has every text. */
export const REJECTION_MESSAGES = REJECTION;

export function renderRejection(options: { language: string; name: string; organization: string; reason: string }) {
  const texts = REJECTION[pickLanguage(options.language)];
  // One pass: a value containing "{reason}" is never filled again; the subject stays one line.
  const fill = (template: string, isSubject: boolean) =>
    template.replace(/\{(name|organization|reason)\}/g, (_placeholder, key: 'name' | 'organization' | 'reason') =>
      isSubject ? options[key].replace(/[\r\n]+/g, ' ') : options[key],
    );
  return { subject: fill(texts.subject, true), body: fill(texts.body, false) };
}
