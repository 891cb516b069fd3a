import { useId, type Ref } from 'react';
import { SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OtpChannel } from './verification-api';

/** Phone numbers may be typed with spaces, dots, dashes or brackets; the API takes digits and "+". */
export function normalizeDestination(channel: OtpChannel, value: string): string {
  return channel === 'SMS' ? value.replace(/[\s().-]/g, '') : value.trim();
}

/**
 * Where a one-time code goes: by email or by SMS, and the address or number. Used by OTP login
 * and by "forgot password", which both let the user choose.
 */
export function ChannelFields({
  channel,
  destination,
  error,
  onChannelChange,
  onDestinationChange,
  inputRef,
}: {
  channel: OtpChannel;
  destination: string;
  error: string | undefined;
  onChannelChange: (channel: OtpChannel) => void;
  onDestinationChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const { t } = useTranslation();
  const isEmail = channel === 'EMAIL';
  const channelLabelId = useId();
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Text component="div" fz="sm" fw={500} id={channelLabelId}>
          {t('otp.channelLabel')}
        </Text>
        <SegmentedControl
          fullWidth
          aria-labelledby={channelLabelId}
          value={channel}
          onChange={(value) => {
            onChannelChange(value === 'SMS' ? 'SMS' : 'EMAIL');
          }}
          data={[
            { value: 'EMAIL', label: t('otp.channelEmail') },
            { value: 'SMS', label: t('otp.channelSms') },
          ]}
        />
      </Stack>
      <TextInput
        ref={inputRef}
        label={isEmail ? t('otp.email') : t('otp.phone')}
        placeholder={isEmail ? t('otp.emailPlaceholder') : t('otp.phonePlaceholder')}
        type={isEmail ? 'email' : 'tel'}
        inputMode={isEmail ? 'email' : 'tel'}
        autoComplete={isEmail ? 'email' : 'tel'}
        value={destination}
        onChange={(event) => {
          onDestinationChange(event.currentTarget.value);
        }}
        error={error}
        withAsterisk
      />
    </Stack>
  );
}
