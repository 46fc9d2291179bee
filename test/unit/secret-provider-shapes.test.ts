/**
 * Providers' prefixes whose rule wants one exact length or alphabet (provider-shapes.ts), and
 * prefixed rules' tokens that a global stopword excused (detectors.ts). Strings written here,
 * not taken from the held-out corpus.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { SecretSet } from '../../electron/core/secrets';

const secrets = new SecretSet();
const redact = (text: string) => secrets.redact(text).text;
const hidden = (text: string, secret: string) => {
  const out = redact(text);
  assert.ok(!out.includes(secret.slice(-12)), `${secret} shown in ${out}`);
};

describe('provider prefixes of any length', () => {
  test("GitLab's tokens, whatever the length after their prefix", () => {
    hidden('CI_TRIGGER=glptt-Qw7_rT9-mZ2kLp4vN8xB', 'glptt-Qw7_rT9-mZ2kLp4vN8xB');
    hidden('job: glcbt-bananas72_river-Stone9', 'glcbt-bananas72_river-Stone9');
    hidden('glrtr-Zp3kW9qLm2Xv7Tn4Rb8cYh', 'glrtr-Zp3kW9qLm2Xv7Tn4Rb8cYh');
    // The runner registration token's tail past gitleaks' 20 characters.
    hidden('GR1348941Kd8_qpZ2mTv9Lw4nXr6bYc1_after_twenty_more_chars', 'GR1348941Kd8_qpZ2mTv9Lw4nXr6bYc1_after_twenty_more_chars');
  });

  test("Square's secrets of another length and its EAAA tokens with base64's characters", () => {
    hidden('SQUARE = "sq0idk-Hb7Rz2Qm5Tw9-Lk3Np8Vx_4Jd"', 'sq0idk-Hb7Rz2Qm5Tw9-Lk3Np8Vx_4Jd');
    hidden('sq0csp-Hb7Rz2Qm5Tw9-Lk3Np8Vx_4JdHb7Rz2Qm5Tw9-Lk3Np8Vx_4Jd9', 'sq0csp-Hb7Rz2Qm5Tw9-Lk3Np8Vx_4JdHb7Rz2Qm5Tw9-Lk3Np8Vx_4Jd9');
    hidden('token: EAAAl9Rk2mQx7WpZ4vTn8bYc3Hs6Jd1Fg5Ku0Lq+Nr-Ve2Cy7=Xa9Mb', 'EAAAl9Rk2mQx7WpZ4vTn8bYc3Hs6Jd1Fg5Ku0Lq+Nr-Ve2Cy7=Xa9Mb');
  });

  test("Mailgun's 32-8-8 keys near its name", () => {
    hidden("mailgun: user 'ops' key '7c1e9a4f02b85d36e4a9c07f1b2d3e58-1a2b3c4d-9e8f7a6b'", '7c1e9a4f02b85d36e4a9c07f1b2d3e58-1a2b3c4d-9e8f7a6b');
  });

  test('filler and look-alikes are left', () => {
    for (const text of [
      'glptt-xxxxxxxxxxxxxxxxxxxxxxxx',
      'sq0csp-0000000000000000000000000',
      // The shape away from Mailgun's name: a build id, not a key.
      'build 7c1e9a4f02b85d36e4a9c07f1b2d3e58-1a2b3c4d-9e8f7a6b done',
      // Base64 that holds `EAAA` inside, not at its start.
      'data:font/woff2;base64,d09GMgABAAAAAEAAA8bR2kQx7WpZ4vTn8bYc3Hs6Jd1Fg5Ku0Lq+Nr/Ve2Cy7=',
      'see glptt- tokens in the docs',
    ])
      assert.equal(redact(text), text);
  });
});

describe("a prefixed rule's token runs to its end", () => {
  test('a token longer than the rule wants shows no tail', () => {
    hidden('DOPPLER=dp.pt.Hs7Kq2Wz9Lm4Rt8Vb1Nc6Xp3Yd5Fg0Jh2Qk7Ws4Ez9Ru1Ti8Op3Ylong', 'Ti8Op3Ylong');
    hidden('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c0ffee4a5b6c', 'c0ffee4a5b6c');
  });

  test('what follows a token past a separator it does not hold is left', () => {
    assert.equal(redact('dp.pt.Hs7Kq2Wz9Lm4Rt8Vb1Nc6Xp3Yd5Fg0Jh2Qk7Ws4Ez9Ru1 next.word'), '[REDACTED:doppler-api-token] next.word');
  });
});

describe('a prefixed rule is not excused by a global stopword', () => {
  test('a walk of the alphabet after a provider prefix is a test key, still a key', () => {
    hidden('grafana sa: glsa_ABCDEFGHIJKLMNOPQRSTUVWXYZ987654_0a1b2c3d', 'glsa_ABCDEFGHIJKLMNOPQRSTUVWXYZ987654_0a1b2c3d');
    // A numbered name (`_token7`) wakes no assignment rule; the provider's rule sees the prefix.
    hidden("typeform_token7 = 'tfp_zyxAbcdefghijklmnopqrstuvwxyzQ9R8s7T6u5V4w3X2y1Z0aBcDeFgHiJ'", 'tfp_zyxAbcdefghijklmnopqrstuvwxyzQ9R8s7T6u5V4w3X2y1Z0aBcDeFgHiJ');
  });
});

describe("a found secret's body, repeated without its prefix", () => {
  test('a twin under another name or prefix is hidden near the secret', () => {
    const body = '9f3c7a1e5b2d8046c1e7a9b3d5f20864';
    const twin = redact(`APP_ID=${body}\nAPP_SECRET=shpss_${body}\n`);
    assert.ok(!twin.includes(body.slice(0, 12)) && !twin.includes(body.slice(-12)), twin);
    const keys = redact(`public = pk-lf-7d2e91c4-5a3b-4f60-8e17-b29c6d04f3a8\nsecret = sk-lf-7d2e91c4-5a3b-4f60-8e17-b29c6d04f3a8`);
    assert.ok(!keys.includes('5a3b-4f60-8e17'), keys);
  });

  test('a body of words, or far from the secret, is left', () => {
    const words = 'label: my_long_password_here\npassword = "hx_my_long_password_here"';
    assert.ok(redact(words).startsWith('label: my_long_password_here\n'), redact(words));
    const body = '9f3c7a1e5b2d8046c1e7a9b3d5f20864';
    const far = redact(`APP_SECRET=shpss_${body}\n${'filler line of prose\n'.repeat(80)}APP_ID=${body}\n`);
    assert.ok(far.endsWith(`APP_ID=${body}\n`), far.slice(-80));
  });
});

describe("a secret's name numbered after its word", () => {
  test('`_token1`, `SECRET2`, `api_key3` are names as `_token` is', () => {
    // Values holding a word gitleaks' generic rule is excused for (`client`), which it alone saw under a numbered name.
    hidden("relay_token1 = 'clientQw8Zr2Lk5Vn9'", 'clientQw8Zr2Lk5Vn9');
    hidden('BILLING_SECRET2=clientMx3Tp7Wd1Hs4', 'clientMx3Tp7Wd1Hs4');
  });

  test('a word, or a value that spells its own name, is left', () => {
    for (const text of ["csrf_token2 = 'middleware'", 'retype_password3: retype_password3', 'exports.EdPrivateKey = EdPrivateKey;']) assert.equal(redact(text), text);
  });
});

describe('AWS STS session tokens, bare', () => {
  // Base64 of bytes that spell `origin_ec` (or `er/aws`) after the first three, as STS issues them.
  const body = (seed: number) => Array.from({ length: 320 }, (_, index) => 'Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz9Xc8Vb7Nm6+/'[(index * 7 + seed) % 40]).join('');
  test("today's (`IQoJb3JpZ2luX2Vj…`) and older (`FwoGZXIvYXdz…`) ones, with no name before them", () => {
    hidden(`session: IQoJb3JpZ2luX2Vj${body(1)}==`, body(1));
    hidden(`FwoGZXIvYXdzE${body(2)}`, body(2));
  });
  test('base64 that holds those letters elsewhere, or a short run, is left', () => {
    const text = `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAb3JpZ2luX2Vj${body(3)}\nIQoJb3JpZ2luX2VjAbCd`;
    assert.equal(redact(text), text);
  });
});
