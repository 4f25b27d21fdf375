// @vitest-environment node
// The API's error answers as a function (api/errors.ts `describeError`): every Fastify error it knows by its code
// alone, the JSON parser's plain SyntaxError, and the messages of a schema error whatever part of the request it
// is in. The same answers through HTTP are in tests/api/input.test.ts; these pin the function itself,
// including what Fastify does not send today (a code without its status), so that a change to it shows here.
// Also the sign-in's decoy check (api/passwords.ts): with no such account a real hash is still verified.
import type { FastifyError } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeError } from '../../api/errors';

/** A Fastify error with only the fields given. */
function fastifyError(fields: Partial<FastifyError>): FastifyError {
  return Object.assign(new Error('test'), fields) as FastifyError;
}

const INVALID_JSON = { status: 400, body: { message: 'The request body must be valid JSON.' } };

describe('describeError', () => {
  it('knows malformed JSON by its code alone', () => {
    expect(describeError(fastifyError({ code: 'FST_ERR_CTP_INVALID_JSON_BODY' }))).toEqual(INVALID_JSON);
  });

  it('answers a plain SyntaxError (secure-json-parse refusing `__proto__`) as malformed JSON', () => {
    expect(
      describeError(new SyntaxError('Object contains forbidden prototype property') as FastifyError),
    ).toEqual(INVALID_JSON);
  });

  it('answers any other error with status 400 as malformed JSON, and leaves other errors alone', () => {
    expect(describeError(fastifyError({ code: 'FST_ERR_SOMETHING', statusCode: 400 }))).toEqual(INVALID_JSON);
    expect(describeError(fastifyError({ code: 'FST_ERR_SOMETHING', statusCode: 500 }))).toBeUndefined();
    expect(describeError(fastifyError({}))).toBeUndefined();
  });

  it('names the part of the request a schema error without details is in, the body when none is given', () => {
    const validation = (validationContext?: string) =>
      describeError(fastifyError({ validation: [], validationContext } as Partial<FastifyError>));
    expect(validation()).toEqual({ status: 400, body: { message: 'The request body is not valid.' } });
    expect(validation('body')).toEqual({ status: 400, body: { message: 'The request body is not valid.' } });
    expect(validation('querystring')).toEqual({
      status: 400,
      body: { message: 'The query string is not valid.' },
    });
    expect(validation('cookies')).toEqual({ status: 400, body: { message: 'The request is not valid.' } });
  });
});

describe('the decoy check of a sign-in without an account', () => {
  afterEach(() => {
    vi.doUnmock('@node-rs/argon2');
    vi.resetModules();
  });

  it('verifies the password against a real argon2id hash, so it costs what a wrong password costs', async () => {
    vi.resetModules();
    const verify = vi.fn();
    vi.doMock('@node-rs/argon2', async (importOriginal) => {
      const argon2 = await importOriginal<typeof import('@node-rs/argon2')>();
      verify.mockImplementation(argon2.verify);
      return { ...argon2, verify };
    });
    const { Passwords } = await import('../../api/passwords');
    const passwords = new Passwords({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
    expect(await passwords.check('a guess', undefined)).toEqual({ ok: false, needsRehash: false });
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify).toHaveBeenCalledWith(
      expect.stringMatching(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/),
      'a guess',
    );
  });
});
