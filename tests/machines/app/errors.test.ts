import { describe, expect, it } from 'vitest';
import {
  createAppError,
  echoPath,
  notFoundError,
  statusMessageOf,
  toAppError,
  validationError,
} from '../../../machines/app/errorCatalogue';

describe('error model', () => {
  it('defaults to 500 and repairs impossible status codes', () => {
    expect(createAppError({ message: 'x' }).statusCode).toBe(500);
    expect(createAppError({ statusCode: 42 }).statusCode).toBe(500);
    expect(createAppError({ statusCode: 1000 }).statusCode).toBe(500);
    expect(createAppError({ statusCode: 418 }).statusCode).toBe(418);
    expect(createAppError('plain').message).toBe('plain');
  });

  it('uses the status message as the message when there is no message', () => {
    expect(createAppError({ statusMessage: 'Gone' }).message).toBe('Gone');
  });

  it('says "Page Not Found" for 404 and "Internal Server Error" otherwise, unless told', () => {
    expect(statusMessageOf(createAppError({ statusCode: 404 }))).toBe('Page Not Found');
    expect(statusMessageOf(createAppError({ statusCode: 503 }))).toBe('Internal Server Error');
    expect(statusMessageOf(createAppError({ statusCode: 503, statusMessage: 'Service Unavailable' }))).toBe(
      'Service Unavailable',
    );
  });

  it('words the two 404s exactly as the spec does', () => {
    expect(notFoundError('/x?y#z', 200)).toMatchObject({
      statusCode: 404,
      fatal: false,
      message: 'Page not found: /x?y#z',
    });
    expect(validationError('/campaign/abc', 200, false)).toMatchObject({
      statusCode: 404,
      fatal: true,
      message: 'Page Not Found: /campaign/abc',
    });
    expect(validationError('/p', 200, { statusCode: 410, statusMessage: 'Gone for good' })).toMatchObject({
      statusCode: 410,
      statusMessage: 'Gone for good',
      message: 'Gone for good',
    });
  });

  it('cuts long paths by characters, not code units', () => {
    expect(echoPath('/abc', 10)).toBe('/abc');
    expect(echoPath('/😀😀😀😀', 3)).toBe('/😀…');
  });

  it('keeps at least the first character of a path cut to a limit of one or less', () => {
    expect(echoPath('/abc', 1)).toBe('/…');
    expect(echoPath('/abc', 0)).toBe('/…');
  });

  it('keeps the status of what was thrown', () => {
    expect(toAppError({ statusCode: 404, message: 'Campaign 9 does not exist.' })).toMatchObject({
      statusCode: 404,
      message: 'Campaign 9 does not exist.',
    });
    expect(toAppError({ status: 401, message: 'Sign in' }).statusCode).toBe(401);
    expect(toAppError(new Error('boom'))).toMatchObject({ statusCode: 500, message: 'boom' });
    expect(toAppError(null).message).toBe('Something went wrong.');
    expect(toAppError('text').message).toBe('text');
  });
});
