/**
 * The toast slot recipe, over Ark UI's toast anatomy (`group` is the viewport, `root` one toast) plus the
 * parts we render ourselves. Imported by panda.config.ts; the app uses the generated `toast` recipe.
 *
 * Every state is a data attribute the toast machines drive: `data-state` (open/closed), `data-paused`,
 * `data-swipe` (move/cancel/end), `data-swipe-direction`. Durations and the gap come from src/config.ts
 * through CSS variables set by the Toaster, so CSS and machines cannot disagree.
 */
import { toastAnatomy } from '@ark-ui/react/toast';
import { defineSlotRecipe } from '@pandacss/dev';

const bottom = { flexDirection: 'column-reverse', '--toast-enter-y': '100%' } as const;
const top = { flexDirection: 'column', '--toast-enter-y': '-100%' } as const;
const centered = { left: '50%', transform: 'translateX(-50%)' } as const;

export const toastRecipe = defineSlotRecipe({
  className: 'toast',
  description: 'Toasts rendered from XState toast actors with Ark UI toast anatomy',
  slots: [...toastAnatomy.keys(), 'list', 'content', 'actions', 'progress'],
  // The placement comes from src/config.ts at run time, which Panda cannot see: emit every variant.
  staticCss: [{ placement: ['*'] }],
  base: {
    group: {
      position: 'fixed',
      zIndex: 100,
      w: { base: 'calc(100% - 2rem)', sm: '24rem' },
      outline: 'none',
      _focusVisible: { outline: '2px solid', outlineColor: 'primary.focus', outlineOffset: '4px' },
      '&[data-empty]': { pointerEvents: 'none' },
    },
    list: { display: 'flex', gap: 'var(--toast-gap)', listStyle: 'none', m: '0', p: '0' },
    root: {
      position: 'relative',
      overflow: 'hidden',
      display: 'flex',
      alignItems: 'flex-start',
      gap: '2.5',
      p: '4',
      bg: 'bg',
      color: 'fg',
      borderWidth: '1px',
      borderColor: 'border',
      borderRadius: 'lg',
      boxShadow: 'lg',
      userSelect: 'none',
      touchAction: 'none',
      pointerEvents: 'auto',
      animation: 'toast-enter var(--toast-remove-delay) ease-out',
      transition: 'transform var(--toast-remove-delay) ease-out, opacity var(--toast-remove-delay) ease-in',
      _focusVisible: { outline: '2px solid', outlineColor: 'primary.focus', outlineOffset: '2px' },
      '&[data-state=closed]': { opacity: 0, pointerEvents: 'none' },
      // While the pointer drags, the toast follows it with no easing; released, it eases home or away.
      '&[data-swipe=move]': {
        transform: 'translate3d(var(--toast-swipe-x), var(--toast-swipe-y), 0)',
        transition: 'none',
      },
      '&[data-swipe=end][data-swipe-direction=right]': { transform: 'translate3d(calc(100% + 2rem), 0, 0)' },
      '&[data-swipe=end][data-swipe-direction=left]': { transform: 'translate3d(calc(-100% - 2rem), 0, 0)' },
      '&[data-swipe=end][data-swipe-direction=up]': { transform: 'translate3d(0, calc(-100% - 2rem), 0)' },
      '&[data-swipe=end][data-swipe-direction=down]': { transform: 'translate3d(0, calc(100% + 2rem), 0)' },
      _motionReduce: { animation: 'none', transition: 'opacity var(--toast-remove-delay) linear' },
    },
    content: { flex: '1', minW: '0', display: 'grid', gap: '1' },
    title: { fontSize: 'sm', fontWeight: 'medium', color: 'fg.highlighted', overflowWrap: 'anywhere' },
    description: { fontSize: 'sm', color: 'fg.muted', overflowWrap: 'anywhere' },
    actions: { display: 'flex', flexWrap: 'wrap', gap: '2', mt: '1.5' },
    actionTrigger: {
      display: 'inline-flex',
      alignItems: 'center',
      h: '7',
      px: '2.5',
      fontSize: 'xs',
      fontWeight: 'semibold',
      borderRadius: 'control',
      bg: 'primary.solid',
      color: 'primary.onSolid',
      cursor: 'pointer',
      _hover: { filter: 'brightness(1.08)' },
    },
    closeTrigger: {
      flexShrink: '0',
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      w: '7',
      h: '7',
      mt: '-1',
      mr: '-1',
      borderRadius: 'control',
      color: 'fg.muted',
      cursor: 'pointer',
      _hover: { bg: 'bg.elevated', color: 'fg.highlighted' },
    },
    progress: {
      position: 'absolute',
      insetInline: '0',
      bottom: '0',
      h: '1',
      bg: 'primary',
      transformOrigin: 'left',
      pointerEvents: 'none',
      // The bar only mirrors the machine's remaining time; with reduced motion a moving bar is noise.
      _motionReduce: { display: 'none' },
    },
  },
  variants: {
    placement: {
      'top-left': { group: { top: '4', left: '4' }, list: top },
      'top-center': { group: { top: '4', ...centered }, list: top },
      'top-right': { group: { top: '4', right: '4' }, list: top },
      'bottom-left': { group: { bottom: '4', left: '4' }, list: bottom },
      'bottom-center': { group: { bottom: '4', ...centered }, list: bottom },
      'bottom-right': { group: { bottom: '4', right: '4' }, list: bottom },
    },
  },
});

/** Keyframes the recipe and the Toaster name; panda.config.ts adds them to the theme. */
export const toastKeyframes = {
  'toast-enter': {
    from: { opacity: '0', transform: 'translate3d(0, var(--toast-enter-y), 0)' },
    to: { opacity: '1', transform: 'translate3d(0, 0, 0)' },
  },
  'toast-progress': {
    from: { transform: 'scaleX(var(--toast-progress-from))' },
    to: { transform: 'scaleX(0)' },
  },
};
