// @vitest-environment node
/**
 * The small functions the report trust boundary rests on: which characters are refused and how they are shown
 * (core/untrustedText.ts), nesting measured on JSON text and unstorable text found in a parsed body
 * (api/jsonBody.ts), what of an error a log keeps (api/logSafe.ts), and the client address limits count.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { limitKey } from '../../api/clientAddress';
import { findUnstorableText, jsonDepthExceeds } from '../../api/jsonBody';
import { loggable, loggableError, loggablePath } from '../../api/logSafe';
import { reportBodySchema } from '../../api/reports';
import { bearerToken, sameSecret } from '../../api/secrets';
import {
  BUILD_ID_PATTERN,
  hasUnsafeText,
  newBuildId,
  SAFE_TEXT_PATTERN,
  sendableText,
  visibleText,
} from '../../core/untrustedText';
import { buildReport } from '../../src/platform/reporter';
import { scrubEvent } from '../../src/platform/reportScrub';

const REFUSED = [
  '\u0000',
  '\u0007',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\ud800',
  '\udfff',
  '\u2028',
  '\u2029',
  '\u061c',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
];
const KEPT = ['a', ' ', 'é', '中', '😀', '\u200b', '\u00a0', '—', '\\', '"', '`', '${', '*/'];

describe('untrusted text', () => {
  it('refuses each control, separator, bidi control and half a surrogate pair, and nothing else', () => {
    const pattern = new RegExp(SAFE_TEXT_PATTERN, 'u');
    for (const char of REFUSED) {
      expect(hasUnsafeText(`x${char}y`), JSON.stringify(char)).toBe(true);
      expect(pattern.test(`x${char}y`), JSON.stringify(char)).toBe(false);
    }
    for (const char of KEPT) {
      expect(hasUnsafeText(`x${char}y`), JSON.stringify(char)).toBe(false);
      expect(pattern.test(`x${char}y`), JSON.stringify(char)).toBe(true);
    }
    // Asked twice in a row: a global RegExp's lastIndex must not carry over.
    expect(hasUnsafeText('\u001b')).toBe(true);
    expect(hasUnsafeText('\u001b')).toBe(true);
  });

  it('makes text sendable: whitespace controls become spaces, the rest U+FFFD', () => {
    expect(sendableText('a\tb\nc\rd')).toBe('a b c d');
    expect(sendableText('a\u001b[2Kb\u202ec\ud800d\u2028e')).toBe('a\ufffd[2Kb\ufffdc\ufffdd e');
    expect(sendableText('plain 😀 text')).toBe('plain 😀 text');
    for (const char of REFUSED) expect(hasUnsafeText(sendableText(`x${char}y`))).toBe(false);
  });

  it('shows each refused character as a visible escape, and leaves the rest', () => {
    expect(visibleText('\u001b[2K\u001b[1AAll good')).toBe('\\x1b[2K\\x1b[1AAll good');
    expect(visibleText('a\nb\u009bc\u202ed\ud800e\u2028')).toBe('a\\x0ab\\x9bc\\u202ed\\ud800e\\u2028');
    expect(visibleText('é 😀 "quoted"')).toBe('é 😀 "quoted"');
  });

  it('knows a build id the build makes', () => {
    const pattern = new RegExp(BUILD_ID_PATTERN);
    expect(newBuildId(Date.UTC(2026, 10, 27), '0a1b2c3d')).toMatch(pattern);
    expect(newBuildId(Date.UTC(2200, 0, 1), 'ffffffff')).toMatch(pattern);
    expect('dev').toMatch(pattern);
    for (const id of ['build-1', 'DEV', 'abc-0A1B2C3D', 'abc-0a1b2c3', 'abc_0a1b2c3d', ' abc-0a1b2c3d'])
      expect(id).not.toMatch(pattern);
  });
});

