/**
 * A visitor as the journeys see one: an engine (engines/engine.ts) and the journey's proxy (proxy.ts), with the
 * few verbs a journey is written in. Elements are found in the page by role and accessible name (a small
 * finder: the roles the app uses, named by `aria-label`, `aria-labelledby`, a `<label>` or their text), then
 * clicked, hovered or dragged with real pointer input at their centre, as a person would.
 */
import { expect } from '@playwright/test';
import type { Engine, Key } from './engines/engine';
import { AXE_PATH, type JourneyProxy } from './proxy';

/**
 * How long a journey waits for what it expects: generous, as MiniBrowser under WebDriver on a loaded 2-core
 * machine is several times slower than Chromium; a wait ends as soon as its condition holds.
 */
const WAIT_MS = 15_000;
/** Looks again soon: each look is a round trip to the engine, which is the real pace of a poll. */
const POLL_INTERVALS = [50, 100, 200];

export interface Query {
  readonly role:
    | 'link'
    | 'button'
    | 'heading'
    | 'textbox'
    | 'radio'
    | 'radiogroup'
    | 'listitem'
    | 'region'
    | 'status'
    | 'alert'
    | 'main'
    | 'banner'
    | 'navigation';
  /** The accessible name: a string matches the whole trimmed name, a RegExp any part. */
  readonly name?: string | RegExp;
  /** The h1…h6 level of a heading. */
  readonly level?: number;
  /** Only inside the first element of this role (and name) on the page. */
  readonly within?: Query;
}

/** A query as it travels into the page (a RegExp does not survive JSON). */
interface WireQuery {
  role: string;
  name?: { exact: string } | { source: string; flags: string };
  level?: number;
  within?: WireQuery;
}

function wire(query: Query): WireQuery {
  const { name } = query;
  return {
    role: query.role,
    level: query.level,
    name:
      name === undefined
        ? undefined
        : typeof name === 'string'
          ? { exact: name }
          : { source: name.source, flags: name.flags },
    within: query.within ? wire(query.within) : undefined,
  };
}

export interface Found {
  readonly x: number;
  readonly y: number;
  readonly text: string;
  readonly value: string | null;
  readonly focused: boolean;
  readonly attributes: Record<string, string>;
}

/**
 * The finder, run in the page: the first visible element of the query, scrolled into view, or null. Plain
 * JavaScript in a string, so no build step of the test runner can add helpers the page lacks.
 */
const FINDER = `(function find(query, mode) {
  const SELECTORS = {
    link: 'a[href], [role="link"]',
    button: 'button, [role="button"], input[type="submit"], input[type="button"], summary',
    heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
    textbox: 'input:not([type]), input[type="text"], input[type="email"], input[type="password"], input[type="search"], input[type="url"], input[type="tel"], textarea, [role="textbox"]',
    radio: 'input[type="radio"], [role="radio"], [role="menuitemradio"]',
    radiogroup: '[role="radiogroup"], fieldset',
    listitem: 'li, [role="listitem"]',
    region: 'section[aria-label], section[aria-labelledby], [role="region"]',
    status: '[role="status"], output',
    alert: '[role="alert"]',
    main: 'main, [role="main"]',
    banner: 'header, [role="banner"]',
    navigation: 'nav, [role="navigation"]',
  };
  const squash = (text) => (text || '').replace(/\\s+/g, ' ').trim();
  const byIds = (ids) => ids.split(/\\s+/).map((id) => document.getElementById(id)).filter(Boolean);
  const nameOf = (element) => {
    const label = element.getAttribute('aria-label');
    if (label) return squash(label);
    const labelledBy = element.getAttribute('aria-labelledby');
    if (labelledBy) return squash(byIds(labelledBy).map((other) => other.textContent).join(' '));
    if (element.labels && element.labels.length) return squash(Array.from(element.labels).map((l) => l.textContent).join(' '));
    if (element instanceof HTMLInputElement && (element.type === 'submit' || element.type === 'button')) return squash(element.value);
    if (element.matches('input, textarea, select')) return squash(element.getAttribute('title') || element.getAttribute('placeholder'));
    return squash(element.textContent);
  };
  const visible = (element) => {
    if (element.closest('[inert], [hidden], [aria-hidden="true"]')) return false;
    if (element.matches('input[type="radio"], input[type="checkbox"]')) return true;
    const style = getComputedStyle(element);
    return element.getClientRects().length > 0 && style.visibility !== 'hidden';
  };
  const matches = (element, q) => {
    if (q.level !== undefined) {
      const level = /^H([1-6])$/.test(element.tagName) ? Number(element.tagName[1]) : Number(element.getAttribute('aria-level'));
      if (level !== q.level) return false;
    }
    if (!q.name) return true;
    const name = nameOf(element);
    return 'exact' in q.name ? name === q.name.exact : new RegExp(q.name.source, q.name.flags).test(name);
  };
  const first = (root, q) => Array.from(root.querySelectorAll(SELECTORS[q.role])).find((element) => visible(element) && matches(element, q)) || null;
  let root = document;
  if (query.within) {
    root = find(query.within, 'element');
    if (!root) return null;
  }
  const element = first(root, query);
  if (!element || mode === 'element') return element;
  if (mode === 'scroll') element.scrollIntoView({ block: 'center', inline: 'center' });
  let target = element;
  // A visually hidden radio is chosen through its label.
  if (element.matches('input[type="radio"], input[type="checkbox"]') && element.labels && element.labels[0]) target = element.labels[0];
  const box = target.getBoundingClientRect();
  const attributes = {};
  for (const attribute of Array.from(element.attributes)) attributes[attribute.name] = attribute.value;
  if (element.matches('input[type="radio"], input[type="checkbox"]')) attributes.checked = String(element.checked);
  return {
    x: box.left + box.width / 2,
    y: box.top + box.height / 2,
    text: squash(element.textContent),
    value: 'value' in element && typeof element.value === 'string' ? element.value : null,
    focused: document.activeElement === element,
    attributes,
  };
})`;

