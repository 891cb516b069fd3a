import { useId } from 'react';
import { Button, Group, PinInput, Stack, Text } from '@mantine/core';
import { OTP_RULES } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatCountdown } from '../../lib/use-countdown';

/**
 * The six boxes of a one-time code with its resend button and expiry hint. The boxes take digits
 * only, move on by themselves and accept a pasted code; resend stays disabled, with the seconds
 * shown, until the server's cooldown (resendAfterSeconds) has passed.
 */
export function OtpCodeField({
  value,
  onChange,
  onComplete,
  error,
  destination,
  resendRemaining,
  expiresRemaining,
  isResending,
  isDisabled = false,
  onResend,
}: {
  value: string;
  onChange: (value: string) => void;
  onComplete?: (value: string) => void;
  error: string | undefined;
  destination: string;
  resendRemaining: number;
  expiresRemaining: number;
  isResending: boolean;
  isDisabled?: boolean;
  onResend: () => void;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  const errorId = useId();
  const hintId = useId();

  return (
    <Stack gap={8}>
      <div>
        <Text id={labelId} component="div" fz="sm" fw={500}>
          {t('otp.label')}
        </Text>
        <Text id={hintId} fz="xs" c="dimmed">
          {t('otp.sentTo', { destination })}
        </Text>
      </div>
      <PinInput
        length={OTP_RULES.digits}
        type="number"
        size="lg"
        gap="sm"
        oneTimeCode
        autoFocus
        value={value}
        onChange={onChange}
        onComplete={onComplete}
        error={error !== undefined}
        disabled={isDisabled}
        aria-labelledby={labelId}
        data-testid="otp-boxes"
        getInputProps={(index) => ({
          'aria-label': t('otp.digit', { index: index + 1, count: OTP_RULES.digits }),
          'aria-describedby': error === undefined ? hintId : `${errorId} ${hintId}`,
        })}
      />
      {error === undefined ? null : (
        <Text id={errorId} c="red.7" fz="sm" role="alert">
          {error}
        </Text>
      )}
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text
          fz="xs"
          c={expiresRemaining > 0 ? 'dimmed' : 'orange.8'}
          aria-live="off"
          data-testid="otp-expiry"
        >
          {expiresRemaining > 0
            ? t('otp.expiresIn', { time: formatCountdown(expiresRemaining) })
            : t('otp.expiredHint')}
        </Text>
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={onResend}
          loading={isResending}
          disabled={resendRemaining > 0}
          data-testid="otp-resend"
        >
          {resendRemaining > 0
            ? t('otp.resendIn', { time: formatCountdown(resendRemaining) })
            : t('otp.resend')}
        </Button>
      </Group>
    </Stack>
  );
}
