import { Svg, type IconComponent } from '../shell/icons';

/** A receipt, drawn like the shell's line icons (24px grid, stroke style): transactions. */
export const ReceiptIcon: IconComponent = (props) => (
  <Svg {...props}>
    <path d="M6 3h12v18l-3-2-3 2-3-2-3 2z" />
    <path d="M9 8h6M9 12h6M9 16h3" />
  </Svg>
);
