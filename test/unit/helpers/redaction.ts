/** The built-in secret set the redaction tests judge with, and their two checks. */
import assert from 'node:assert/strict';
import { SecretSet } from '../../../electron/core/secrets';

export const secrets = new SecretSet();

/** Redacting `text` leaves none of `hidden` in it. */
export function hides(text: string, ...hidden: string[]): void {
  const redacted = secrets.redact(text).text;
  for (const secret of hidden) assert.ok(!redacted.includes(secret), `${secret} still in ${redacted}`);
}

/** Redacting `text` changes nothing. */
export function keeps(text: string): void {
  assert.equal(secrets.redact(text).text, text);
}
