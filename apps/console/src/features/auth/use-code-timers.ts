import { useCallback } from 'react';
import { useCountdown } from '../../lib/use-countdown';
import type { OtpSent } from './verification-api';

/** The two clocks of a sent code: when another may be asked for, and when this one expires. */
export function useCodeTimers() {
  const resend = useCountdown();
  const expiry = useCountdown();
  const startResend = resend.start;
  const startExpiry = expiry.start;
  const onSent = useCallback(
    (sent: OtpSent) => {
      startResend(sent.resendAfterSeconds);
      startExpiry(sent.expiresInSeconds);
    },
    [startResend, startExpiry],
  );
  return { resendRemaining: resend.remaining, expiresRemaining: expiry.remaining, onSent };
}
