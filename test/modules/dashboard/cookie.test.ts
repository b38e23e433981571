// Reading the session cookie from a Cookie header (src/modules/dashboard/cookie.ts): the same
// answers as the cookie plugin's parser gave for the one cookie the service reads.
import { describe, expect, it } from 'vitest';
import { cookieValue } from '../../../src/modules/dashboard/cookie.js';

describe('cookieValue', () => {
  it('finds a cookie among others, spaces and tabs around it ignored', () => {
    expect(cookieValue('a=1; mb_session=tok_123;b=2', 'mb_session')).toBe('tok_123');
    expect(cookieValue('mb_session=tok', 'mb_session')).toBe('tok');
    expect(cookieValue(' \tmb_session = tok \t', 'mb_session')).toBe('tok');
  });

  it('answers undefined without the header, without that cookie, or for a longer name that starts the same', () => {
    expect(cookieValue(undefined, 'mb_session')).toBeUndefined();
    expect(cookieValue('', 'mb_session')).toBeUndefined();
    expect(cookieValue('mb_session_old=x; xmb_session=y; mb_session', 'mb_session')).toBeUndefined();
  });

  it('takes the first of two cookies of that name, and an empty value as empty', () => {
    expect(cookieValue('mb_session=first; mb_session=second', 'mb_session')).toBe('first');
    expect(cookieValue('mb_session=', 'mb_session')).toBe('');
  });

  it('percent-decodes a value that decodes, and keeps one that does not as sent', () => {
    expect(cookieValue('mb_session=a%20b', 'mb_session')).toBe('a b');
    expect(cookieValue('mb_session=a%zzb', 'mb_session')).toBe('a%zzb');
  });
});
