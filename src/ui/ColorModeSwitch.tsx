import { useId } from 'react';
import { css } from '../../styled-system/css';
import { useColorModeView } from '../platform/appActor';
import { afterInput } from '../platform/tasks';
import { item, options, root } from './colorModeSwitch.parts';
import { Icon } from './Icon';
import { visuallyHidden } from './styles';
import { LazyTooltip } from './Tooltip.lazy';

export interface ColorModeSwitchProps {
  /** Icons only, each with a tooltip (the header); otherwise icons with their names and a forced-page note. */
  readonly compact?: boolean;
}

/**
 * The colour-mode preference as native radio buttons in a segmented group, driven by the colour-mode machine:
 * the checked radio is the machine's preference, a change is the view's `choose` command (a `colorMode.set`
 * event), and on a page that forces a mode the radios are disabled because the machine would not take the
 * event. The browser gives the group its keyboard (Tab to the checked radio, arrows to choose) and its
 * semantics. It was Ark UI's segment group: every hover, press and release re-rendered it synchronously
 * (Zag's `flushSync`), about 100 ms of a click at 4x CPU before the pressed segment could paint.
 * It is mounted only once the stored preference has been read (./ColorModeSwitch.lazy.tsx), so a control
 * under a resting pointer is never rebuilt (which would lose its hover and its tooltip).
 */
export function ColorModeSwitch({ compact = false }: ColorModeSwitchProps) {
  const { preference, forced, disabled, rootAttributes, choose } = useColorModeView();
  const name = useId();
  const disabledAttributes = disabled ? { 'data-disabled': '' } : {};
  return (
    <div className={css({ display: 'inline-flex', flexDirection: 'column', gap: '2' })}>
      <div
        role="radiogroup"
        aria-label="Color mode"
        className={root}
        {...(disabled ? { 'aria-disabled': 'true' } : {})}
        {...disabledAttributes}
        {...rootAttributes}
      >
        {options.map((option) => {
          const checked = option.value === preference;
          const segment = (
            <label
              key={option.value}
              className={item}
              data-state={checked ? 'checked' : 'unchecked'}
              {...disabledAttributes}
            >
              <Icon name={option.icon} size={16} />
              <span className={compact ? visuallyHidden : undefined}>{option.label}</span>
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={checked}
                disabled={disabled}
                className={visuallyHidden}
                // After the frame the click asked for: the colour-mode step and the new colours are no part of
                // its task. Until the machine answers, React keeps the radio the preference says is checked.
                onChange={() => afterInput(() => choose(option.value))}
              />
            </label>
          );
          return compact ? (
            <LazyTooltip key={option.value} label={option.label}>
              {segment}
            </LazyTooltip>
          ) : (
            segment
          );
        })}
      </div>
      {forced && !compact ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          This page is always shown {forced}; your choice applies everywhere else.
        </p>
      ) : null}
    </div>
  );
}
