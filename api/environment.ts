/**
 * One schema for every environment variable the API and the production server read: each variable's kind,
 * default, bounds and meaning in one table (API_ENVIRONMENT here, SERVER_ENVIRONMENT in server/environment.ts),
 * read by one function that refuses nonsense. A bad value stops the start with a message that names the
 * variable, what it got and what it accepts; every problem is listed, not only the first. An empty variable is
 * unset. `describeEnvironment` is the effective configuration, secrets masked (`npm run serve -- --check-config`).
 *
 * Hand-written rather than env-schema: env-schema coerces through Ajv, which takes `" 30"`, `"1e3"` and `"0x1F"`
 * as numbers and `"yes"` as no boolean at all; these readers take exactly what they document.
 */
import { statSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import path from 'node:path';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/** One variable: how its text is read, its value when unset, and what it means (for --check-config). */
export interface Variable<T> {
  readonly doc: string;
  readonly fallback: T;
  /** The value of a set variable, or a message saying what it accepts (without the variable's name). */
  read(raw: string, name: string): T;
  /** How describeEnvironment shows a value: a secret masked, a URL without its password. */
  show?(value: T): string;
}

export type Schema = Record<string, Variable<unknown>>;
export type Values<S extends Schema> = { [K in keyof S]: S[K] extends Variable<infer T> ? T : never };

/** A refusal in the usual words: `NAME="value" is not valid: expected <what>.` */
const invalid = (name: string, raw: string, expected: string) =>
  new ConfigError(`${name}=${JSON.stringify(raw)} is not valid: expected ${expected}.`);

export function whole(doc: string, fallback: number, bounds: { min?: number; max?: number } = {}) {
  const min = bounds.min ?? 1;
  const { max } = bounds;
  const expected =
    max === undefined ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
  return {
    doc,
    fallback,
    read(raw: string, name: string): number {
      const value = Number(raw);
      if (
        !/^\d+$/.test(raw) ||
        !Number.isSafeInteger(value) ||
        value < min ||
        (max !== undefined && value > max)
      )
        throw invalid(name, raw, expected);
      return value;
    },
  } satisfies Variable<number>;
}

export function flag<T extends boolean | null>(doc: string, fallback: T) {
  return {
    doc,
    fallback: fallback as boolean | T,
    read(raw: string, name: string): boolean {
      if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
      if (['0', 'false', 'no', 'off'].includes(raw)) return false;
      throw invalid(name, raw, '1 or 0');
    },
  } satisfies Variable<boolean | T>;
}

export function oneOf<const T extends string>(doc: string, values: readonly T[], fallback: T) {
  return {
    doc,
    fallback,
    read(raw: string, name: string): T {
      if ((values as readonly string[]).includes(raw)) return raw as T;
      throw invalid(name, raw, `one of ${values.join(', ')}`);
    },
  } satisfies Variable<T>;
}

/** One label of a host name (RFC 1123): 1 to 63 letters, digits and inner hyphens. */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** A host name: dot-separated labels, 253 characters at most, with an FQDN's final dot or without. */
const HOST_NAME = new RegExp(`^(?=.{1,253}\\.?$)${LABEL}(?:\\.${LABEL})*\\.?$`);

/**
 * An interface to listen on: an IP address (`0.0.0.0`, `::`) or a host name. Anything else is refused here, naming
 * the variable, rather than failing at `listen` with a resolver's error that names none.
 */
export function host(doc: string, fallback: string) {
  return {
    doc,
    fallback,
    read(raw: string, name: string): string {
      // A top-level label is never all digits (RFC 3696): `10.0.0.300` is a mistyped address, not a name.
      const topLabel = raw.replace(/\.$/, '').split('.').at(-1) ?? '';
      if (isIP(raw) !== 0 || (HOST_NAME.test(raw) && !/^\d+$/.test(topLabel))) return raw;
      throw invalid(name, raw, 'an IP address (such as 0.0.0.0 or ::) or a host name (such as localhost)');
    },
  } satisfies Variable<string>;
}

/**
 * Where the browser calls the API: a path on this site (`/api`) or an http(s) URL. A value that is neither
 * (`api`, `//host/api`, `::`) is refused here: the CSP would otherwise drop it without a word, and the
 * app's calls would be refused.
 */
export function apiAddress(doc: string) {
  return {
    doc,
    fallback: null as string | null,
    read(raw: string, name: string): string {
      const expected =
        'a path on this site (such as /api) or an http(s) URL (such as https://api.example/api)';
      if (/\s/.test(raw)) throw invalid(name, raw, expected);
      if (raw.startsWith('/') && !raw.startsWith('//')) return raw;
      let parsed: URL | undefined;
      try {
        parsed = new URL(raw);
      } catch {
        parsed = undefined;
      }
      if (parsed && (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.host !== '')
        return raw;
      throw invalid(name, raw, expected);
    },
  } satisfies Variable<string | null>;
}

/** What is at `at`: a folder, a file (anything else that is not a folder), or nothing. */
function kindOf(at: string): 'folder' | 'file' | 'nothing' {
  const info = statSync(at, { throwIfNoEntry: false });
  if (info === undefined) return 'nothing';
  return info.isDirectory() ? 'folder' : 'file';
}

/**
 * A folder the server writes into (DATA_DIR, IMAGE_CACHE_DIR): made when missing, so absent is fine, but a file
 * there, or a path with control characters in it, stops the start now rather than at the first write.
 */
export function folder<T extends string | null>(doc: string, fallback: T) {
  return {
    doc,
    fallback: fallback as string | T,
    read(raw: string, name: string): string {
      refuseControlCharacters(raw, name);
      if (kindOf(raw) === 'file')
        throw invalid(name, raw, 'a folder (made when missing), and that is a file');
      return raw;
    },
  } satisfies Variable<string | T>;
}

/** A build to serve (DIST_DIR): a folder that already holds `index.html`. */
export function buildFolder(doc: string) {
  return {
    doc,
    fallback: null as string | null,
    read(raw: string, name: string): string {
      refuseControlCharacters(raw, name);
      if (kindOf(raw) !== 'folder' || kindOf(path.join(raw, 'index.html')) !== 'file')
        throw invalid(name, raw, 'a build folder with index.html in it (`npm run build` writes one)');
      return raw;
    },
  } satisfies Variable<string | null>;
}

function refuseControlCharacters(raw: string, name: string): void {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for.
  if (/[\u0000-\u001f\u007f]/.test(raw)) throw invalid(name, raw, 'a path without control characters');
}

/** NIST SP 800-63B asks for 112 bits for a secret an attacker may guess offline; 32 characters of any token. */
export const MIN_SECRET_LENGTH = 32;

/** An operator's token: absent, or at least MIN_SECRET_LENGTH characters. */
export function secret(doc: string) {
  return {
    doc,
    fallback: null as string | null,
    show: () => '******** (set)',
    read(raw: string, name: string): string {
      // A token is compared exactly: a blank copied in with it would make the one the client sends never match.
      if (raw.trim() !== raw)
        throw new ConfigError(`${name} has blank space around it: remove it (a token is compared exactly).`);
      if (raw.length < MIN_SECRET_LENGTH)
        throw new ConfigError(
          `${name} is too short: ${raw.length} characters, at least ${MIN_SECRET_LENGTH} are needed ` +
            '(`openssl rand -base64 32` makes one).',
        );
      return raw;
    },
  } satisfies Variable<string | null>;
}

/** Where the site lives: one http(s) origin, `https://campaigns.example`, without a path. */
export function origin(doc: string) {
  return {
    doc,
    fallback: null as string | null,
    read(raw: string, name: string): string {
      let parsed: URL;
      try {
        parsed = new URL(raw);
      } catch {
        throw new ConfigError(`${name} ${JSON.stringify(raw)} is not a URL such as https://example.org.`);
      }
      if (raw.includes(','))
        throw new ConfigError(`${name} ${JSON.stringify(raw)} must be one origin: where the site lives.`);
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
        throw new ConfigError(`${name} ${JSON.stringify(raw)} must start with https:// (or http://).`);
      if (parsed.origin !== raw.replace(/\/$/, ''))
        throw new ConfigError(
          `${name} ${JSON.stringify(raw)} must be an origin only, such as ${parsed.origin}.`,
        );
      return parsed.origin;
    },
  } satisfies Variable<string | null>;
}

export function postgresUrl(doc: string) {
  return {
    doc,
    fallback: null as string | null,
    show: (value: string | null) => (value === null ? '(unset)' : withoutPassword(value)),
    read(raw: string, name: string): string {
      let protocol: string;
      try {
        protocol = new URL(raw).protocol;
      } catch {
        throw new ConfigError(`${name} is not a URL: expected postgres://user:password@host:port/database.`);
      }
      if (protocol !== 'postgres:' && protocol !== 'postgresql:')
        throw new ConfigError(`${name} must start with postgres:// or postgresql://, not ${protocol}//.`);
      return raw;
    },
  } satisfies Variable<string | null>;
}

/** A URL with its password replaced, safe to print. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '********';
    return parsed.toString();
  } catch {
    return '(an unparseable URL)';
  }
}

/**
 * Which proxies' X-Forwarded-For to believe, as Fastify's `trustProxy` takes it: a hop count (`1`: one reverse
 * proxy in front, whose address it appended is the client's) or a list of the proxies' addresses and CIDR
 * ranges. `false` (unset or 0): the socket's address. Believing every hop (`true`) is refused: the left-most
 * address is written by the client, so anyone could pick their own.
 */
export type TrustProxy = false | number | string[];

/**
 * The setting as Fastify takes it: a hop count becomes the function Fastify would build for a number (its
 * types list no number), trusting the `hops` nearest addresses of the chain.
 */
export function fastifyTrustProxy(
  setting: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (setting === false) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}

/**
 * Whether the peer at `address` (the socket's) is a proxy the setting trusts, as Fastify judges the chain's first
 * hop: any peer for a hop count, a listed address or range for a list, none when off. What such a peer says
 * about the request (its X-Forwarded-For, its x-request-id) is the proxy's word, not the client's.
 */
export function trustsPeer(setting: TrustProxy): (address: string | undefined) => boolean {
  if (setting === false) return () => false;
  if (typeof setting === 'number') return () => true;
  const trusted = new BlockList();
  for (const entry of setting) {
    const [address = '', bits] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) trusted.addAddress(address, type);
    else trusted.addSubnet(address, Number(bits), type);
  }
  // An IPv4 peer on a dual-stack socket is written ::ffff:a.b.c.d; BlockList matches it against IPv4 rules.
  return (address) => {
    const family = address === undefined ? 0 : isIP(address);
    return family !== 0 && trusted.check(address as string, family === 6 ? 'ipv6' : 'ipv4');
  };
}

export function trustProxy(doc: string) {
  return {
    doc,
    fallback: false as TrustProxy,
    read(raw: string, name: string): TrustProxy {
      if (['true', 'yes', 'all', 'on', '*'].includes(raw.toLowerCase()))
        throw new ConfigError(
          `${name}=${JSON.stringify(raw)} would believe X-Forwarded-For from anyone, and the client writes its ` +
            'left-most address: give the number of proxies in front of the server (1 for one reverse proxy) ' +
            'or their addresses (10.0.0.2,10.1.0.0/16).',
        );
      if (/^\d+$/.test(raw) && Number(raw) <= 16) return Number(raw) === 0 ? false : Number(raw);
      const entries = raw.split(',').map((entry) => entry.trim());
      const isAddress = (entry: string) => {
        const [address = '', bits, ...rest] = entry.split('/');
        const family = isIP(address);
        if (family === 0 || rest.length > 0) return false;
        if (bits === undefined) return true;
        return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
      };
      if (entries.length === 0 || !entries.every(isAddress))
        throw invalid(
          name,
          raw,
          'a number of proxies (1 to 16) or their addresses and CIDR ranges, comma-separated',
        );
      return entries;
    },
  } satisfies Variable<TrustProxy>;
}

/** A variable that is no longer read: setting it stops the start with what to do instead. */
export function removed(instead: string) {
  return {
    doc: `no longer read: ${instead}`,
    fallback: undefined,
    read(_raw: string, name: string): never {
      throw new ConfigError(`${name} is no longer read: ${instead}.`);
    },
  } satisfies Variable<undefined>;
}

/**
 * Reads every variable of `schema` from `env` (empty or only blank: unset; a value is taken as written, never
 * trimmed, so ` 30` is refused rather than guessed at); throws one ConfigError listing every problem.
 */
export function readEnvironment<S extends Schema>(schema: S, env: Env): Values<S> {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, variable] of Object.entries(schema)) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') {
      values[name] = variable.fallback;
      continue;
    }
    try {
      values[name] = variable.read(raw, name);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return values as Values<S>;
}

/** The effective configuration, one row per variable, secrets masked: what --check-config prints. */
export function describeEnvironment(
  schema: Schema,
  env: Env,
): { name: string; value: string; doc: string }[] {
  const values = readEnvironment(schema, env);
  return Object.entries(schema)
    .filter(([, variable]) => !variable.doc.startsWith('no longer read'))
    .map(([name, variable]) => {
      const value = values[name];
      const set = env[name] !== undefined && env[name] !== '';
      const shown =
        value === null || value === undefined
          ? '(unset)'
          : variable.show
            ? variable.show(value)
            : Array.isArray(value)
              ? value.join(',')
              : String(value);
      return { name, value: `${shown}${set ? '' : value === null ? '' : ' (default)'}`, doc: variable.doc };
    });
}
