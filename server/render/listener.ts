/**
 * One instance's ear on the database: the notifications the triggers of migration 0009 send on every write to a
 * table the pages read. On PostgreSQL, a dedicated connection (outside the pool) that runs `LISTEN page_changes`;
 * on PGlite, its own `listen` (the embedded database serves one process, so nothing can be missed).
 *
 * A lost connection (the server restarted, the backend terminated, the network cut) is reconnected with
 * exponential backoff and jitter. Notifications sent meanwhile are lost for good, so while it is down the
 * cache is not to be trusted (`onState(false)`: pages are rendered afresh), and once it listens again the
 * whole cache is dropped (`onState(true)` after a loss).
 */
import pg from 'pg';
import { PAGE_CHANNEL } from '../../api/database/migrations/0009_page_notifications.ts';
import type { NotificationSource } from '../../api/database/open.ts';

export interface Backoff {
  /** The first wait after a loss. */
  initialMs: number;
  /** The longest wait between attempts. */
  maxMs: number;
}

export const BACKOFF: Backoff = { initialMs: 100, maxMs: 5_000 };

/** The listening connection's `application_name`, followed by the process id. */
export const LISTENER_NAME = 'campaign-web pages';

export interface ListenerOptions {
  source: NotificationSource;
  /** A notification's payload. */
  onMessage: (payload: string) => void;
  /** True once listening (again); false when the connection is lost. */
  onState: (listening: boolean, reconnected: boolean) => void;
  log: { warn: (message: string) => void; info: (message: string) => void };
  backoff?: Backoff;
  channel?: string;
}

export interface ListenerStatus {
  listening: boolean;
  /** Why it is not, when it is not. */
  reason: string | null;
  /** Connections made after a loss. */
  reconnects: number;
}

export interface PageListener {
  status(): ListenerStatus;
  close(): Promise<void>;
}

/** The wait before attempt `attempt` (0-based): doubling from `initialMs` to `maxMs`, with up to 50 % jitter. */
export function backoffDelay(attempt: number, { initialMs, maxMs }: Backoff, random = Math.random): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function startPageListener(options: ListenerOptions): Promise<PageListener> {
  const channel = options.channel ?? PAGE_CHANNEL;
  const state: ListenerStatus = { listening: false, reason: 'not connected yet', reconnects: 0 };
  if (options.source.kind === 'pglite') {
    const unlisten = await options.source.client.listen(channel, options.onMessage);
    state.listening = true;
    state.reason = null;
    options.onState(true, false);
    return { status: () => ({ ...state }), close: () => unlisten() };
  }

  const { url } = options.source;
  const backoff = options.backoff ?? BACKOFF;
  let client: pg.Client | undefined;
  let closed = false;
  let attempt = 0;
  let everListened = false;
  let timer: NodeJS.Timeout | undefined;

  const lost = (which: pg.Client, error: unknown) => {
    if (which !== client || closed) return;
    client = undefined;
    which.removeAllListeners('notification');
    which.end().catch(() => undefined);
    if (state.listening) options.log.warn(`[pages] lost the notification connection: ${messageOf(error)}`);
    state.listening = false;
    state.reason = `notification connection lost: ${messageOf(error)}`;
    options.onState(false, false);
    schedule();
  };

  const schedule = () => {
    if (closed || timer) return;
    const wait = backoffDelay(attempt, backoff);
    attempt += 1;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, wait);
    timer.unref();
  };

  const connect = async () => {
    // Named with the process, so an operator (or a test) can tell each instance's connection in pg_stat_activity.
    const next = new pg.Client({
      connectionString: url,
      keepAlive: true,
      application_name: `${LISTENER_NAME} ${process.pid}`,
    });
    client = next;
    next.on('error', (error) => lost(next, error));
    next.on('end', () => lost(next, new Error('the connection ended')));
    next.on('notification', (message) => {
      if (message.channel === channel) options.onMessage(message.payload ?? '');
    });
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      lost(next, error);
      return;
    }
    if (closed || client !== next) return;
    const reconnected = everListened;
    everListened = true;
    attempt = 0;
    if (reconnected) state.reconnects += 1;
    state.listening = true;
    state.reason = null;
    if (reconnected) options.log.info('[pages] listening again; the page cache was dropped');
    options.onState(true, reconnected);
  };

  await connect();
  return {
    status: () => ({ ...state }),
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}
