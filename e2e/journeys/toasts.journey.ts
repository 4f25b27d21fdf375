/** Toasts: shown, paused while hovered, reached with F8, closed with Escape and by a swipe. */
import { journey } from './journey';
import type { Query, Visitor } from './visitor';

const REGION: Query = { role: 'region', name: 'Notifications (F8)' };
const TOAST: Query = { role: 'listitem', name: /Changes saved/, within: REGION };

const SHOW: Query = { role: 'button', name: 'Show toast' };

async function show(v: Visitor): Promise<void> {
  // Disabled until the app has started (a prerendered button does nothing before that).
  await v.until(
    'the gallery can show toasts',
    async () => {
      const button = await v.find(SHOW);
      return button !== null && button.attributes.disabled === undefined;
    },
    true,
  );
  await v.click(SHOW);
  await v.until('a toast is open', async () => (await v.find(TOAST))?.attributes['data-state'], 'open');
  // Its entry animation done, so the pointer lands on the toast where it stays.
  await v.evaluate(
    `Promise.all(document.querySelector('[role="region"] li').getAnimations().map((a) => a.finished)).then(() => true)`,
  );
}

journey(
  'a toast pauses while hovered, takes focus with F8, closes with Escape and with a swipe',
  async (v) => {
    // A toast's five seconds last fifty: a slow engine on a busy machine reaches it before it closes itself.
    v.proxy.setProbe({ timers: [{ atLeast: 1_000, factor: 10 }] });
    await v.visit('/campaign/components/info');
    await v.expectPage('Component gallery');

    await show(v);
    await v.hover(TOAST);
    await v.until(
      'paused while hovered',
      async () => (await v.find(TOAST))?.attributes['data-paused'] !== undefined,
      true,
    );
    // Away over the page, as a hand moves: the pointer leaves the notifications on its way back to the button.
    const toast = await v.get(TOAST);
    const heading = await v.get(SHOW);
    await v.engine.pointer(
      [1, 2, 3, 4, 5, 6].map((step) => ({
        type: 'move' as const,
        x: toast.x + ((heading.x - toast.x) * step) / 6,
        y: toast.y + ((heading.y - toast.y) * step) / 6,
      })),
    );
    await v.until(
      'running again',
      async () => (await v.find(TOAST))?.attributes['data-paused'] === undefined,
      true,
    );

    await v.press('F8');
    await v.until(
      'F8 moves focus to the notifications',
      () =>
        v.evaluate<string | null>(
          `document.activeElement && document.activeElement.getAttribute('aria-label')`,
        ),
      'Notifications (F8)',
    );
    await v.press('Escape');
    await v.gone(TOAST);

    await show(v);
    await v.drag(TOAST, 160, 0);
    await v.gone(TOAST);
  },
);
