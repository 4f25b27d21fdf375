/**
 * What a journey needs from a browser, and nothing more: every engine's driver (Playwright for Chromium, Puppeteer
 * over WebDriver BiDi for Firefox, WebDriver for WebKitGTK) implements it, so the journeys are written once.
 * Elements are found inside the page (visitor.ts), and input is real: pointer and key actions at the protocol
 * level, never `element.click()` in script.
 */
export type EngineName = 'chromium' | 'firefox' | 'webkit';

/** Keys a journey presses, by their DOM `key` names. */
export type Key = 'Enter' | 'Escape' | 'F8' | 'Tab' | 'Backspace' | 'Space';

export type PointerStep =
  | { readonly type: 'move'; readonly x: number; readonly y: number }
  | { readonly type: 'down' }
  | { readonly type: 'up' };

export interface Engine {
  readonly name: EngineName;
  /** Loads a URL as a typed address and waits for its load event. */
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  /** The browser's own Back and Forward (not `history.back()` in script). */
  back(): Promise<void>;
  forward(): Promise<void>;
  url(): Promise<string>;
  /** Runs `expression` (the source of an expression; a promise is awaited) in the page; its JSON value. */
  evaluate<T>(expression: string): Promise<T>;
  /** Pointer steps with the primary button, at viewport coordinates in CSS pixels. */
  pointer(steps: readonly PointerStep[]): Promise<void>;
  /** Types text into the focused element, key by key. */
  type(text: string): Promise<void>;
  press(key: Key, modifiers?: { shift?: boolean }): Promise<void>;
  /** Sets the viewport (the page's own size, not the window's) in CSS pixels. */
  setViewport(width: number, height: number): Promise<void>;
  screenshot(path: string): Promise<void>;
  /** The engine's name and version, as a failure or a screenshot names it. */
  version(): Promise<string>;
  /**
   * Makes a browser that ran an earlier journey ready for a new one on `origin` (each journey has an origin of
   * its own, so storage and cache start empty; cookies, which ignore the port, are deleted).
   */
  reset(origin: string): Promise<void>;
  close(): Promise<void>;
}
