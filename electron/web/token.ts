/**
 * The secret that stands between `cove serve` and anyone else who can reach its port. Every
 * page, asset and WebSocket needs it, in the URL (`?token=`) or in the cookie the server sets
 * after the first page load with it. Comparison hashes both sides first, so timingSafeEqual
 * always compares equal-length buffers and the time taken says nothing about the token.
 */
import crypto from 'node:crypto';

/** URL- and cookie-safe, long enough that guessing is hopeless. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_~.-]{16,256}$/;

export function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function tokenMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const wanted = crypto.createHash('sha256').update(expected, 'utf8').digest();
  const offered = crypto.createHash('sha256').update(given, 'utf8').digest();
  return crypto.timingSafeEqual(wanted, offered);
}

/**
 * Cookies are scoped by host, not port, so each server names its cookie after its port: two
 * `cove serve` on one machine do not overwrite each other's.
 */
export function cookieName(port: number): string {
  return `cove_token_${port}`;
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/** HttpOnly so page scripts never see it; SameSite=Strict so no other site's page sends it. */
export function tokenCookie(port: number, token: string): string {
  return `${cookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict`;
}

export type TokenCheck = 'valid' | 'missing' | 'wrong';

/**
 * Checks the token of a request URL and Cookie header. A token in the URL wins over the
 * cookie: a wrong one there is refused even when the cookie is good, so a mistyped link fails
 * visibly instead of working by accident.
 */
export function checkRequestToken(expected: string, url: URL, cookieHeader: string | undefined, port: number): { check: TokenCheck; fromQuery: boolean } {
  const fromQuery = url.searchParams.get('token');
  if (fromQuery !== null) return { check: tokenMatches(expected, fromQuery) ? 'valid' : 'wrong', fromQuery: true };
  const fromCookie = readCookie(cookieHeader, cookieName(port));
  if (fromCookie === undefined) return { check: 'missing', fromQuery: false };
  return { check: tokenMatches(expected, fromCookie) ? 'valid' : 'wrong', fromQuery: false };
}
