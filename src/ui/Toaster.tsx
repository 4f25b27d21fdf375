/**
 * Renders the toaster actor (system id `toaster`) and one element per toast actor, with Ark UI's toast
 * anatomy (`data-scope="toast"`, `data-part=...`) and Portal, styled by the `toast` slot recipe.
 *
 * It owns no behaviour: every timer, pause, swipe decision and removal is in machines/toast/toast.machine.ts and
 * machines/toast/toaster.machine.ts. Pointer and focus on the viewport, and pointer gestures on a toast, become
 * events; state comes back as data attributes (`data-state`, `data-paused`, `data-swipe`,
 * `data-swipe-direction`). Only DOM focus and pointer capture are handled here, because only the DOM has them.
 */
import { Portal } from '@ark-ui/react/portal';
import { toastAnatomy } from '@ark-ui/react/toast';
import { useSelector } from '@xstate/react';
import { type CSSProperties, type PointerEvent, useEffect, useRef } from 'react';
import {
  type ToastCommands,
  type ToastView,
  toastAnnouncement,
  toastCommands,
  toastView,
} from '../../machines/toast/toast.view';
import type { ToastEntry, ToastRef } from '../../machines/toast/toaster.machine';
import {
  actionLabelOf,
  assertToasterLabel,
  hotkeyLabel,
  type ToastPosition,
  type ToastType,
} from '../../machines/toast/toaster.utils';
import { toast as toastRecipe } from '../../styled-system/recipes';
import { config } from '../config';
import { useToasterView } from '../platform/appActor';
import { afterInput } from '../platform/tasks';
import { visuallyHidden } from './styles';

const parts = toastAnatomy.build();

type ToastClasses = ReturnType<typeof toastRecipe>;

/** One literal call per placement, so that the build writes the class names in (build/staticStyles.ts). */
const classesByPlacement: Record<ToastPosition, ToastClasses> = {
  'top-left': toastRecipe({ placement: 'top-left' }),
  'top-center': toastRecipe({ placement: 'top-center' }),
  'top-right': toastRecipe({ placement: 'top-right' }),
  'bottom-left': toastRecipe({ placement: 'bottom-left' }),
  'bottom-center': toastRecipe({ placement: 'bottom-center' }),
  'bottom-right': toastRecipe({ placement: 'bottom-right' }),
};

export interface ToasterProps {
  /** Starts every announcement; must say something (whitespace alone throws). */
  readonly label?: string;
  readonly position?: ToastPosition;
}

/** Mounted once, outside the page switch, so toasts outlive the error page and navigations. */
export function Toaster({ label = config.toast.label, position = config.toast.position }: ToasterProps) {
  assertToasterLabel(label);
  const { entries, rootAttributes, pause, resume } = useToasterView();
  const classes = classesByPlacement[position];
  // Newest first, as the list is read and tabbed; the recipe stacks it from the screen edge.
  const newestFirst = [...entries].reverse();

  const style = {
    '--toast-gap': `${config.toast.gapPx}px`,
    '--toast-remove-delay': `${config.toast.removeDelayMs}ms`,
  } as CSSProperties;

  return (
    <Portal>
      {/* biome-ignore lint/a11y/useSemanticElements: a named region landmark, as the reference viewport renders it. */}
      <div
        {...parts.group.attrs}
        role="region"
        aria-label={`Notifications (${hotkeyLabel(config.toast.hotkey)})`}
        tabIndex={-1}
        className={classes.group}
        style={style}
        data-placement={position}
        {...rootAttributes}
        onPointerMove={() => pause('pointer')}
        onPointerLeave={() => resume('pointer')}
        onFocus={() => pause('focus')}
        onBlur={(event) => {
          const next = event.relatedTarget;
          if (!(next instanceof Node && event.currentTarget.contains(next))) resume('focus');
        }}
      >
        <ol className={classes.list}>
          {newestFirst.map((entry) => (
            <ToastItem key={entry.key} actorRef={entry.ref} classes={classes} />
          ))}
        </ol>
        <Announcer type="foreground" entries={entries} label={label} />
        <Announcer type="background" entries={entries} label={label} />
      </div>
    </Portal>
  );
}

/**
 * Everything a toast's element needs from its actor, and its commands (machines/toast/toast.view.ts). Here, not in
 * appActor.ts, so the toast view stays in the toaster's lazy chunk.
 */
function useToastView(
  toast: ToastRef,
  compare: (a: ToastView, b: ToastView) => boolean,
): ToastView & ToastCommands {
  const view = useSelector(toast, toastView, compare);
  return { ...view, ...toastCommands(toast) };
}

