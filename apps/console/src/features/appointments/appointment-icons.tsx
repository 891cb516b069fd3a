import type { IconComponent } from '../shell/icons';

const lineIcon = (children: React.JSX.Element): IconComponent => {
  const Icon: IconComponent = (props) => (
    <svg
      width={18}
      height={18}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
  return Icon;
};

/** A calendar page with a clock hand: a booked visit (drawn like the shell's line icons). */
export const AppointmentIcon = lineIcon(
  <>
    <path d="M11 20.5H5.5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2h13a2 2 0 0 1 2 2v3.5M3.5 10h17M8 3v4M16 3v4" />
    <circle cx="17" cy="17" r="4" />
    <path d="M17 15.2V17l1.2 1" />
  </>,
);

/** A QR-like square with a tick: checking a patient in by the sheet's code. */
export const CheckInIcon = lineIcon(
  <>
    <rect x="3.5" y="3.5" width="6" height="6" rx="1" />
    <rect x="14.5" y="3.5" width="6" height="6" rx="1" />
    <rect x="3.5" y="14.5" width="6" height="6" rx="1" />
    <path d="M14 17.5l2.2 2.2 4.3-4.7" />
  </>,
);