/** Describes a query for a failure message. */
export function described(query: Query): string {
  const name = query.name === undefined ? '' : ` "${String(query.name)}"`;
  const level = query.level === undefined ? '' : ` (level ${query.level})`;
  return `${query.role}${name}${level}${query.within ? ` in ${described(query.within)}` : ''}`;
}

export class Visitor {
  constructor(
    readonly engine: Engine,
    readonly proxy: JourneyProxy,
  ) {}

  get name() {
    return this.engine.name;
  }

  /** Opens a path of the app as a typed address (the proxy's origin). */
  async visit(path: string): Promise<void> {
    const loads = this.proxy.documentLoads();
    await this.engine.goto(`${this.proxy.origin}${path}`);
    await this.until(
      'the probe ran in the new document',
      async () => this.proxy.documentLoads() > loads,
      true,
    );
  }

  /** The path and query in the address bar. */
  async path(): Promise<string> {
    const url = new URL(await this.engine.url());
    return url.pathname + url.search;
  }

  evaluate<T>(expression: string): Promise<T> {
    return this.engine.evaluate<T>(expression);
  }

  /**
   * The element of `query` now, or null, also while a document is being replaced (an engine refuses to run
   * script in a page that is going away: for a poll that is "not yet").
   */
  async find(query: Query, scroll = false): Promise<Found | null> {
    return this.engine
      .evaluate<Found | null>(
        `${FINDER}(${JSON.stringify(wire(query))}, ${JSON.stringify(scroll ? 'scroll' : 'look')})`,
      )
      .catch((error: unknown) => {
        if (scroll) throw error;
        return null;
      });
  }

  /** Waits for the element of `query` and returns it. */
  async get(query: Query, timeout = WAIT_MS): Promise<Found> {
    let found: Found | null = null;
    await expect
      .poll(
        async () => {
          found = await this.find(query);
          return found !== null;
        },
        {
          message: `${described(query)} on screen`,
          timeout,
          intervals: POLL_INTERVALS,
        },
      )
      .toBe(true);
    return found as unknown as Found;
  }

  /** Waits until the element of `query` is gone (or never was). */
  async gone(query: Query, timeout = WAIT_MS): Promise<void> {
    await expect
      .poll(() => this.find(query), {
        message: `${described(query)} gone`,
        timeout,
        intervals: POLL_INTERVALS,
      })
      .toBeNull();
  }

  /** Clicks the element of `query` at its centre with the primary pointer button. */
  async click(query: Query): Promise<void> {
    await this.get(query);
    const found = await this.find(query, true);
    if (!found) throw new Error(`${described(query)} went away before the click`);
    await this.engine.pointer([{ type: 'move', x: found.x, y: found.y }, { type: 'down' }, { type: 'up' }]);
  }

