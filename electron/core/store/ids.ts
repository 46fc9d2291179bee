/**
 * Session ids: 10 characters of millisecond time then 10 random ones, in lowercase Crockford
 * base32. They sort by creation time as plain strings, need no coordination between processes
 * sharing a database, and stay short enough to type after `cove run --resume`.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const TIME_LENGTH = 10;
const RANDOM_LENGTH = 10;

export function newSessionId(now: number = Date.now()): string {
  let time = '';
  let rest = Math.floor(now);
  for (let i = 0; i < TIME_LENGTH; i++) {
    time = ALPHABET[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  // 256 is a multiple of 32, so masking a byte keeps the characters uniform.
  let random = '';
  for (const byte of randomBytes(RANDOM_LENGTH)) random += ALPHABET[byte & 31];
  return time + random;
}
