import { SegmentGroup } from '@ark-ui/react/segment-group';
import { useSelector } from '@xstate/react';
import {
  appliedColorMode,
  type ColorModePreference,
  isColorModePreference,
} from '../../machines/colorMode.machine';
import { css, cx } from '../../styled-system/css';
import { AppActor } from './appActor';
import { Icon } from './Icon';
import { visuallyHidden } from './styles';
import { Tooltip } from './Tooltip';

const options: readonly { value: ColorModePreference; label: string; icon: string }[] = [
  { value: 'light', label: 'Light', icon: 'lucide:sun' },
  { value: 'dark', label: 'Dark', icon: 'lucide:moon' },
  { value: 'system', label: 'System', icon: 'lucide:monitor' },
];

const root = css({
  position: 'relative',
  display: 'inline-flex',
  alignItems: 'center',
  gap: '0.5',
  p: '0.5',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'control',
  bg: 'bg.muted',
  '&[data-disabled]': { opacity: 0.7 },
});

const item = css({
  position: 'relative',
  zIndex: 1,
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1.5',
  h: '8',
  px: '2',
  borderRadius: 'sm',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  cursor: 'pointer',
  _hover: { color: 'fg.highlighted' },
  '&[data-state=checked]': { color: 'fg.highlighted', bg: 'bg', boxShadow: 'xs' },
  '&[data-focus-visible]': { outline: '2px solid', outlineColor: 'primary.focus', outlineOffset: '1px' },
  '&[data-disabled]': { cursor: 'not-allowed', _hover: { color: 'fg.muted' } },
});

export interface ColorModeSwitchProps {
  /** Icons only, each with a tooltip (the header); otherwise icons with their names and a forced-page note. */
  readonly compact?: boolean;
}

/**
 * The colour-mode preference as an Ark UI segment group, driven by the colour-mode machine: the value is
 * the machine's preference, a change is a `colorMode.set` event, and on a page that forces a mode the
 * control is disabled because the machine would not take the event.
 */
export function ColorModeSwitch({ compact = false }: ColorModeSwitchProps) {
  const colorMode = AppActor.useSelector((snapshot) => snapshot.children.colorMode);
  const preference = useSelector(colorMode, (snapshot) => snapshot?.context.preference) ?? 'system';
  const forced = useSelector(colorMode, (snapshot) =>
    snapshot?.hasTag('forced') ? snapshot.context.forced : null,
  );
  const applied = useSelector(colorMode, (snapshot) =>
    snapshot ? appliedColorMode(snapshot.context) : null,
  );
  return (
    <div className={css({ display: 'inline-flex', flexDirection: 'column', gap: '2' })}>
      <SegmentGroup.Root
        className={root}
        value={preference}
        disabled={forced !== null}
        data-applied={applied ?? undefined}
        onValueChange={({ value }) => {
          if (isColorModePreference(value)) colorMode?.send({ type: 'colorMode.set', preference: value });
        }}
      >
        <SegmentGroup.Label className={visuallyHidden}>Color mode</SegmentGroup.Label>
        {options.map((option) => {
          const segment = (
            <SegmentGroup.Item key={option.value} value={option.value} className={item}>
              <Icon name={option.icon} size={16} />
              <SegmentGroup.ItemText className={compact ? visuallyHidden : undefined}>
                {option.label}
              </SegmentGroup.ItemText>
              <SegmentGroup.ItemControl />
              <SegmentGroup.ItemHiddenInput />
            </SegmentGroup.Item>
          );
          return compact ? (
            <Tooltip key={option.value} label={option.label}>
              {segment}
            </Tooltip>
          ) : (
            segment
          );
        })}
      </SegmentGroup.Root>
      {forced && !compact ? (
        <p className={cx(css({ fontSize: 'sm', color: 'fg.muted' }))}>
          This page is always shown {forced}; your choice applies everywhere else.
        </p>
      ) : null}
    </div>
  );
}
