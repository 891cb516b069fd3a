import type { SVGProps } from 'react';

/**
 * The handful of line icons the shell needs, drawn inline (24px grid, stroke style) so the console
 * carries no icon library for five glyphs.
 */
export type IconComponent = (props: SVGProps<SVGSVGElement>) => React.JSX.Element;

function Svg({ children, ...props }: SVGProps<SVGSVGElement>) {
  return (
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
}

export const HomeIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="M3 10.5 12 3l9 7.5" />
    <path d="M5 9.5V20h5v-6h4v6h5V9.5" />
  </Svg>
);

export const UserIcon: IconComponent = (props) => (
  <Svg {...props}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21c0-4 3.6-7 8-7s8 3 8 7" />
  </Svg>
);

export const ShieldIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="M12 3 4 6v6c0 4.5 3.4 8.3 8 9 4.6-.7 8-4.5 8-9V6z" />
    <path d="m9 12 2 2 4-4" />
  </Svg>
);

export const LogoutIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3" />
    <path d="M10 17l-5-5 5-5" />
    <path d="M5 12h11" />
  </Svg>
);

export const PulseIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="M3 12h4l2-5 4 10 2-5h6" />
  </Svg>
);

export const MonitorIcon: IconComponent = (props) => (
  <Svg {...props}>
    <rect x="3" y="4" width="18" height="12" rx="2" />
    <path d="M8 20h8M12 16v4" />
  </Svg>
);

export const CheckIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </Svg>
);

export const CrossIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="M6 6l12 12M18 6 6 18" />
  </Svg>
);

export const KeyIcon: IconComponent = (props) => (
  <Svg {...props}>
    <circle cx="8" cy="15" r="4" />
    <path d="m10.8 12.2 8.7-8.7M16 7l2.5 2.5M14 9l2 2" />
  </Svg>
);

export const SearchIcon: IconComponent = (props) => (
  <Svg {...props}>
    <circle cx="11" cy="11" r="6.5" />
    <path d="m20 20-4.2-4.2" />
  </Svg>
);

export const PlusIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="M12 5v14M5 12h14" />
  </Svg>
);

export const InboxIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="M4 13h4l1.5 3h5L16 13h4" />
    <path d="M6 5h12l2 8v6H4v-6z" />
  </Svg>
);

export const AlertIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="M12 4 2.8 20h18.4z" />
    <path d="M12 10v4.5M12 17.5v.01" />
  </Svg>
);
