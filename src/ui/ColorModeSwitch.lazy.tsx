import { memo } from 'react';
import { css } from '../../styled-system/css';
import { useColorModeView } from '../platform/appActor';
import { lazyModule } from '../platform/lazyLoad';
import type { ColorModeSwitchProps } from './ColorModeSwitch';
import { item, options, root } from './colorModeSwitch.parts';
import { Icon } from './Icon';
import { visuallyHidden } from './styles';
import { useAfterFirstPage } from './useAfterFirstPage';
import { useLazyModule } from './useLazyModule';

/**
 * The colour-mode control with its tooltips out of the first load: the layout or page paints a stand-in of the
 * same markup, disabled, and the real control (./ColorModeSwitch.tsx, with its tooltips) replaces it
 * once its chunk has arrived (fetched after the first page is on screen, so the page's own chunk and data
 * come first) and the stored preference has been read. Until then the stand-in says what it is and that it
 * cannot be used yet: a disabled radio group, for the eye and for assistive technology alike (with
 * JavaScript off it stays so; the page then follows the system's colour scheme).
 */
const switchCode = lazyModule(() => import('./ColorModeSwitch'));

/**
 * Memoised: the layout re-renders on every navigation (its busy flag), and the control, with three Zag
 * tooltip machines, has nothing to redraw then; skipping it takes about a third off a navigation's render.
 */
export const LazyColorModeSwitch = memo(function LazyColorModeSwitch({
  compact = false,
}: ColorModeSwitchProps) {
  // Not before the first page is on screen: its chunk and data come first. Not before the stored preference
  // is known either: the control is built once, with the right value (see ./ColorModeSwitch.tsx).
  const code = useLazyModule(switchCode, useAfterFirstPage());
  const { preference, forced, settled } = useColorModeView();
  if (code && settled) return <code.ColorModeSwitch compact={compact} />;
  // The stand-in: a disabled radio group of the real control's size.
  return (
    <div className={css({ display: 'inline-flex', flexDirection: 'column', gap: '2' })}>
      <div role="radiogroup" aria-label="Color mode" aria-disabled="true" data-disabled="" className={root}>
        {options.map(({ value, label, icon }) => (
          <label
            key={value}
            className={item}
            data-disabled=""
            data-state={value === preference ? 'checked' : 'unchecked'}
          >
            <Icon name={icon} size={16} />
            <span className={compact ? visuallyHidden : undefined}>{label}</span>
            <input type="radio" checked={value === preference} disabled className={visuallyHidden} />
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
});