describe('JSON nesting, on the text', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(jsonDepthExceeds('{"a":[1,{"b":2}]}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":[1,{"b":2}]}', 2)).toBe(true);
    expect(jsonDepthExceeds('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(jsonDepthExceeds('{"a":"\\"[[[[","b":1}', 1)).toBe(false);
    expect(jsonDepthExceeds('{"a":"\\\\","b":[[1]]}', 2)).toBe(true);
    expect(jsonDepthExceeds(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 16)).toBe(true);
    expect(jsonDepthExceeds('[][][][]', 1)).toBe(false);
  });

  it('finds text PostgreSQL cannot store, in values and keys, with its path', () => {
    expect(findUnstorableText({ a: ['ok', { b: 'x\u0000' }] })).toBe('a.1.b');
    expect(findUnstorableText({ a: { ['k\udc00']: 1 } })).toBe('a.k\udc00');
    expect(findUnstorableText(['\ud83d'])).toBe('0');
    expect(findUnstorableText({ a: '😀', b: ['\u001b', 1, null, true] })).toBeUndefined();
  });
});

describe('what a log keeps of an error', () => {
  it('keeps the kind, the bounded message, the code and the frames; never a query or its parameters', () => {
    const error = Object.assign(new Error(`relation "reports" does not exist ${'x'.repeat(500)}`), {
      code: '42P01',
      query: 'insert into reports values ($1)',
      params: ['{"secret":"report text"}'],
      detail: 'Key (email)=(demo@example.com)',
      where: 'JSON data, line 1: {"secret"',
    });
    const kept = loggableError(error);
    expect(Object.keys(kept).sort()).toEqual(['code', 'message', 'stack', 'type']);
    expect(kept.type).toBe('Error');
    expect(kept.code).toBe('42P01');
    expect(kept.message.length).toBeLessThanOrEqual(301);
    expect(kept.stack).toMatch(/^\s+at /);
    const text = JSON.stringify(loggable(error)) + String(loggable(error).stack);
    for (const secret of ['insert into', 'report text', 'demo@example.com', 'JSON data']) {
      expect(text).not.toContain(secret);
    }
    expect(loggableError('a string\u001b')).toEqual({ type: 'string', message: 'a string\\x1b' });
    expect(loggableError(null)).toEqual({ type: 'null', message: '' });
  });

  it('logs a path without its query, bounded and with escapes visible', () => {
    expect(loggablePath('/api/reports?token=secret')).toBe('/api/reports');
    expect(loggablePath(`/${'a'.repeat(300)}`)).toHaveLength(201);
    expect(loggablePath('/x\u001b[2K')).toBe('/x\\x1b[2K');
    expect(loggablePath(undefined)).toBe('');
  });
});

describe('operator secrets', () => {
  it('compares whole secrets of any length, and reads a bearer token only after the scheme', () => {
    const secret = 's'.repeat(32);
    expect(sameSecret(secret, secret)).toBe(true);
    expect(sameSecret(`${secret}s`, secret)).toBe(false);
    expect(sameSecret(secret.slice(1), secret)).toBe(false);
    expect(sameSecret('', secret)).toBe(false);
    expect(bearerToken(`Bearer ${secret}`)).toBe(secret);
    expect(bearerToken(`bearer   ${secret} `)).toBe(secret);
    expect(bearerToken(`${secret} Bearer`)).toBe('');
    expect(bearerToken('Bearer a b')).toBe('');
    expect(bearerToken(undefined)).toBe('');
  });
});

describe('the client address limits count', () => {
  it('is an IPv4 address as it is, an IPv6 client by its /64, a mapped IPv4 as IPv4', () => {
    expect(limitKey('192.0.2.7')).toBe('192.0.2.7');
    expect(limitKey('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(limitKey('2001:0db8:0001:0002:ffff:0:0:1')).toBe('2001:db8:1:2::/64');
    expect(limitKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limitKey('::1')).toBe('0:0:0:0::/64');
    expect(limitKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(limitKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(limitKey('64:ff9b::192.0.2.7')).toBe('64:ff9b:0:0::/64');
  });
});

describe('the browser never sends what the API refuses', () => {
  it('a report built from hostile text passes the API’s own schema', () => {
    const hostile = REFUSED.join('x');
    const validate = new Ajv({ allowUnionTypes: true, strict: false }).compile(reportBodySchema);
    const report = buildReport(
      { kind: 'view', error: { statusCode: 500, statusMessage: hostile, message: hostile } },
      {
        snapshot: undefined,
        boot: { path: `/${hostile}?q=${hostile}` },
        dropped: 0,
        events: [
          { type: 'nav.go', to: `/${hostile}` },
          { type: 'xstate.error.actor.loadPage', error: { message: hostile, name: hostile, kind: hostile } },
          { type: `xstate.after.${hostile}` },
        ],
      } as never,
      {
        buildId: newBuildId(Date.now(), '0a1b2c3d'),
        path: `/${hostile}#${hostile}`,
        now: Date.now(),
        maxBytes: 16_000,
      },
    );
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(findUnstorableText(report)).toBeUndefined();
    expect(hasUnsafeText(JSON.stringify(scrubEvent({ type: 'nav.go', to: hostile })))).toBe(false);
  });
});
