/** A handful of stroke icons (16 px grid, currentColor) so that the app needs no icon font. */
import type { ReactNode, SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement> & { size?: number };

function Icon({ size = 16, children, ...rest }: IconProps & { children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.5}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {children}
    </svg>
  );
}

export const IconPencil = (p: IconProps) => (
  <Icon {...p}>
    <path d="M11 2.5l2.5 2.5L5.5 13H3v-2.5z" />
    <path d="M9.5 4l2.5 2.5" />
  </Icon>
);

export const IconTrash = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2.5 4h11" />
    <path d="M6 4V2.5h4V4" />
    <path d="M3.8 4l.7 9.5h7l.7-9.5" />
    <path d="M6.5 6.5v4.5M9.5 6.5v4.5" />
  </Icon>
);

export const IconPlus = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8 3v10M3 8h10" />
  </Icon>
);

export const IconKey = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="5" cy="11" r="3" />
    <path d="M7.2 8.8L13.5 2.5M11.5 4.5l1.5 1.5M9.8 6.2l1.3 1.3" />
  </Icon>
);

export const IconFile = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 1.5h5.5L12.5 4.5v10h-8.5z" />
    <path d="M9.5 1.5v3h3M6 8h4.5M6 10.5h4.5" />
  </Icon>
);

export const IconChart = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2 14h12" />
    <path d="M4 12V8M8 12V3.5M12 12V6" />
  </Icon>
);

export const IconDashboard = (p: IconProps) => (
  <Icon {...p}>
    <rect x="2" y="2" width="5" height="6" rx="1" />
    <rect x="9" y="2" width="5" height="3.5" rx="1" />
    <rect x="2" y="10" width="5" height="4" rx="1" />
    <rect x="9" y="7.5" width="5" height="6.5" rx="1" />
  </Icon>
);

export const IconFlow = (p: IconProps) => (
  <Icon {...p}>
    <rect x="1.5" y="6" width="4" height="4" rx="1" />
    <rect x="10.5" y="1.5" width="4" height="4" rx="1" />
    <rect x="10.5" y="10.5" width="4" height="4" rx="1" />
    <path d="M5.5 8h2.5v-4.5h2.5M8 8v4.5h2.5" />
  </Icon>
);

export const IconSparkle = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="7" cy="7" r="4.5" />
    <path d="M10.3 10.3L14 14" />
    <path d="M7 4.8v4.4M4.8 7h4.4" />
  </Icon>
);

export const IconSearch = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="7" cy="7" r="4.5" />
    <path d="M10.3 10.3L14 14" />
  </Icon>
);

export const IconTag = (p: IconProps) => (
  <Icon {...p}>
    <path d="M1.5 2.5v5l7 7 6-6-7-7h-5z" />
    <circle cx="5" cy="5" r="1" />
  </Icon>
);

export const IconArrowLeft = (p: IconProps) => (
  <Icon {...p}>
    <path d="M13 8H3M7 4L3 8l4 4" />
  </Icon>
);

export const IconGlobe = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="8" cy="8" r="6.5" />
    <path d="M1.5 8h13M8 1.5c2 2 2.8 4.2 2.8 6.5S10 12.5 8 14.5C6 12.5 5.2 10.3 5.2 8S6 3.5 8 1.5z" />
  </Icon>
);

export const IconUser = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="8" cy="5.5" r="3" />
    <path d="M2.5 14.5c.5-3 2.8-4.5 5.5-4.5s5 1.5 5.5 4.5" />
  </Icon>
);

export const IconCheck = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 8.5l3 3 7-7" />
  </Icon>
);

export const IconImage = (p: IconProps) => (
  <Icon {...p}>
    <rect x="1.5" y="2.5" width="13" height="11" rx="1" />
    <circle cx="5.5" cy="6" r="1.2" />
    <path d="M1.5 11.5l4-3.5 3 2.5 2.5-2 3.5 3" />
  </Icon>
);

export const IconGear = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="8" cy="8" r="2.2" />
    <path d="M8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4" />
  </Icon>
);

export const IconClose = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 4l8 8M12 4l-8 8" />
  </Icon>
);

export const IconLock = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3" y="7" width="10" height="7.5" rx="1" />
    <path d="M5.2 7V5a2.8 2.8 0 015.6 0v2" />
  </Icon>
);

export const IconUnlock = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3" y="7" width="10" height="7.5" rx="1" />
    <path d="M5.2 7V5a2.8 2.8 0 015.4-1" />
  </Icon>
);

export const IconStar = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8 1.8l1.9 3.9 4.3.6-3.1 3 .7 4.3L8 11.6l-3.8 2 .7-4.3-3.1-3 4.3-.6z" />
  </Icon>
);

export const IconEye = (p: IconProps) => (
  <Icon {...p}>
    <path d="M1 8s2.5-5 7-5 7 5 7 5-2.5 5-7 5-7-5-7-5z" />
    <circle cx="8" cy="8" r="2" />
  </Icon>
);

export const IconClock = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="8" cy="8" r="6.5" />
    <path d="M8 4.5V8l2.5 1.5" />
  </Icon>
);

export const IconChevronLeft = (p: IconProps) => (
  <Icon {...p}>
    <path d="M10 3L5 8l5 5" />
  </Icon>
);

export const IconChevronRight = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6 3l5 5-5 5" />
  </Icon>
);

export const IconComment = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2 3h12v8H6l-3 2.5V11H2z" />
  </Icon>
);

export const IconExternal = (p: IconProps) => (
  <Icon {...p}>
    <path d="M9.5 2.5h4v4" />
    <path d="M13.5 2.5L7.5 8.5" />
    <path d="M11.5 9.5v4h-9v-9h4" />
  </Icon>
);

export const IconExpand = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2.5 6V2.5H6M10 2.5h3.5V6M13.5 10v3.5H10M6 13.5H2.5V10" />
  </Icon>
);

export const IconCompress = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6 2.5V6H2.5M13.5 6H10V2.5M10 13.5V10h3.5M2.5 10H6v3.5" />
  </Icon>
);

export const IconUpload = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8 10.5V2.5M5 5.5l3-3 3 3" />
    <path d="M2.5 10.5v3h11v-3" />
  </Icon>
);

export const IconMap = (p: IconProps) => (
  <Icon {...p}>
    <path d="M1.5 3.5l4-1.5 5 1.5 4-1.5v10.5l-4 1.5-5-1.5-4 1.5z" />
    <path d="M5.5 2v10.5M10.5 3.5V14" />
  </Icon>
);
