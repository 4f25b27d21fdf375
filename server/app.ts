/**
 * The production server: one Fastify instance that serves the build in `dist/` (precompressed, cached by kind
 * of file), the demo API, the icon endpoint and the image optimiser, with the security headers of
 * server/securityHeaders.ts on every response. server/main.ts starts it; tests build it and use `inject`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import fastifyUnderPressure from '@fastify/under-pressure';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Accounts } from '../api/accounts.ts';
import { type ApiConfig, readApiConfig } from '../api/config.ts';
import type { OpenDatabase } from '../api/database/open.ts';
import { fastifyTrustProxy, type TrustProxy } from '../api/environment.ts';
import { shellForSignedIn } from '../api/forms.ts';
import { type ApiLog, loggableError, loggablePath } from '../api/logSafe.ts';
import { FORM_TEMPLATE_DIR } from '../core/formState.ts';
import { routeRules, rulesFor } from '../core/routeRules.ts';
import { parseLocation } from '../core/routes.ts';
import { visibleText } from '../core/untrustedText.ts';
import { demoApiAdapter } from './demoApiAdapter.ts';
import { isFileLikePath } from './fileLikePaths.ts';
import { handleIconRequest, ICON_ENDPOINT } from './icons.ts';
import { createImageServer, IMAGE_CACHE_DEFAULTS, IMAGE_ENDPOINT, renderSlots } from './images.ts';
import { hashesOfBuild } from './inlineHashes.ts';
import {
  installMetrics,
  isMetricsOn,
  type MetricsConfig,
  type MetricsSources,
  serveMetrics,
} from './metrics.ts';
import { installRateLimits, RATE_LIMIT_DEFAULTS, type RateLimits } from './rateLimit.ts';
import { REQUEST_ID_HEADER, requestIdOf } from './requestId.ts';
import { CACHE, cacheControlFor, type HeaderOptions, securityHeaders } from './securityHeaders.ts';

/** The largest request body any route takes (the demo API's own limit is the same). */
export const BODY_LIMIT_BYTES = 64 * 1024;

// Fastify's type wants a stack on every serialized error; an error without frames gets an empty one.
const SERIALIZERS = { err: (error: unknown) => ({ stack: '', ...loggableError(error) }) };

/** How long a refused request's connection stays open to drain what the client still sends. */
const LINGERING_CLOSE_MS = 2_000;

/** What the API, icon and image modules log through. */
type Logger = Pick<Console, 'warn' | 'error'> & Pick<ApiLog, 'security'>;

export interface ServerOptions {
  /** The build to serve (absolute). */
  distDir: string;
  /** The demo API's data folder. */
  dataDir: string;
  /** Source images of the optimiser. */
  imagesDir: string;
  /** Where rendered image variants are kept. */
  imageCacheDir: string;
  maxRendersInFlight?: number;
  headers: HeaderOptions;
  /** Pino options, or false in tests. */
  logger?: boolean | Record<string, unknown>;
  /** A request not answered by then is ended with 408 (node's requestTimeout). */
  requestTimeoutMs?: number;
  /**
   * The proxies in front whose X-Forwarded-For to believe (TRUST_PROXY: a hop count or their addresses), so
   * limits and logs see the client's address; false: the socket's.
   */
  trustProxy?: TrustProxy;
  /**
   * Where the site lives (PUBLIC_ORIGIN): a request whose Host names another site gets 421 on every route but
   * /healthz (a DNS-rebinding page, a misrouted request). Null: any Host, as on localhost.
   */
  publicOrigin?: string | null;
  /** The demo API's configuration; by default read from the environment with DATA_DIR = dataDir. */
  api?: ApiConfig;
  /** Prometheus metrics (server/metrics.ts); off when omitted. */
  metrics?: MetricsConfig;
  /** The demo API's database, already open (tests); by default the API's configuration names it. */
  database?: OpenDatabase;
  /** Load shedding (MAX_EVENT_LOOP_DELAY_MS); off when omitted or 0. */
  loadShedding?: LoadShedding;
  /** Per-address limits on /api/* and on new image variants (server/rateLimit.ts); the defaults when omitted. */
  rateLimits?: RateLimits;
}