  /** Moves the pointer over the element of `query`. */
  async hover(query: Query): Promise<void> {
    const found = await this.get(query);
    await this.engine.pointer([{ type: 'move', x: found.x, y: found.y }]);
  }

  /** Presses the primary button on the element and drags it by (dx, dy) in small steps. */
  async drag(query: Query, dx: number, dy: number): Promise<void> {
    const { x, y } = await this.get(query);
    const steps = [1, 2, 3, 4, 5, 6].map((step) => ({
      type: 'move' as const,
      x: x + (dx * step) / 6,
      y: y + (dy * step) / 6,
    }));
    await this.engine.pointer([{ type: 'move', x, y }, { type: 'down' }, ...steps, { type: 'up' }]);
  }

  /** Clicks a text field, empties it and types `text`, key by key. */
  async fill(query: Query, text: string): Promise<void> {
    await this.click(query);
    await expect
      .poll(async () => (await this.find(query))?.focused, {
        message: `${described(query)} focused`,
        intervals: POLL_INTERVALS,
      })
      .toBe(true);
    await this.evaluate(`(() => { const el = document.activeElement; el.select && el.select(); })()`);
    const current = (await this.find(query))?.value ?? '';
    if (current !== '') await this.engine.press('Backspace');
    await this.engine.type(text);
    await expect
      .poll(async () => (await this.find(query))?.value, {
        message: `${described(query)} typed into`,
        intervals: POLL_INTERVALS,
      })
      .toBe(text);
  }

  press(key: Key, modifiers?: { shift?: boolean }): Promise<void> {
    return this.engine.press(key, modifiers);
  }

  back(): Promise<void> {
    return this.engine.back();
  }

  forward(): Promise<void> {
    return this.engine.forward();
  }

  reload(): Promise<void> {
    return this.engine.reload();
  }

  /** Waits until `read()` returns `expected` (compared as JSON); a failure names what was waited for. */
  async until<T>(message: string, read: () => Promise<T>, expected: T, timeout = WAIT_MS): Promise<void> {
    const attempt = () => read().catch((error: unknown) => ({ failed: String(error) }));
    await expect.poll(attempt, { message, timeout, intervals: POLL_INTERVALS }).toEqual(expected);
  }

  /** The main heading (`h1` in `main`) text, or null while there is none. */
  async heading(): Promise<string | null> {
    return (await this.find({ role: 'heading', level: 1, within: { role: 'main' } }))?.text ?? null;
  }

  /** Waits until the main heading reads `text` and React owns it (a click before hydration does nothing). */
  async expectPage(text: string | RegExp, path?: string): Promise<void> {
    const matches = (heading: string | null) =>
      typeof text === 'string' ? heading === text : heading !== null && text.test(heading);
    await expect
      .poll(async () => matches(await this.heading()), {
        message: `main heading ${String(text)}`,
        timeout: WAIT_MS,
        intervals: POLL_INTERVALS,
      })
      .toBe(true);
    if (path !== undefined) await this.until('address', () => this.path(), path);
    await this.until(
      'the app owns the page (hydrated)',
      () =>
        this.evaluate<boolean>(
          `(() => { const h = document.querySelector('main h1'); return !!h && Object.keys(h).some((k) => k.startsWith('__react')); })()`,
        ),
      true,
    );
  }

  /** What has focus: its tag, text and accessible role hints. */
  focused(): Promise<{ tag: string; text: string } | null> {
    return this.evaluate(
      `(() => { const el = document.activeElement; return el && el !== document.body ? { tag: el.tagName.toLowerCase(), text: (el.textContent || '').replace(/\\s+/g, ' ').trim() } : null; })()`,
    );
  }

  /** Runs axe on the page as it is; the serious or critical violations, described. */
  async axe(): Promise<string[]> {
    await this.evaluate(`new Promise((resolve, reject) => {
      if (window.axe) return resolve(true);
      const script = document.createElement('script');
      script.src = ${JSON.stringify(AXE_PATH)};
      script.onload = () => resolve(true);
      script.onerror = () => reject(new Error('axe-core did not load'));
      document.head.append(script);
    })`);
    return this.evaluate<
      string[]
    >(`window.axe.run(document, { resultTypes: ['violations'] }).then((results) =>
      results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => v.id + ' (' + v.impact + '): ' + v.help + ' at ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`);
  }
}
