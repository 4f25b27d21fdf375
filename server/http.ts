import type { IncomingMessage, ServerResponse } from 'node:http';

/** Connect-style middleware, as accepted by `server.middlewares.use`. */
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

export type Logger = Pick<Console, 'warn' | 'error'>;
