import { SegmentGroup } from '@ark-ui/react/segment-group';
import { css, cx } from '../../styled-system/css';
import { afterInput } from '../platform/tasks';
import { useColorModeView } from './appActor';
import { item, options, root } from './colorModeSwitch.parts';
import { Icon } from './Icon';
import { visuallyHidden } from './styles';
import { Tooltip } from './Tooltip';

export interface ColorModeSwitchProps {
  /** Icons only, each with a tooltip (the header); otherwise icons with their names and a forced-page note. */
  readonly compact?: boolean;
}

/**
 * The colour-mode preference as an Ark UI segment group, driven by the colour-mode machine: the value is
 * the machine's preference, a change is the view's `choose` command (a `colorMode.set` event), and on a page that forces a mode the
 * control is disabled because the machine would not take the event. It is mounted only once the stored
 * preference has been read (./ColorModeSwitch.lazy.tsx): Ark's hidden radios keep the `checked` they were
 * first rendered with through a later change of value, and a control rebuilt under a resting pointer would
 * lose its hover (and its tooltip).
 */
export function ColorModeSwitch({ compact = false }: ColorModeSwitchProps) {
  const { preference, forced, disabled, rootAttributes, choose } = useColorModeView();
  return (
    <div className={css({ display: 'inline-flex', flexDirection: 'column', gap: '2' })}>
      <SegmentGroup.Root
        className={root}
        value={preference}
        disabled={disabled}
        {...rootAttributes}
        // After the frame the click asked for: the colour-mode step and the new colours are no part of its task.
        onValueChange={({ value }) => afterInput(() => choose(value))}
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
