/**
 * The journeys' window on the network, the same in every engine: each journey talks to the e2e server through a
 * proxy of its own (its own port, so its own origin), which
 * - answers or fails the requests a journey names (a newer `latest.json`, a missing chunk), as Playwright's
 *   `page.route` does for the Chromium-only specs, but for engines driven over WebDriver too;
 * - adds one script tag to every HTML document, before the app's own: the probe (probe.ts), which records what an
 *   engine-neutral test must see from the start of each document (uncaught errors, CSP violations, document loads)
 *   and sets the journey's page-side switches;
 * - serves axe-core to the page, so axe runs in every engine the same way.
 * The app's CSP allows `script-src 'self'`, and the probe and axe come from the page's own origin: nothing in the
 * app's headers changes.
 */
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { BLANK_PATH, PROBE_PATH, type ProbeEvent, type ProbeOptions, probeSource } from './probe';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const AXE_PATH = '/__journeys/axe.js';
const EVENT_PATH = '/__journeys/event';

/** What the proxy does with a request it matches: fail it (the connection is cut) or answer it itself. */
export type Answer =
  | 'fail'
  | { readonly status?: number; readonly json?: unknown; readonly body?: string; readonly type?: string };

interface Rule {
  readonly match: RegExp;
  readonly answer: Answer;
  hits: number;
}

export class JourneyProxy {
  readonly origin: string;
  /** Everything the probe reported, in order, across document loads. */
  readonly events: ProbeEvent[] = [];
  /** Every path (with query) the engine asked for. */
  readonly requests: string[] = [];
  private readonly rules: Rule[] = [];
  private scripts = true;
  private probe: ProbeOptions = { stubIntersectionObserver: true, timers: [] };

  private constructor(
    private readonly server: Server,
    private readonly target: URL,
  ) {
    const { port } = server.address() as AddressInfo;
    this.origin = `http://127.0.0.1:${port}`;
  }

  static async start(target: string): Promise<JourneyProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new JourneyProxy(server, new URL(target));
    server.on('request', (request, response) => proxy.handle(request, response));
    return proxy;
  }

  /** From now on, requests whose path and query match `match` get `answer` instead of the server's. */
  answer(match: RegExp, answer: Answer): { readonly hits: () => number } {
    const rule: Rule = { match, answer, hits: 0 };
    this.rules.unshift(rule);
    return { hits: () => rule.hits };
  }

  /** Switches of the probe for the documents loaded from now on. */
  setProbe(options: Partial<ProbeOptions>): void {
    this.probe = { ...this.probe, ...options };
  }

  /**
   * With `false`, HTML documents reach the engine without the app's scripts (as a browser with JavaScript off
   * would ignore them, showing `<noscript>` content instead); the probe stays, to count loads and see CSP violations.
   */
  setScripts(enabled: boolean): void {
    this.scripts = enabled;
  }

  /** How many documents the engine has loaded (each runs the probe once). */
  documentLoads(): number {
    return this.events.filter((event) => event.type === 'load').length;
  }

  /** The probe's reports of what must never happen: uncaught errors, rejections, CSP violations. */
  problems(): string[] {
    return this.events.flatMap((event) =>
      event.type === 'load' ? [] : [`${event.type} on ${event.path}: ${event.detail}`],
    );
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: import('node:http').ServerResponse): void {
    const path = request.url ?? '/';
    if (path === EVENT_PATH && request.method === 'POST') {
      void readBody(request).then(
        (body) => {
          this.events.push(JSON.parse(body.toString('utf8')) as ProbeEvent);
          response.writeHead(204).end();
        },
        () => response.destroy(),
      );
      return;
    }
    if (path === PROBE_PATH) {
      response
        .writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' })
        .end(probeSource(this.probe, EVENT_PATH));
      return;
    }
    if (path === BLANK_PATH) {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>blank</title>');
      return;
    }
    if (path === AXE_PATH) {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(AXE_SOURCE);
      return;
    }
    this.requests.push(path);
    const rule = this.rules.find((candidate) => candidate.match.test(path));
    if (rule) {
      rule.hits += 1;
      if (rule.answer === 'fail') {
        request.socket.destroy();
        return;
      }
      const { status = 200, json, body, type } = rule.answer;
      const text = json !== undefined ? JSON.stringify(json) : (body ?? '');
      response
        .writeHead(status, {
          'content-type': type ?? (json !== undefined ? 'application/json' : 'text/plain'),
          'cache-control': 'no-store',
        })
        .end(text);
      return;
    }
    this.forward(request, response, path);
  }

  private forward(
    request: IncomingMessage,
    response: import('node:http').ServerResponse,
    path: string,
  ): void {
    const upstream = httpRequest(
      {
        host: this.target.hostname,
        port: this.target.port,
        method: request.method,
        path,
        // The Host header stays the proxy's: the server's same-origin check compares Origin with it. No
        // compression, so the proxy can add the probe to HTML.
        headers: { ...request.headers, 'accept-encoding': 'identity' },
      },
      (answer) => {
        const type = String(answer.headers['content-type'] ?? '');
        if (!type.includes('text/html')) {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          return;
        }
        void readBody(answer).then(
          (body) => {
            let html = body.toString('utf8');
            if (!this.scripts)
              html = html
                .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
                .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, '')
                // What such a browser shows instead.
                .replace(/<\/?noscript>/gi, '');
            html = html.replace(
              /<head(\s[^>]*)?>/i,
              (head) => `${head}<script src="${PROBE_PATH}"></script>`,
            );
            const headers = { ...answer.headers };
            delete headers['content-length'];
            delete headers.etag;
            response.writeHead(answer.statusCode ?? 502, headers).end(html);
          },
          () => response.destroy(),
        );
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  }
}

function readBody(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}
