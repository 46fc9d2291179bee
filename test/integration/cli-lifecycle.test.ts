import { test } from 'node:test';
import assert from 'node:assert/strict';
import { block, reply } from '../support/model-server';
import { CoveHome, cliFixture, collect } from '../support/cove-cli';
import type { ChildProcess } from 'node:child_process';
import { runningWith } from '../support/processes';

/** Resolves when the child's stdout has printed a line matching `pattern`. */
function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const line = buffer.split('\n').find((l) => pattern.test(l));
      if (line) {
        child.stdout!.off('data', onData);
        resolve(line);
      }
    };
    child.stdout!.on('data', onData);
    child.on('close', () => reject(new Error(`exited before printing ${pattern}; got: ${buffer.slice(-500)}`)));
  });
}

/** Whether a live (not zombie) process has `marker` among its arguments. */
const aliveWith = (marker: string) => runningWith(marker).length > 0;

async function sessions(home: CoveHome) {
  const listed = await home.run(['sessions', '--json']);
  return listed.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

test('Ctrl-C stops a run mid-stream cleanly and the session is saved', async () => {
  const f = await cliFixture([reply.hang({ afterEvents: 5 })]);
  try {
    const child = f.home.spawn(['run', '--json', '--workspace', f.workspace, 'a long answer please']);
    const done = collect(child);
    await waitForLine(child, /"messageUpdate"/);
    child.kill('SIGINT');
    const result = await done;
    assert.equal(result.code, 130, result.stderr);
    assert.match(result.stderr, /stopped; session \S+ is saved/);
    const end = result.events.at(-1)!;
    assert.equal(end.type === 'agentEnd' && end.stopReason, 'aborted');
    await f.server.waitForDisconnect(0);
    const [row] = await sessions(f.home);
    assert.equal(row.status, 'aborted');
  } finally {
    await f.close();
  }
});

/** A duration no other process sleeps for, to find this test's background child. */
const BACKGROUND_SLEEP = `300.${process.pid}`;

test('Ctrl-C during a bash command kills the command and its children', async () => {
  const f = await cliFixture([reply.message([block.toolUse('bash', { command: `sleep ${BACKGROUND_SLEEP} & echo "child=$!"; sleep 300` })]), reply.text('unreachable')]);
  try {
    const child = f.home.spawn(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'run it']);
    const done = collect(child);
    await waitForLine(child, /child=\d+/);
    assert.ok(aliveWith(BACKGROUND_SLEEP), 'the background child is running before the interrupt');
    child.kill('SIGINT');
    const result = await done;
    assert.equal(result.code, 130, result.stderr);
    assert.equal(aliveWith(BACKGROUND_SLEEP), false, 'the background child was killed with its process group');
    const end = result.events.find((e) => e.type === 'toolExecutionEnd');
    assert.ok(end && end.type === 'toolExecutionEnd' && end.isError);
    assert.equal(f.server.requests.length, 1, 'nothing was sent after the cancel');
  } finally {
    await f.close();
  }
});

test('a run killed with SIGKILL is marked interrupted and resumes with its cut-off call answered', async () => {
  let requests = 0;
  const f = await cliFixture(() => {
    requests++;
    return requests === 1 ? reply.message([block.toolUse('bash', { command: 'echo started; sleep 300' }, { id: 'toolu_cut' })]) : reply.text('picked up again');
  });
  try {
    const child = f.home.spawn(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'start the server']);
    const done = collect(child);
    await waitForLine(child, /"toolExecutionUpdate".*started/);
    child.kill('SIGKILL');
    await done;

    const [row] = await sessions(f.home);
    assert.equal(row.status, 'interrupted');

    const resumed = await f.home.run(['run', '--json', '--resume', row.id, 'what happened?']);
    assert.equal(resumed.code, 0, resumed.stderr);
    const sent = f.server.requests[1]!.body.messages;
    assert.equal(sent[0]!.role, 'user');
    assert.match(JSON.stringify(sent[0]!.content), /start the server/);
    const answer = JSON.stringify(sent[2]!.content);
    assert.match(answer, /toolu_cut/);
    assert.match(answer, /Interrupted/);
    assert.match(JSON.stringify(sent.at(-1)!.content), /what happened\?/);
    const [after] = await sessions(f.home);
    assert.equal(after.status, 'done');
  } finally {
    await f.close();
  }
});

test('--continue picks the latest session of the workspace and sends its history', async () => {
  const f = await cliFixture([reply.text('first answer'), reply.text('second answer')]);
  try {
    const first = await f.home.run(['run', '--workspace', f.workspace, 'remember the word heron']);
    assert.equal(first.code, 0, first.stderr);
    const second = await f.home.run(['run', '--continue', 'what was the word?'], { cwd: f.workspace });
    assert.equal(second.code, 0, second.stderr);
    const messages = f.server.requests[1]!.body.messages;
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.match(JSON.stringify(messages[0]!.content), /heron/);
    assert.equal((await sessions(f.home)).length, 1);
  } finally {
    await f.close();
  }
});
