/**
 * The sandbox check in the background (bash-sandbox/availability.ts): it answers what the
 * synchronous check answered before, for the real bwrap and for ones that refuse or are missing,
 * and start-up goes on while it runs. Each case has a PATH of its own, since answers are kept
 * per platform and PATH for the process's lifetime.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBwrap } from '../../electron/core/bash-sandbox/bwrap';
import { hookSandbox } from '../../electron/core/hooks/hook-sandbox';
import type { SessionRecord } from '../../electron/core/store';
import { knownSandboxAvailability, loadSandboxSettings, probeSandbox, sandboxAvailability, unsandboxedReason } from '../../electron/core/bash-sandbox';

let folder: string;
let cases = 0;
/** An environment no other case shares, so neither check sees the other's kept answer. */
function environment(bwrap: string): Record<string, string> {
  cases++;
  return { PATH: `/usr/bin:/bin:/nonexistent-${cases}`, COVE_BWRAP: bwrap };
}

function script(name: string, body: string): string {
  const path = join(folder, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

before(() => {
  folder = mkdtempSync(join(tmpdir(), 'cove-sandbox-probe-'));
});
after(() => rmSync(folder, { recursive: true, force: true }));

describe('the sandbox check in the background', () => {
  const real = findBwrap();
  test('answers as the synchronous check does with the real bwrap', { skip: real ? false : 'bwrap is not installed here' }, async () => {
    const inBackground = await probeSandbox({ platform: 'linux', environment: environment(real!) });
    const synchronous = sandboxAvailability({ platform: 'linux', environment: environment(real!) });
    assert.deepEqual(inBackground, synchronous);
  });

  test('answers as the synchronous check does for a bwrap that cannot create namespaces', async () => {
    const refusing = script('refusing-bwrap', 'echo "bwrap: No permissions to creating new namespace" >&2; exit 1');
    const inBackground = await probeSandbox({ platform: 'linux', environment: environment(refusing) });
    const synchronous = sandboxAvailability({ platform: 'linux', environment: environment(refusing) });
    assert.equal(inBackground.available, false);
    assert.deepEqual(inBackground, synchronous);
    assert.match(inBackground.available ? '' : inBackground.reason, /cannot create its namespaces here: bwrap: No permissions/);
  });

  test('answers as the synchronous check does when bwrap is missing', async () => {
    const missing = join(folder, 'no-such-bwrap');
    const inBackground = await probeSandbox({ platform: 'linux', environment: environment(missing) });
    assert.deepEqual(inBackground, sandboxAvailability({ platform: 'linux', environment: environment(missing) }));
    assert.match(inBackground.available ? '' : inBackground.reason, /bubblewrap is not installed \(COVE_BWRAP=.*no-such-bwrap is not an executable file/);
  });

  test('lets start-up go on while it runs, runs once, and its answer is what later checks use', async () => {
    const runs = join(folder, 'runs');
    const slow = script('slow-bwrap', `echo run >> ${runs}; sleep 0.4; exit 0`);
    const options = { platform: 'linux' as const, environment: environment(slow) };
    const probe = probeSandbox(options);
    assert.equal(knownSandboxAvailability(options), undefined, 'answered before the trial run ended');
    let turns = 0;
    await new Promise<void>((resolve) => {
      const turn = () => (++turns === 5 ? resolve() : setImmediate(turn));
      setImmediate(turn);
    });
    assert.equal(knownSandboxAvailability(options), undefined, 'the event loop waited for the trial run');
    assert.equal(probeSandbox(options), probe, 'a second caller shares the running check');
    assert.deepEqual(await probe, { available: true, kind: 'bubblewrap', binary: slow });
    assert.deepEqual(sandboxAvailability(options), { available: true, kind: 'bubblewrap', binary: slow });
    assert.equal(readFileSync(runs, 'utf8'), 'run\n', 'the trial ran more than once');
  });

  test('makes bash ask about every call, as before, once it finds no sandbox', async () => {
    const refusing = script('refusing-again', 'echo "bwrap: setting up uid map: Permission denied" >&2; exit 1');
    const home = mkdtempSync(join(folder, 'home-'));
    const options = { platform: 'linux' as const, environment: environment(refusing), workspaceRoots: [folder], settings: loadSandboxSettings({ workspaceRoots: [folder], coveHome: home }) };
    await probeSandbox(options);
    assert.match(unsandboxedReason(options) ?? '', /no OS sandbox can run here \(bubblewrap .* setting up uid map: Permission denied\), so every bash command is asked about/);
  });

  test('a hook waits for the background check instead of running one that stops the event loop', async () => {
    const slow = script('slow-bwrap-for-hooks', 'sleep 0.4; exit 0');
    const availability = { platform: 'linux' as const, environment: environment(slow) };
    const home = mkdtempSync(join(folder, 'home-'));
    const wrap = hookSandbox(home, availability)({ workspaces: [folder] } as unknown as SessionRecord);
    const wrapped = Promise.resolve(wrap({ file: '/bin/sh', args: ['-c', 'true'] }, folder));
    let turns = 0;
    await new Promise<void>((resolve) => {
      const turn = () => (++turns === 5 ? resolve() : setImmediate(turn));
      setImmediate(turn);
    });
    assert.equal(knownSandboxAvailability(availability), undefined, 'the event loop waited for the trial run');
    const launch = await wrapped;
    assert.ok(!('refused' in launch), 'the hook runs in the sandbox');
    assert.equal(launch.file, slow);
    assert.deepEqual(launch.args.slice(-3), ['/bin/sh', '-c', 'true']);
    launch.release?.();
  });
});