export interface LoadShedding {
  /** Requests get 503 + Retry-After while the event loop's mean lag over a sample is past this. */
  maxEventLoopDelayMs: number;
  /** How often the lag is sampled (under-pressure's default, 1 s, unless a test wants it sooner). */
  sampleIntervalMs?: number;
}

/** What a shed request is told to wait: about the time a lagging loop takes to catch up. */
export const SHED_RETRY_AFTER_SECONDS = 5;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * SIGTERM's first step (server/start.ts): /healthz answers 503 so a proxy or orchestrator stops sending
     * here, while requests are still served until close().
     */
    startDraining(): void;
  }
}

/** Static hosts' files (build/crawlerFiles.ts, `_headers`): this server has its own rules. */
const HOST_FILES = new Set(['_headers', '_redirects', '404.html']);

/** Files of the build that are never served: source maps, dotfiles (Vite's `.vite/` manifest), host config. */
function isPrivate(relative: string): boolean {
  return (
    relative.endsWith('.map') ||
    HOST_FILES.has(relative) ||
    relative.split('/').some((segment) => segment.startsWith('.'))
  );
}

/** Every servable file of the build, relative and `/`-separated: requests resolve only against this set. */
async function filesOf(dir: string): Promise<Set<string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  const all = new Set(files);
  // The .br/.gz siblings are chosen by Accept-Encoding, never asked for by name.
  const isVariant = (file: string) => /\.(br|gz)$/.test(file) && all.has(file.replace(/\.(br|gz)$/, ''));
  return new Set(files.filter((file) => !isPrivate(file) && !isVariant(file)));
}

export class BadPathError extends Error {}

/** A Host header as URL would write its host (lower case, no default port), or null when it is not one. */
function hostOf(header: string | undefined): string | null {
  if (!header) return null;
  try {
    return new URL(`http://${header}`).host;
  } catch {
    return null;
  }
}

/**
 * The request path as decoded segments. Throws BadPathError for any traversal attempt: `.` or `..` segments
 * (also percent-encoded), encoded `/` or `\`, NUL and other control characters. Returns undefined when the
 * path is not valid percent-encoding at all.
 */
export function pathSegments(rawPath: string): string[] | undefined {
  const parts = rawPath.split('/').slice(1);
  const segments: string[] = [];
  for (const part of parts) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return undefined;
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused.
    if (segment === '.' || segment === '..' || /[/\\\u0000-\u001f\u007f]/.test(segment))
      throw new BadPathError();
    segments.push(segment);
  }
  return segments;
}

