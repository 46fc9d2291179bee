/**
 * Mixed command output for the redaction benchmark: build logs, test runs, code, JSON, lock
 * files full of hashes and integrity strings, and now and then a credential, in the proportion
 * a coding agent's tools see them. Deterministic, so runs compare.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export function mixedOutput(bytes: number, seed = 7): string {
  const next = random(seed);
  const token = (length: number, alphabet = ALPHABET) => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
  const hex = (length: number) => token(length, '0123456789abcdef');
  const lines: (() => string)[] = [
    () =>
      `[${new Date(1_700_000_000_000 + Math.floor(next() * 1e9)).toISOString()}] INFO  server: request ${hex(8)} GET /api/items/${Math.floor(next() * 1e5)} 200 ${Math.floor(next() * 900)}ms`,
    () => `  ✓ parses the config with ${Math.floor(next() * 40)} keys and an auth section (${Math.floor(next() * 30)} ms)`,
    () => `    const token = await client.getAccessToken(user${Math.floor(next() * 9)});`,
    () => `  "integrity": "sha512-${token(86)}==",`,
    () => `commit ${hex(40)}`,
    () => `src/components/Button.tsx:${Math.floor(next() * 400)}:12 - warning: 'props' is declared but never used`,
    () => `    "id": "${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}", "name": "item ${Math.floor(next() * 1e4)}", "price": ${(next() * 100).toFixed(2)}`,
    () => `  resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.${Math.floor(next() * 30)}.tgz#${hex(40)}"`,
    () => `export function ${token(10, 'abcdefghijklmnopqrstuvwxyz')}(key: string, value: number): Result<Secret> {`,
    () => `drwxr-xr-x  5 user staff   160 Jan 12 10:${Math.floor(next() * 50) + 10} node_modules/${token(8, 'abcdefghijklmnopqrstuvwxyz')}`,
    () => `error[E0308]: mismatched types at src/main.rs:${Math.floor(next() * 900)}: expected \`&str\`, found \`String\``,
    () => `sha256:${hex(64)}  ./dist/bundle-${hex(8)}.js`,
  ];
  const secrets: (() => string)[] = [
    () => `GITHUB_TOKEN=ghp_${token(36)}`,
    () => `export AWS_ACCESS_KEY_ID=AKIA${token(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`,
    () => `  "api_key": "sk-proj-${token(48)}",`,
    () => `DATABASE_URL=postgres://app:${token(16)}@db.internal:5432/app`,
    () => `Authorization: Bearer ${token(40)}`,
  ];
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    const pick = next() < 0.002 ? secrets[Math.floor(next() * secrets.length)]! : lines[Math.floor(next() * lines.length)]!;
    const line = pick();
    parts.push(line);
    length += line.length + 1;
  }
  return parts.join('\n');
}