function ToastItem({ actorRef, classes }: { readonly actorRef: ToastRef; readonly classes: ToastClasses }) {
  const view = useToastView(actorRef, sameView);
  const element = useRef<HTMLLIElement>(null);
  const { content } = view;

  // A toast that closes with focus inside hands it to the viewport, so the keyboard user is not dropped
  // onto <body> when it leaves the DOM (and Escape keeps working, one toast per press).
  useEffect(() => {
    const li = element.current;
    if (view.state === 'closed' && li?.contains(document.activeElement)) {
      li.closest<HTMLElement>('[data-scope="toast"][data-part="group"]')?.focus();
    }
  }, [view.state]);

  // After the frame the click or key asked for: the toast's step and render are no part of the input's task.
  const close = () => afterInput(view.dismiss);
  /** Set while the capture is released at pointer-up, so that release is not reported as a lost pointer. */
  const releasing = useRef(false);
  const onPointerMove = (event: PointerEvent<HTMLLIElement>) => {
    // A mouse moving with no button down is not dragging (its button may have come up elsewhere).
    if (event.pointerType === 'mouse' && event.buttons === 0) return;
    view.swipeMove({ x: event.clientX, y: event.clientY });
    // Once it is a swipe, keep the pointer even if it leaves the toast (read now: the move may have made it one).
    const target = event.currentTarget;
    if (toastView(actorRef.getSnapshot()).swiping && !target.hasPointerCapture(event.pointerId)) {
      target.setPointerCapture(event.pointerId);
    }
  };

  const style = {
    '--toast-swipe-x': `${view.delta.x}px`,
    '--toast-swipe-y': `${view.delta.y}px`,
  } as CSSProperties;

  return (
    <li
      ref={element}
      {...parts.root.attrs}
      className={classes.root}
      style={style}
      // Focusable as one unit, as in the reference: a keyboard user reaches a toast, reads it, and Escape
      // closes that one.
      // biome-ignore lint/a11y/noNoninteractiveTabindex: see above.
      tabIndex={0}
      {...view.rootAttributes}
      onPointerDown={(event) => {
        if (event.button !== 0) return;
        view.swipeStart({ x: event.clientX, y: event.clientY }, event.pointerType);
      }}
      onPointerMove={onPointerMove}
      onPointerUp={(event) => {
        view.swipeEnd();
        if (event.currentTarget.hasPointerCapture(event.pointerId)) {
          releasing.current = true;
          event.currentTarget.releasePointerCapture(event.pointerId);
        }
      }}
      onPointerCancel={view.swipeCancel}
      onLostPointerCapture={() => {
        // Our own release at pointer-up is no lost pointer. Its event can arrive late, after the next drag
        // has begun, and must not cancel that one.
        if (releasing.current) {
          releasing.current = false;
          return;
        }
        view.pointerLost();
      }}
    >
      <div className={classes.content}>
        {content.title ? (
          <div {...parts.title.attrs} className={classes.title}>
            {content.title}
          </div>
        ) : null}
        {content.description ? (
          <div {...parts.description.attrs} className={classes.description}>
            {content.description}
          </div>
        ) : null}
        {content.actions.length > 0 ? (
          <div className={classes.actions}>
            {content.actions.map((action, index) => (
              <button
                // Actions have no identity of their own; their order is fixed for the toast's life.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above.
                key={index}
                type="button"
                {...parts.actionTrigger.attrs}
                className={classes.actionTrigger}
                onClick={() => {
                  action.onClick?.();
                  close();
                }}
              >
                {actionLabelOf(action, config.toast.actionLabel)}
              </button>
            ))}
          </div>
        ) : null}
      </div>
      <button
        type="button"
        {...parts.closeTrigger.attrs}
        className={classes.closeTrigger}
        aria-label={config.toast.closeLabel}
        onClick={close}
      >
        <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor">
          <path d="M18 6 6 18M6 6l12 12" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
      {view.progress ? (
        <div
          key={view.progress.key}
          aria-hidden="true"
          data-part="progress"
          className={classes.progress}
          style={
            {
              '--toast-progress-from': view.progress.fraction,
              transform: `scaleX(${view.progress.fraction})`,
              animation:
                view.progress.runsForMs === null
                  ? 'none'
                  : `toast-progress ${view.progress.runsForMs}ms linear forwards`,
            } as CSSProperties
          }
        />
      ) : null}
    </li>
  );
}

function sameView(a: ToastView, b: ToastView): boolean {
  return (
    a.state === b.state &&
    a.paused === b.paused &&
    a.swipe === b.swipe &&
    a.delta === b.delta &&
    a.content === b.content &&
    a.progress?.key === b.progress?.key &&
    a.progress?.fraction === b.progress?.fraction
  );
}

/**
 * A visually hidden live region per politeness: foreground toasts are announced assertively, background
 * ones politely. The regions exist before any toast, so screen readers pick up what is added to them.
 */
function Announcer({
  type,
  entries,
  label,
}: {
  readonly type: ToastType;
  readonly entries: readonly ToastEntry[];
  readonly label: string;
}) {
  return (
    <div
      className={visuallyHidden}
      aria-live={type === 'foreground' ? 'assertive' : 'polite'}
      data-testid={`toast-announcer-${type}`}
    >
      {entries.map((entry) => (
        <Announcement key={entry.key} actorRef={entry.ref} type={type} label={label} />
      ))}
    </div>
  );
}

function Announcement({
  actorRef,
  type,
  label,
}: {
  readonly actorRef: ToastRef;
  readonly type: ToastType;
  readonly label: string;
}) {
  const text = useSelector(actorRef, (snapshot) => toastAnnouncement(snapshot, type, label));
  return text ? <p>{text}</p> : null;
}
