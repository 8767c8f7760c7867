// Icons drawn inline as SVG, so they never depend on an emoji font (without one, glyphs such as the
// branch marker render as empty boxes). Decorative: hidden from screen readers, the text beside says it.
import type { ComponentChildren } from 'preact';
import type { ModelStatus } from '../app/context.ts';

function Svg({ children }: { children: ComponentChildren }) {
  return (
    <svg
      class="icon"
      viewBox="0 0 16 16"
      width="16"
      height="16"
      fill="none"
      stroke="currentColor"
      stroke-width="1.6"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}

/** A branch: the turn has alternatives (swipes or branches) below it. */
export const BranchIcon = () => (
  <Svg>
    <circle cx="4" cy="3" r="1.6" />
    <circle cx="4" cy="13" r="1.6" />
    <circle cx="12" cy="5" r="1.6" />
    <path d="M4 4.6v6.8M12 6.6c0 3-4 2.6-7.2 5.4" />
  </Svg>
);

/** A die: the rules rolled. */
export const DiceIcon = () => (
  <Svg>
    <rect x="2" y="2" width="12" height="12" rx="2.5" />
    <circle cx="5.5" cy="5.5" r="0.9" fill="currentColor" />
    <circle cx="10.5" cy="10.5" r="0.9" fill="currentColor" />
    <circle cx="8" cy="8" r="0.9" fill="currentColor" />
  </Svg>
);

export const UndoIcon = () => (
  <Svg>
    <path d="M5 3 2 6l3 3" />
    <path d="M2 6h7.5a4 4 0 0 1 0 8H7" />
  </Svg>
);

export const RegenerateIcon = () => (
  <Svg>
    <path d="M13 8a5 5 0 1 1-1.5-3.6" />
    <path d="M13 2.5v3h-3" />
  </Svg>
);

export const AlertIcon = () => (
  <Svg>
    <path d="M8 1.8 15 14H1z" />
    <path d="M8 6.5v3.5M8 12v.2" />
  </Svg>
);

export const RetryIcon = RegenerateIcon;

/** A status dot: filled for a connected model, hollow offline, a cross when the model failed. */
export const StatusIcon = ({ status }: { status: ModelStatus }) => (
  <Svg>
    {status === 'failing' ? (
      <path d="M4 4l8 8M12 4l-8 8" />
    ) : (
      <circle cx="8" cy="8" r="4.5" fill={status === 'online' ? 'currentColor' : 'none'} />
    )}
  </Svg>
);

/** A lamp of the lights-out board: lit or dark. */
export const LampIcon = ({ lit }: { lit: boolean }) => (
  <Svg>
    <path d="M5.5 10.5a4 4 0 1 1 5 0V12h-5z" fill={lit ? 'currentColor' : 'none'} />
    <path d="M6 14h4" />
  </Svg>
);

export const PersonIcon = () => (
  <Svg>
    <circle cx="8" cy="5" r="2.8" />
    <path d="M2.5 14.5c.8-3 3-4.5 5.5-4.5s4.7 1.5 5.5 4.5" />
  </Svg>
);
