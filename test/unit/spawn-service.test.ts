/**
 * The helper process that starts git for checkpoints (electron/core/checkpoints/spawn-service.ts):
 * commands run as its children, not Cove's (a fork from Cove's process copies its memory map in
 * the event loop); input, output and exit codes come through; a missing command, an abort and a
 * helper that dies each end the command with an error naming why; an idle helper keeps nothing
 * alive.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SpawnService, startSpawnHelper } from '../../electron/core/checkpoints/spawn-service';

const skip = process.platform === 'win32' ? 'uses sh and $PPID' : false;
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

describe('the spawn service', { skip }, () => {
  const service = new SpawnService();
  after(() => service.close());

  test('a command runs as the helper’s child, with its input, and gives back its output and exit code', async () => {
    const result = await service.run({ command: 'sh', args: ['-c', 'echo "$PPID"; cat; echo oops >&2; exit 3'], env, cwd: '/', input: 'from stdin\n' });
    const [parent, echoed] = result.stdout.toString('utf8').split('\n');
    assert.equal(echoed, 'from stdin');
    assert.notEqual(Number(parent), process.pid, 'not a child of this process');
    assert.ok(Number(parent) > 0);
    assert.equal(result.stderr.toString('utf8'), 'oops\n');
    assert.equal(result.code, 3);
    assert.equal(result.error, undefined);
  });

  test('binary input and output pass unchanged', async () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, index) => index % 256));
    const result = await service.run({ command: 'cat', args: [], env, cwd: '/', input: bytes });
    assert.ok(result.stdout.equals(bytes));
  });

  test('a command that is not installed fails with ENOENT', async () => {
    const result = await service.run({ command: 'cove-no-such-command', args: [], env, cwd: '/' });
    assert.equal(result.error?.code, 'ENOENT');
  });

  test('an abort ends the command at once', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const running = service.run({ command: 'sleep', args: ['30'], env, cwd: '/', signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const result = await running;
    assert.equal(result.error?.code, 'ABORT_ERR');
    assert.ok(Date.now() - started < 10_000, 'did not wait for sleep 30');
  });

  test('a helper that dies fails what it ran, naming why, and the next command starts a new one', async () => {
    let helper: ChildProcess | undefined;
    const own = new SpawnService(() => (helper = startSpawnHelper()));
    try {
      // The helper has worked: its death is a death, not a sign it cannot run here.
      assert.equal((await own.run({ command: 'sh', args: ['-c', 'echo first'], env, cwd: '/' })).code, 0);
      const running = own.run({ command: 'sleep', args: ['30'], env, cwd: '/' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      helper!.kill('SIGKILL');
      const result = await running;
      assert.match(result.error?.message ?? '', /helper process that starts commands ended \(SIGKILL\)/);
      const again = await own.run({ command: 'sh', args: ['-c', 'echo again'], env, cwd: '/' });
      assert.equal(again.stdout.toString('utf8'), 'again\n');
    } finally {
      own.close();
    }
  });

  test('a helper that cannot run here (it exits before it answers) hands its command, and all later ones, to this process', async () => {
    let started = 0;
    const own = new SpawnService(() => {
      started++;
      return spawn(process.execPath, ['-e', 'process.exit(3)'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    });
    const first = await own.run({ command: 'sh', args: ['-c', 'echo "$PPID"'], env, cwd: '/' });
    assert.equal(Number(first.stdout.toString('utf8').trim()), process.pid);
    const second = await own.run({ command: 'sh', args: ['-c', 'echo "$PPID"'], env, cwd: '/' });
    assert.equal(Number(second.stdout.toString('utf8').trim()), process.pid);
    assert.equal(started, 1, 'not started again and again');
  });

  test('where the helper cannot start, commands start directly', async () => {
    const own = new SpawnService(() => {
      throw new Error('no helper here');
    });
    const result = await own.run({ command: 'sh', args: ['-c', 'echo "$PPID"'], env, cwd: '/' });
    assert.equal(Number(result.stdout.toString('utf8').trim()), process.pid);
  });

  test('an idle helper keeps nothing alive: a process that ran a command exits by itself', async () => {
    const module = fileURLToPath(new URL('../../electron/core/checkpoints/spawn-service.ts', import.meta.url));
    const script = `import { spawnService } from ${JSON.stringify(module)};
const result = await spawnService.run({ command: 'sh', args: ['-c', 'echo ran'], env: { PATH: process.env.PATH }, cwd: '/' });
process.stdout.write(result.stdout);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const exited = await new Promise<number | null | 'still running'>((resolve) => {
      const timer = setTimeout(() => resolve('still running'), 20_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    if (exited === 'still running') child.kill();
    assert.equal(exited, 0);
    assert.equal(out, 'ran\n');
  });
});
