/**
 * Secrets written into code as a call's literals (code-patterns.ts): a credential's name and its
 * value as two literals of one call, array or tuple; a literal returned by a function named for a
 * credential; an API client made with one literal. Strings written here, not taken from the
 * held-out corpus.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { SecretSet } from '../../electron/core/secrets';

const secrets = new SecretSet();
const redact = (text: string) => secrets.redact(text).text;
const hidden = (text: string, secret: string) => {
  const out = redact(text);
  assert.ok(!out.includes(secret), `${secret} shown in ${out}`);
};

describe("a credential's name and its value in one call", () => {
  test('headers, arrays and tuples', () => {
    hidden('r.Header.Add("Lumen-Api-Key", "p7Qe2+Wn4RtZ9kLm_vB3xYc8=")', 'p7Qe2+Wn4RtZ9kLm_vB3xYc8=');
    hidden('http.setRequestProperty("X-Session-Token", "k2Jd9wQ7mN4pZr8T")', 'k2Jd9wQ7mN4pZr8T');
    hidden('params = [("client_secret", "Hq4tB9zW2nR7vL5x")]', 'Hq4tB9zW2nR7vL5x');
    hidden('std::map<std::string, std::string> m = {{"token", "Vd8sK3pQ6wE1rT9y"}};', 'Vd8sK3pQ6wE1rT9y');
  });

  test('names, words and sentences are left', () => {
    for (const text of [
      'el.setAttribute("autocomplete", "current-password")',
      'i18n.t("api_key", "Your API key here")',
      'assertParams(params, "password", "salt", "iterationCount")',
      'new Set(["authorization", "proxy-authorization"])',
      'headers.set("Authorization", `Bearer ${token}`)',
    ])
      assert.equal(redact(text), text);
  });
});

describe('a literal returned by a function named for a credential', () => {
  test('Go, Python, Java, TypeScript and Kotlin', () => {
    hidden('func getRelayToken() string { return "Xw3nP8qZ2vK7rT5m" }', 'Xw3nP8qZ2vK7rT5m');
    hidden("def upload_api_key() -> str:\n    return 'Lm4xR9tQ2wZ7pV3k'", 'Lm4xR9tQ2wZ7pV3k');
    hidden('private String webhookSecret() { return "Zt6yN1qW8mK3pR5v"; }', 'Zt6yN1qW8mK3pR5v');
    hidden('getAuthToken(): string { return "Qp9rW2xK7mZ4tN6v"; }', 'Qp9rW2xK7mZ4tN6v');
    hidden('fun mapsApiKey(): String = "Bn5tR8qW3xZ1mK7p"', 'Bn5tR8qW3xZ1mK7p');
  });

  test('a computed or compared value is left', () => {
    for (const text of ['function getToken(name) { return "prefix_" + name; }', 'if (getToken() === "Qp9rW2xK7mZ4tN6v") {', 'def get_secret(): return "secret-name-of-vault"'])
      assert.equal(redact(text), text);
  });
});

describe('a literal given alone to a function named for a credential', () => {
  test("a setter's or a builder's literal, and requests' auth tuple", () => {
    hidden('mailer.setApiKey("Wq7Lz2Rk9Pm4Xt8V");', 'Wq7Lz2Rk9Pm4Xt8V');
    hidden('builder.withAuthToken( "Hn3Vb8Qz5Kd1Ry6T" )', 'Hn3Vb8Qz5Kd1Ry6T');
    hidden('requests.post(url, auth=("deploy", "Tz4Rm8Wq2Lp6"))', 'Tz4Rm8Wq2Lp6');
  });

  test('a lookup by name or path, and an address, are left', () => {
    for (const text of [
      'vault.getSecret("DB_PASSWORD")',
      'store.readSecret("team/prod/db")',
      'sendResetPassword("ann@example.com")',
      'client.getAccessToken(user3)',
      'requests.get(url, auth=(user, pw))',
    ])
      assert.equal(redact(text), text);
  });
});

describe('an API client made with one literal', () => {
  test('the literal is its key', () => {
    hidden('const c = new ZenoAPI("4f1b2c9e-7d3a-4e8b-9a61-0c5d2e7f8b13");', '4f1b2c9e-7d3a-4e8b-9a61-0c5d2e7f8b13');
  });

  test('an address, a region or a name is left', () => {
    for (const text of ['new S3Client("eu-central-1")', 'new GraphClient("https://graph.example.com/v2")', 'new ChainClient("0x52908400098527886E0F7030069857D2E4169EE7")'])
      assert.equal(redact(text), text);
  });
});