function isDocumentRequest(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') || accept.includes('*/*');
}

async function readBuildId(distDir: string): Promise<string> {
  try {
    const latest = JSON.parse(await readFile(path.join(distDir, '_app/builds/latest.json'), 'utf8'));
    return typeof latest.id === 'string' ? latest.id : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The console-style logger the API, icon and image modules take, writing to the server's structured log: an
 * Error goes to `err` (which the logger's serializer cuts down), the rest is the message, bounded and escaped.
 */
function consoleLike(baseLog: FastifyBaseLogger): Logger {
  // Inside a request, its own logger, so the line carries the request's id.
  const current = () => requestLogs.getStore() ?? baseLog;
  const write =
    (level: 'warn' | 'error') =>
    (...args: unknown[]) => {
      const log = current();
      const err = args.find((arg) => arg instanceof Error);
      const msg = visibleText(
        args
          .filter((arg) => !(arg instanceof Error))
          .map(String)
          .join(' '),
      ).slice(0, 1_000);
      log[level](err ? { err } : {}, msg);
    };
  return {
    warn: write('warn'),
    error: write('error'),
    // One structured line per refused sign-in or origin: `security` holds the event, never an email.
    security: (event) => current().warn({ security: event }, 'security event'),
  };
}

/**
 * The logger of the request being handled, for modules that log through a console-like object without the
 * request in hand (the API, images, icons): what they log carries the request id like every other line.
 */
const requestLogs = new AsyncLocalStorage<FastifyBaseLogger>();

/** A path of the API, which answers JSON whatever happens. */
const API_PATH = /^\/api(\/|\?|$)/;

/** Whether the start of a raw request the parser refused asks for an API path (`GET /api/… HTTP/1.1`). */
export function isApiRequestLine(rawPacket: Buffer | undefined): boolean {
  const start = rawPacket?.toString('latin1', 0, 64) ?? '';
  return /^[A-Z]+ \/api([/?\s]|$)/.test(start);
}

function plain(reply: FastifyReply, status: number, message: string) {
  return reply
    .code(status)
    .header('cache-control', CACHE.never)
    .type('text/plain; charset=utf-8')
    .send(message);
}

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const distDir = path.resolve(options.distDir);
  const [files, hashes, buildId] = await Promise.all([
    filesOf(distDir),
    hashesOfBuild(distDir),
    readBuildId(distDir),
  ]);
  const security = securityHeaders(hashes, options.headers);
  const shell = files.has('200.html') ? '200.html' : 'index.html';
  // For the router's bad-URL handler, whose reply has no sendFile: the shell is small and never changes.
  const shellHtml = files.has(shell) ? await readFile(path.join(distDir, shell)) : Buffer.from('');

  const app = Fastify({
    // Every `err` a line carries is cut down to its kind, words and frames (api/logSafe.ts): a database error's
    // query and parameters (a report's text, a password hash) never reach the log.
    logger: options.logger
      ? { ...(options.logger === true ? {} : options.logger), serializers: SERIALIZERS }
      : false,
    // One line per request, written by the onResponse hook below, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // The proxy's x-request-id when it is a safe token, else our own (server/requestId.ts): every line a
    // request logs carries it as `reqId`, and the response echoes it.
    requestIdHeader: false,
    genReqId: requestIdOf,
    bodyLimit: BODY_LIMIT_BYTES,
    // Opening and migrating the API's embedded database can take longer than Fastify's default 10 s on a busy machine.
    pluginTimeout: 60_000,
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    // A slow client cannot hold a socket open for ever between requests, nor while sending headers.
    keepAliveTimeout: 5_000,
    connectionTimeout: 60_000,
    // While shutting down, idle keep-alive sockets are closed at once; new requests get our own 503 (below),
    // which goes through the hooks and so carries the security headers, unlike Fastify's built-in one.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Malformed requests, header overflow and request timeouts, answered by the HTTP parser before any route.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const [status, text] =
        error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout']
          : error.code === 'HPE_HEADER_OVERFLOW'
            ? [431, 'Request Header Fields Too Large']
            : [400, 'Bad Request'];
      const headers = Object.entries({ ...security, 'cache-control': CACHE.never })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      // An API client reads JSON whatever went wrong (a URL longer than the parser takes, say).
      const [type, body] = isApiRequestLine((error as { rawPacket?: Buffer }).rawPacket)
        ? ['application/json', JSON.stringify({ message: `${text}.` })]
        : ['text/plain; charset=utf-8', `${text}.`];
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status} ${text}\r\n${headers}content-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
      }
      // A lingering close, as nginx does: a client still sending (a header block past the limit) would meet a
      // reset and could lose the answer, so what it sends is read and dropped for a moment after our FIN.
      socket.end();
      socket.resume();
      setTimeout(() => socket.destroy(), LINGERING_CLOSE_MS).unref();
    },
    trustProxy: fastifyTrustProxy(options.trustProxy || false),
    routerOptions: { maxParamLength: 2048 },
    // A URL the router cannot decode: documents still get the app, which explains it; anything else a 400.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      reply.headers(security).header(REQUEST_ID_HEADER, request.id);
      const rawPath = request.raw.url ?? '';
      const isEndpoint = /^\/(api|_ipx|assets|_app)(\/|$)/.test(rawPath);
      if (API_PATH.test(rawPath)) {
        return reply
          .code(400)
          .header('cache-control', CACHE.never)
          .send({ message: 'Bad request: the URL cannot be decoded.' });
      }
      if (
        error.code === 'FST_ERR_BAD_URL' &&
        request.method === 'GET' &&
        !isEndpoint &&
        isDocumentRequest(request)
      ) {
        return reply
          .code(200)
          .header('cache-control', CACHE.revalidate)
          .type('text/html; charset=utf-8')
          .send(shellHtml);
      }
      return plain(reply, 400, 'Bad request.');
    },
  });

  // First of all hooks: what runs after it, to the end of the request, runs in the request's log context.
  app.addHook('onRequest', (request, _reply, done) => requestLogs.run(request.log, done));

  let closing = false;
  let draining = false;
  app.decorate('startDraining', () => {
    draining = true;
  });
  app.addHook('preClose', async () => {
    closing = true;
  });
  const publicHost = options.publicOrigin ? new URL(options.publicOrigin).host : null;
  if (publicHost !== null) {
    // The raw Host header, never X-Forwarded-Host: the proxy in front must pass the visitor's Host on.
    app.addHook('onRequest', async (request, reply) => {
      if (request.url === '/healthz' || hostOf(request.headers.host) === publicHost) return;
      return plain(reply, 421, `Misdirected request: this server answers for ${options.publicOrigin} only.`);
    });
  }
  app.addHook('onRequest', async (_request, reply) => {
    if (closing) {
      reply.header('connection', 'close').header('retry-after', '1');
      return plain(reply, 503, 'The server is shutting down; try again in a moment.');
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(security).header(REQUEST_ID_HEADER, request.id);
    // A request that was in flight when shutdown began: its connection ends with it, so close() need not
    // wait for the keep-alive timeout. While draining, a proxy's kept-alive connections are ended too, so it
    // opens new ones to the other instances.
    if (closing || draining) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    // Path only: a query string may carry tokens; headers (cookies) and bodies (passwords) are never logged.
    request.log.info(
      {
        method: request.method,
        path: loggablePath(request.raw.url),
        status: reply.statusCode,
        // The client's address as the trusted proxies say (TRUST_PROXY), the socket's otherwise.
        ip: request.ip,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  });
  app.addHook('onRequestAbort', async (request) => {
    request.log.info(
      { method: request.method, path: loggablePath(request.raw.url), ip: request.ip },
      'client hung up',
    );
  });

  // Before any route, so that its hooks see them all.
  const sources: MetricsSources = {};
  const metrics = options.metrics;
  if (metrics && isMetricsOn(metrics)) {
    const registry = installMetrics(app, metrics, sources);
    const { port } = metrics;
    if (port !== null) {
      let server: import('node:http').Server | undefined;
      app.addHook('onListen', async () => {
        server = await serveMetrics(registry, port, metrics.host ?? '127.0.0.1');
      });
      app.addHook('onClose', async () => {
        await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
      });
    }
  }

  // Load shedding: while the event loop lags (sign-ins' hashes and image renders run off it, so a lag means
  // more work than this process can take), a request is refused at once with 503 + Retry-After instead of
  // waiting in a queue that only grows; a proxy in front retries another instance. /healthz is never shed.
  const maxEventLoopDelay = options.loadShedding?.maxEventLoopDelayMs ?? 0;
  if (maxEventLoopDelay > 0) {
    const sampleInterval = options.loadShedding?.sampleIntervalMs ?? 1_000;
    let readyAt = Number.POSITIVE_INFINITY;
    app.addHook('onReady', async () => {
      readyAt = performance.now();
    });
    // The answer is returned, not sent: under-pressure sends a returned value and stops there, while after a
    // `reply.send` of our own it would go on to the route, which answers again (a 500 when the route has a
    // response schema and its answer was still on its way). Its types allow no return value; its README does.
    const shed = (request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) => {
      // The samples just after the start hold the start-up's own synchronous work (opening and seeding the
      // database: seconds), which is over: shedding on them would turn away the first requests after every
      // start.
      if (performance.now() - readyAt < 2 * sampleInterval) return undefined;
      request.log.warn({ pressure: type, value }, 'shedding load');
      reply
        .code(503)
        .header('retry-after', String(SHED_RETRY_AFTER_SECONDS))
        .header('cache-control', CACHE.never);
      const message = 'The server is busy; try again in a few seconds.';
      // Ready-made text, so no route's response schema (none has a 503) is involved.
      if (API_PATH.test(request.url)) {
        reply.type('application/json; charset=utf-8');
        return JSON.stringify({ message });
      }
      reply.type('text/plain; charset=utf-8');
      return message;
    };
    const shedRequest = shed as unknown as (
      request: FastifyRequest,
      reply: FastifyReply,
      type: string,
      value: number | undefined,
    ) => void;
    await app.register(fastifyUnderPressure, {
      maxEventLoopDelay,
      sampleInterval,
      pressureHandler: shedRequest,
    });
  }

  const limits = await installRateLimits(app, options.rateLimits ?? RATE_LIMIT_DEFAULTS);
  app.addHook('onRequest', async (request, reply) => {
    if (!API_PATH.test(request.url)) return;
    const verdict = await limits.api(request);
    reply.headers(verdict.headers);
    if (verdict.retryAfterSeconds !== null) {
      request.log.warn({ limit: 'api', ip: request.ip }, 'rate limited');
      return reply
        .code(429)
        .header('retry-after', String(verdict.retryAfterSeconds))
        .header('cache-control', CACHE.never)
        .type('application/json; charset=utf-8')
        .send(
          JSON.stringify({
            message: `Too many requests from this address; try again in ${verdict.retryAfterSeconds} s.`,
          }),
        );
    }
  });

  await app.register(fastifyCompress, {
    // Static files are compressed at build time (build/precompress.ts); this covers API JSON and the rest.
    threshold: 1024,
    encodings: ['br', 'gzip'],
  });
  await app.register(fastifyStatic, {
    root: distDir,
    serve: false,
    preCompressed: true,
    // Caching is set per kind of file (cacheControlFor); send's own default would override it.
    cacheControl: false,
    dotfiles: 'deny',
    index: false,
  });

  function sendBuildFile(reply: FastifyReply, relative: string) {
    reply.header('cache-control', cacheControlFor(relative));
    return reply.sendFile(relative);
  }
  function sendShell(reply: FastifyReply) {
    return sendBuildFile(reply, shell);
  }

  app.get(
    '/healthz',
    // Never shed: a lagging instance is busy, not broken, and an orchestrator must not restart it for that.
    { config: { pressureHandler: () => undefined } },
    async (_request, reply) => {
      reply.header('cache-control', CACHE.never);
      if (draining || closing) {
        return reply.code(503).header('retry-after', '1').send({ status: 'draining', buildId });
      }
      return { status: 'ok', buildId };
    },
  );

  // --- The demo API (api/plugin.ts) under /api, on the database its configuration names under dataDir. ---
  // Its form routes (POST /login, /logout, /profile) answer a failed sign-in with the prerendered /login
  // filled in, from the failure template the build writes beside it.
  const loginTemplateFile = path.join(distDir, FORM_TEMPLATE_DIR, 'login.html');
  let loginTemplate: Promise<string | undefined> | undefined;
  let accounts: Accounts | undefined;
  await app.register(demoApiAdapter, {
    onAccounts: (shared) => {
      accounts = shared;
    },
    config: options.api ?? readApiConfig({ ...process.env, DATA_DIR: options.dataDir }),
    log: consoleLike(app.log),
    loginTemplate: () => {
      loginTemplate ??= readFile(loginTemplateFile, 'utf8').catch(() => undefined);
      return loginTemplate;
    },
    onOpen: (database) => {
      sources.databasePool = database.pool;
    },
    ...(options.database ? { database: options.database } : {}),
  });

  const iconHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const response = await handleIconRequest(request.method, request.raw.url ?? request.url);
    reply.code(response.status).headers(response.headers);
    return reply.send(JSON.stringify(response.body));
  };
  app.all(ICON_ENDPOINT, iconHandler);
  app.all(`${ICON_ENDPOINT}/*`, iconHandler);

  const images = createImageServer({
    dir: options.imagesDir,
    cacheDir: options.imageCacheDir,
    maxRendersInFlight: options.maxRendersInFlight ?? renderSlots(),
    maxRendersQueued: IMAGE_CACHE_DEFAULTS.maxRendersQueued,
    log: consoleLike(app.log),
  });
  sources.imageRenders = images.renders;
  const imageHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    // Only a render counts against the address's limit: cached variants cost a file read.
    const response = await images(request.method, request.raw.url ?? request.url, async () => {
      const verdict = await limits.imageVariants(request);
      reply.headers(verdict.headers);
      if (verdict.retryAfterSeconds === null) return undefined;
      request.log.warn({ limit: 'image-variants', ip: request.ip }, 'rate limited');
      return {
        status: 429,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': CACHE.never,
          'retry-after': String(verdict.retryAfterSeconds),
        },
        body: Buffer.from(
          JSON.stringify({
            message: `Too many new image sizes from this address; try again in ${verdict.retryAfterSeconds} s.`,
          }),
        ),
      };
    });
    reply.code(response.status).headers(response.headers);
    return reply.send(response.body);
  };
  app.all(IMAGE_ENDPOINT, imageHandler);
  app.all(`${IMAGE_ENDPOINT}/*`, imageHandler);

  // --- The build: files, prerendered pages, the SPA shell. ---
  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: async (request, reply) => {
      const rawPath = (request.raw.url ?? '/').split('?')[0] ?? '/';
      let segments: string[] | undefined;
      try {
        segments = pathSegments(rawPath);
      } catch (error) {
        if (error instanceof BadPathError) return plain(reply, 400, 'Bad request: the path is not allowed.');
        throw error;
      }
      if (segments === undefined) {
        return isDocumentRequest(request)
          ? sendShell(reply)
          : plain(reply, 400, 'Bad request: undecodable path.');
      }
      const relative = segments.join('/');
      if (files.has(relative)) return sendBuildFile(reply, relative);
      // A prerendered page: `/campaign/1` (or `/campaign/1/`) is dist/campaign/1/index.html, with no redirect.
      const page =
        relative === '' || relative.endsWith('/') ? `${relative}index.html` : `${relative}/index.html`;
      if (files.has(page) && page !== shell) return sendBuildFile(reply, page);
      // Missing build files are real 404s: chunk-load recovery tells a new deploy from a broken network by it.
      // So is any path that names a file the app would never route (`/robots.txt`, `/favicon.ico`).
      if (
        relative.startsWith('assets/') ||
        relative.startsWith('_app/') ||
        isPrivate(relative) ||
        isFileLikePath(relative)
      ) {
        return plain(reply, 404, 'Not found.');
      }
      if (!isDocumentRequest(request)) return plain(reply, 404, 'Not found.');
      const location = parseLocation(request.raw.url ?? '/');
      const redirect = location ? rulesFor(location.pathname, routeRules).redirect : undefined;
      if (location && redirect && parseLocation(redirect)) {
        return reply.code(307).header('location', `${redirect}${location.search}`).send();
      }
      // A signed-in visitor without JavaScript still gets the profile and sign-out forms (api/forms.ts).
      const personal =
        accounts && (await shellForSignedIn(shellHtml.toString('utf8'), accounts, request.headers.cookie));
      if (personal) {
        return reply.header('cache-control', CACHE.never).type('text/html; charset=utf-8').send(personal);
      }
      return sendShell(reply);
    },
  });

  // Pages and files answer GET and HEAD only; any other method is a 405 that says so (a form posted before the
  // app ran lands here).
  app.setNotFoundHandler((request, reply) =>
    request.method === 'GET' || request.method === 'HEAD'
      ? plain(reply, 404, 'Not found.')
      : plain(reply.header('allow', 'GET, HEAD'), 405, 'Method not allowed.'),
  );
  app.setErrorHandler((error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return plain(
      reply,
      status >= 400 && status < 600 ? status : 500,
      status >= 500 ? 'Internal server error.' : error instanceof Error ? error.message : 'Bad request.',
    );
  });

  return app;
}
