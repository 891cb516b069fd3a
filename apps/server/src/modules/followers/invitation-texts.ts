import type { ContactType } from '@rpm/contracts';

/**
 * The invitation SMS (spec §4 relative invitation), in the inviting patient's language, with the
 * one-time code that confirming needs (invitation-code.ts). Like the alert texts (alerts/texts.ts),
 * it lives with the server, which alone renders it.
 */
const INVITATION_TEXTS = {
  en: '{name} invites you to follow their health as their {type} contact. Code: {code}. Open the app, sign in or register with this phone number, and confirm the invitation under Contacts with this code. Do not share it.',
  vi: '{name} mời bạn theo dõi sức khỏe của họ với vai trò {type}. Mã: {code}. Mở ứng dụng, đăng nhập hoặc đăng ký bằng số điện thoại này và nhập mã để xác nhận lời mời trong mục Liên hệ. Không chia sẻ mã này.',
} as const;

const CONTACT_TYPE_TEXTS: Record<'en' | 'vi', Record<ContactType, string>> = {
  en: { EMERGENCY: 'emergency', CARING: 'caring', COACH: 'coach' },
  vi: { EMERGENCY: 'người liên hệ khẩn cấp', CARING: 'người chăm sóc', COACH: 'huấn luyện viên' },
};

/** Purpose recorded on the outbox message (SMS and call management lists it). */
export const INVITATION_PURPOSE = 'FOLLOWER_INVITATION';

export function renderInvitationText(
  language: 'en' | 'vi',
  values: { patientName: string; contactType: ContactType; code: string },
): string {
  return INVITATION_TEXTS[language]
    .replaceAll('{code}', values.code)
    .replaceAll('{name}', values.patientName)
    .replaceAll('{type}', CONTACT_TYPE_TEXTS[language][values.contactType]);
}
