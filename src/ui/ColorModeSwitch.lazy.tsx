import { memo } from 'react';
import { css, cx } from '../../styled-system/css';
import { lazyModule } from '../platform/lazyLoad';
import { useColorModeView } from './appActor';
import type { ColorModeSwitchProps } from './ColorModeSwitch';
import { item, options, root } from './colorModeSwitch.parts';
import { Icon } from './Icon';
import { useAfterFirstPage } from './useAfterFirstPage';
import { useLazyModule } from './useLazyModule';

/**
 * The colour-mode control without Ark UI's segment group in the first load: the layout or page paints a
 * stand-in of the same size and look, and the real control (./ColorModeSwitch.tsx, with its tooltips)
 * replaces it as soon as its chunk arrives, which is fetched once the first page is on screen (not before:
 * the page's own chunk and data come first). The stand-in is hidden from assistive technology: the control
 * appears for them once.
 */
const switchCode = lazyModule(() => import('./ColorModeSwitch'));

function StandIn({ compact = false }: ColorModeSwitchProps) {
  const { preference, forced } = useColorModeView();
  return (
    <div aria-hidden="true" className={css({ display: 'inline-flex', flexDirection: 'column', gap: '2' })}>
      <div className={root}>
        {options.map((option) => (
          <span
            key={option.value}
            className={cx(item)}
            data-state={option.value === preference ? 'checked' : 'unchecked'}
          >
            <Icon name={option.icon} size={16} />
            {/* The real item's visually hidden label still takes one flex gap in the compact control. */}
            {compact ? <span /> : option.label}
          </span>
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
  // Not before the first page is on screen: its chunk and data come first.
  const code = useLazyModule(switchCode, useAfterFirstPage());
  return code ? <code.ColorModeSwitch {...props} /> : <StandIn {...props} />;
});
