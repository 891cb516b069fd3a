import type { SVGProps } from 'react';

/**
 * The handful of line icons the shell needs, drawn inline (24px grid, stroke style) so the console
 * carries no icon library for five glyphs.
 */
export type IconComponent = (props: SVGProps<SVGSVGElement>) => React.JSX.Element;

export function Svg({ children, ...props }: SVGProps<SVGSVGElement>) {
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

export const StarIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="m12 3 2.8 5.7 6.2.9-4.5 4.4 1.1 6.2L12 17.3 6.4 20.2l1.1-6.2L3 9.6l6.2-.9z" />
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

/** A scratch card: code packages. */
export const CardIcon: IconComponent = (props) => (
  <Svg {...props}>
    <rect x="3" y="6" width="18" height="12" rx="2" />
    <path d="M7 14h4M14 10h3" />
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

export const BellIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="M6 9a6 6 0 0 1 12 0c0 6 2.5 8 2.5 8h-17S6 15 6 9" />
    <path d="M10 20.5a2.2 2.2 0 0 0 4 0" />
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

export const LayersIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="m12 3 9 5-9 5-9-5z" />
    <path d="m3 13 9 5 9-5" />
  </Svg>
);

export const ChevronRightIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="m9 6 6 6-6 6" />
  </Svg>
);

export const ChevronDownIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="m6 9 6 6 6-6" />
  </Svg>
);

export const BuildingIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="M4 21V5l8-2v18" />
    <path d="M12 9h8v12" />
    <path d="M2 21h20" />
    <path d="M8 8v.01M8 12v.01M8 16v.01M16 13v.01M16 17v.01" />
  </Svg>
);

export const UsersIcon: IconComponent = (props) => (
  <Svg {...props}>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20c0-3.6 2.9-6 6.5-6s6.5 2.4 6.5 6" />
    <path d="M16 4.5a3.5 3.5 0 0 1 0 7M18 14.3c2 .8 3.5 2.8 3.5 5.7" />
  </Svg>
);

export const TreeIcon: IconComponent = (props) => (
  <Svg {...props}>
    <rect x="9" y="2.5" width="6" height="5" rx="1" />
    <rect x="2.5" y="16.5" width="6" height="5" rx="1" />
    <rect x="15.5" y="16.5" width="6" height="5" rx="1" />
    <path d="M12 7.5v4M5.5 16.5v-2.5h13v2.5" />
  </Svg>
);

export const DotsIcon: IconComponent = (props) => (
  <Svg {...props}>
    <circle cx="5" cy="12" r="1" />
    <circle cx="12" cy="12" r="1" />
    <circle cx="19" cy="12" r="1" />
  </Svg>
);

export const UploadIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="M12 16V4M7 9l5-5 5 5" />
    <path d="M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" />
  </Svg>
);

export const RequestIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="M4 6.5A1.5 1.5 0 0 1 5.5 5h13A1.5 1.5 0 0 1 20 6.5v11a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 4 17.5z" />
    <path d="m4.5 6 7.5 6 7.5-6" />
  </Svg>
);

export const SortIcon = ({
  sorted,
  ...props
}: SVGProps<SVGSVGElement> & { sorted: 'asc' | 'desc' | null }) => (
  <Svg width={14} height={14} {...props}>
    <path d="m8 10 4-4 4 4" opacity={sorted === 'desc' ? 0.3 : 1} />
    <path d="m8 14 4 4 4-4" opacity={sorted === 'asc' ? 0.3 : 1} />
  </Svg>
);
