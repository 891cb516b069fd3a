/**
 * Texts of the alert messages (patient, followers, care team) in every supported language. Like
 * the OTP texts in modules/messaging, they live with the server, which alone renders them.
 * Placeholders: {name} the patient, {level}, {seconds}, {hotline}, {location}.
 */
export type AlertText =
  | 'AT_RISK_PATIENT'
  | 'HIGH_RISK_PATIENT'
  | 'HIGH_RISK_FOLLOWER'
  | 'SOS_FOLLOWER'
  | 'SOS_PATIENT'
  | 'SOS_CARE_TEAM_SUBJECT'
  | 'SOS_CARE_TEAM'
  | 'FOLLOWER_CALL_REQUEST'
  | 'NO_DATA_PATIENT'
  | 'SOS_CALL'
  | 'CALL';

export const ALERT_TEXTS: Record<'en' | 'vi', Record<AlertText, string>> = {
  en: {
    AT_RISK_PATIENT:
      'Your latest health readings are at risk ({level}). Please rest, measure again and contact your doctor if it continues.',
    HIGH_RISK_PATIENT:
      'Your health readings are at high risk ({level}). Open the app and answer "I am fine" within {seconds} seconds, or your followers will be told.',
    HIGH_RISK_FOLLOWER:
      '{name} has high-risk health readings ({level}) and did not answer. Please check on them. Hotline: {hotline}',
    SOS_FOLLOWER: 'SOS: {name} needs help ({level}).{location} Please call them now. Hotline: {hotline}',
    SOS_PATIENT: 'We received your SOS and are trying to reach you. If you can, call the hotline: {hotline}',
    SOS_CARE_TEAM_SUBJECT: 'SOS: {name}',
    SOS_CARE_TEAM:
      'Your patient {name} raised an SOS ({level}).{location} An SOS case is open in the console.',
    FOLLOWER_CALL_REQUEST: '{name} asked for help: please call them now. Hotline: {hotline}',
    NO_DATA_PATIENT:
      'Your watch has not sent any health data for a while. Please check that it is worn, charged and connected to the app.',
    SOS_CALL: 'This is an emergency call. {name} has raised an SOS and needs help. Please call {name} now, or the hotline {hotline}.',
    CALL: 'This is a call about {name}, who asked for help. Please call {name} now, or the hotline {hotline}.',
  },
  vi: {
    AT_RISK_PATIENT:
      'Chỉ số sức khỏe gần nhất của bạn ở mức nguy cơ ({level}). Hãy nghỉ ngơi, đo lại và liên hệ bác sĩ nếu tình trạng tiếp diễn.',
    HIGH_RISK_PATIENT:
      'Chỉ số sức khỏe của bạn ở mức nguy cơ cao ({level}). Mở ứng dụng và chọn "Tôi ổn" trong {seconds} giây, nếu không người theo dõi của bạn sẽ được thông báo.',
    HIGH_RISK_FOLLOWER:
      '{name} có chỉ số sức khỏe nguy cơ cao ({level}) và chưa phản hồi. Vui lòng kiểm tra tình trạng của họ. Đường dây nóng: {hotline}',
    SOS_FOLLOWER:
      'SOS: {name} cần giúp đỡ ({level}).{location} Vui lòng gọi ngay cho họ. Đường dây nóng: {hotline}',
    SOS_PATIENT:
      'Chúng tôi đã nhận được SOS của bạn và đang liên hệ với bạn. Nếu có thể, hãy gọi đường dây nóng: {hotline}',
    SOS_CARE_TEAM_SUBJECT: 'SOS: {name}',
    SOS_CARE_TEAM:
      'Bệnh nhân {name} của bạn đã phát SOS ({level}).{location} Một ca SOS đang mở trên hệ thống.',
    FOLLOWER_CALL_REQUEST: '{name} cần giúp đỡ: vui lòng gọi ngay cho họ. Đường dây nóng: {hotline}',
    NO_DATA_PATIENT:
      'Đồng hồ của bạn đã lâu không gửi dữ liệu sức khỏe. Vui lòng kiểm tra đồng hồ đang được đeo, còn pin và đã kết nối với ứng dụng.',
    SOS_CALL: 'Đây là cuộc gọi khẩn cấp. {name} đã phát SOS và cần giúp đỡ. Vui lòng gọi ngay cho {name}, hoặc đường dây nóng {hotline}.',
    CALL: 'Đây là cuộc gọi về {name}, người vừa cần giúp đỡ. Vui lòng gọi ngay cho {name}, hoặc đường dây nóng {hotline}.',
  },
};

const LOCATION_TEXT = { en: ' Location: {lat}, {lng}.', vi: ' Vị trí: {lat}, {lng}.' } as const;

/** Renders one text with its placeholders filled. */
export function renderAlertText(
  language: 'en' | 'vi',
  text: AlertText,
  values: {
    name: string;
    level?: string;
    seconds?: number;
    hotline?: string;
    location?: { lat: number; lng: number } | null;
  },
): string {
  const location =
    values.location === null || values.location === undefined
      ? ''
      : LOCATION_TEXT[language]
          .replace('{lat}', values.location.lat.toFixed(5))
          .replace('{lng}', values.location.lng.toFixed(5));
  return ALERT_TEXTS[language][text]
    .replaceAll('{name}', values.name)
    .replaceAll('{level}', values.level ?? '')
    .replaceAll('{seconds}', String(values.seconds ?? ''))
    .replaceAll('{hotline}', values.hotline === undefined || values.hotline === '' ? '-' : values.hotline)
    .replaceAll('{location}', location);
}
