/**
 * Where the site lives (PUBLIC_ORIGIN): a request whose Host names another site gets 421 on every route but
 * /healthz (a DNS-rebinding page, a misrouted request).
 */
import type { FastifyPluginAsync } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { plain } from '../http.ts';

/** A Host header as URL would write its host (lower case, no default port), or null when it is not one. */
function hostOf(header: string | undefined): string | null {
  if (!header) return null;
  try {
    return new URL(`http://${header}`).host;
  } catch {
    return null;
  }
}

/** `publicOrigin` null: any Host, as on localhost. */
const checkHost: FastifyPluginAsync<{ publicOrigin: string | null }> = async (app, { publicOrigin }) => {
  const publicHost = publicOrigin ? new URL(publicOrigin).host : null;
  if (publicHost === null) return;
  // The raw Host header, never X-Forwarded-Host: the proxy in front must pass the visitor's Host on.
  app.addHook('onRequest', async (request, reply) => {
    if (request.url === '/healthz' || hostOf(request.headers.host) === publicHost) return;
    return plain(reply, 421, `Misdirected request: this server answers for ${publicOrigin} only.`);
  });
};

export const publicHostPlugin = fastifyPlugin(checkHost, { name: 'public-host' });
