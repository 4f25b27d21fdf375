/**
 * WebKitGTK through WebKitWebDriver (Debian's webkit2gtk-driver), a W3C WebDriver server for its MiniBrowser,
 * spoken to directly: the dozen commands a journey needs are plain HTTP, so no client library is needed. WebKitGTK
 * 2.50's driver has no WebDriver BiDi, hence no init scripts and no request interception: the journey proxy does
 * both for every engine.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { BLANK_PATH } from '../probe';
import type { Engine, Key, PointerStep } from './engine';

const KEYS: Record<Key, string> = {
  Enter: '\uE007',
  Escape: '\uE00C',
  F8: '\uE038',
  Tab: '\uE004',
  Backspace: '\uE003',
  Space: ' ',
};
const SHIFT = '\uE008';

export interface WebDriverServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts WebKitWebDriver on `port` and waits until it answers. */
export async function startWebKitWebDriver(binary: string, port: number): Promise<WebDriverServer> {
  const child: ChildProcess = spawn(binary, [`--port=${port}`, '--host=127.0.0.1'], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 20_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/status`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`${binary} exited with ${child.exitCode}`);
    if (Date.now() > until) throw new Error(`${binary} did not answer on ${url} within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

/** One MiniBrowser session (a fresh, ephemeral profile) on a running WebKitWebDriver. */
export async function openWebKit(server: WebDriverServer, miniBrowser: string): Promise<Engine> {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const started = Date.now();
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (process.env.JOURNEYS_DEBUG) console.log(`${Date.now() - started} ms ${method} ${path}`);
    const answer = (await response.json()) as { value: T & { error?: string; message?: string } };
    if (!response.ok)
      throw new Error(`WebDriver ${method} ${path}: ${answer.value.error}: ${answer.value.message}`);
    return answer.value;
  };
  const created = await call<{ sessionId: string; capabilities: { browserVersion: string } }>(
    'POST',
    '/session',
    {
      capabilities: {
        alwaysMatch: {
          browserName: 'MiniBrowser',
          'webkitgtk:browserOptions': { binary: miniBrowser, args: ['--automation'] },
        },
      },
    },
  );
  const session = `/session/${created.sessionId}`;
  const execute = async <T>(expression: string): Promise<T> => {
    // Asynchronous, so a promise is awaited; an exception comes back as a value and is thrown here.
    const result = await call<{ ok: boolean; value?: T; error?: string }>(
      'POST',
      `${session}/execute/async`,
      {
        script: `const done = arguments[arguments.length - 1];
        Promise.resolve().then(() => (${expression})).then(
          (value) => done({ ok: true, value: value === undefined ? null : value }),
          (error) => done({ ok: false, error: String(error && error.stack ? error.stack : error) }));`,
        args: [],
      },
    );
    if (!result.ok) throw new Error(`in the page: ${result.error}`);
    return result.value as T;
  };
  const keys = (values: string[]) =>
    call('POST', `${session}/actions`, {
      actions: [
        {
          type: 'key',
          id: 'keyboard',
          actions: values.flatMap((value) => [
            { type: 'keyDown', value },
            { type: 'keyUp', value },
          ]),
        },
      ],
    });
  const engine: Engine = {
    name: 'webkit',
    async goto(url) {
      await call('POST', `${session}/url`, { url });
    },
    async reload() {
      await call('POST', `${session}/refresh`, {});
    },
    async back() {
      await call('POST', `${session}/back`, {});
    },
    async forward() {
      await call('POST', `${session}/forward`, {});
    },
    url: () => call<string>('GET', `${session}/url`),
    evaluate: execute,
    async pointer(steps: readonly PointerStep[]) {
      await call('POST', `${session}/actions`, {
        actions: [
          {
            type: 'pointer',
            id: 'mouse',
            parameters: { pointerType: 'mouse' },
            actions: steps.map((step) =>
              step.type === 'move'
                ? {
                    type: 'pointerMove',
                    x: Math.round(step.x),
                    y: Math.round(step.y),
                    duration: 50,
                    origin: 'viewport',
                  }
                : { type: step.type === 'down' ? 'pointerDown' : 'pointerUp', button: 0 },
            ),
          },
        ],
      });
    },
    async type(text) {
      await keys([...text]);
    },
    async press(key: Key, modifiers) {
      if (!modifiers?.shift) return void (await keys([KEYS[key]]));
      await call('POST', `${session}/actions`, {
        actions: [
          {
            type: 'key',
            id: 'keyboard',
            actions: [
              { type: 'keyDown', value: SHIFT },
              { type: 'keyDown', value: KEYS[key] },
              { type: 'keyUp', value: KEYS[key] },
              { type: 'keyUp', value: SHIFT },
            ],
          },
        ],
      });
    },
    async setViewport(width, height) {
      // The window includes whatever the browser draws around the page: measure it and size the window so the
      // page gets the asked size. MiniBrowser's window has a minimum width (about 447 CSS px with its toolbar):
      // narrower asks get that; phone widths are checked in Chromium and Firefox.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const inner = await execute<[number, number]>('[innerWidth, innerHeight]');
        if (inner[0] === width && inner[1] === height) return;
        const rect = await call<{ width: number; height: number }>('GET', `${session}/window/rect`);
        await call('POST', `${session}/window/rect`, {
          width: rect.width + width - inner[0],
          height: rect.height + height - inner[1],
        });
      }
    },
    async screenshot(path) {
      const png = await call<string>('GET', `${session}/screenshot`);
      await writeFile(path, Buffer.from(png, 'base64'));
    },
    async version() {
      return `WebKitGTK ${created.capabilities.browserVersion}`;
    },
    async reset(origin) {
      await call('POST', `${session}/url`, { url: `${origin}${BLANK_PATH}` });
      await call('DELETE', `${session}/cookie`);
      await engine.setViewport(1280, 800);
    },
    async close() {
      await call('DELETE', session).catch(() => {});
    },
  };
  return engine;
}
