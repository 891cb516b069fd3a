import { useEffect, useState } from 'react';
import { secondsLeft } from './modal';

/** The seconds left until `deadline` (ms since the epoch on this phone's clock), updated as time passes. */
export function useCountdown(deadline: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (deadline === null) return;
    setNow(Date.now());
    const timer = setInterval(() => {
      setNow(Date.now());
    }, 250);
    return () => {
      clearInterval(timer);
    };
  }, [deadline]);
  return deadline === null ? null : secondsLeft(deadline, now);
}
