import { memo, useId } from 'react';
import { css } from '../../styled-system/css';
import { lazyModule } from '../platform/lazyLoad';
import { useColorModeView } from './appActor';
import type { ColorModeSwitchProps } from './ColorModeSwitch';
import { item, options, root } from './colorModeSwitch.parts';
import { Icon } from './Icon';
import { visuallyHidden } from './styles';
import { useAfterFirstPage } from './useAfterFirstPage';
import { useLazyModule } from './useLazyModule';

/**
 * The colour-mode control without Ark UI's segment group in the first load: the layout or page paints a
 * stand-in of the same size, and the real control (./ColorModeSwitch.tsx, with its tooltips) replaces it
 * once its chunk has arrived (fetched after the first page is on screen, so the page's own chunk and data
 * come first) and the stored preference has been read. Until then the stand-in says what it is and that it
 * cannot be used yet: a disabled radio group, for the eye and for assistive technology alike (with
 * JavaScript off it stays so; the page then follows the system's colour scheme).
 */
const switchCode = lazyModule(() => import('./ColorModeSwitch'));

function StandIn({ compact = false }: ColorModeSwitchProps) {
  const { preference, forced } = useColorModeView();
  const name = useId();
  return (
    <div className={css({ display: 'inline-flex', flexDirection: 'column', gap: '2' })}>
      <div role="radiogroup" aria-label="Color mode" aria-disabled="true" data-disabled="" className={root}>
        {options.map((option) => (
          <label
            key={option.value}
            className={item}
            data-disabled=""
            data-state={option.value === preference ? 'checked' : 'unchecked'}
          >
            <Icon name={option.icon} size={16} />
            <span className={compact ? visuallyHidden : undefined}>{option.label}</span>
            {/* Where the real item has its (empty) control: the same flex gaps, so the same width. */}
            <span aria-hidden="true" />
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={option.value === preference}
              disabled
              readOnly
              className={visuallyHidden}
            />
          </label>
        ))}
      </div>
      {forced && !compact ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          This page is always shown {forced}; your choice applies everywhere else.
        </p>
      ) : null}
    </div>
  );
}

/**
 * Memoised: the layout re-renders on every navigation (its busy flag), and the control, with three Zag
 * tooltip machines, has nothing to redraw then; skipping it takes about a third off a navigation's render.
 */
export const LazyColorModeSwitch = memo(function LazyColorModeSwitch(props: ColorModeSwitchProps) {
  // Not before the first page is on screen: its chunk and data come first. Not before the stored preference
  // is known either: the control is built once, with the right value (see ./ColorModeSwitch.tsx).
  const code = useLazyModule(switchCode, useAfterFirstPage());
  const { settled } = useColorModeView();
  return code && settled ? <code.ColorModeSwitch {...props} /> : <StandIn {...props} />;
});
