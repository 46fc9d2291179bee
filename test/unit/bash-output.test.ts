import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { stripAnsi, TerminalTextCleaner } from '../../electron/core/tools/ansi';
import { HOLD_BACK_LIMIT, ModelOutput, sendablePrefix, skipNote, UiStream, type UiUpdate } from '../../electron/core/tools/bash-output';
import { SecretSet } from '../../electron/core/secrets';
import { DEFAULT_DENY_PATTERNS, matchDenyPattern, toDenyPattern } from '../../electron/core/tools/bash-guard';

function cleanAll(chunks: string[]): string {
  const cleaner = new TerminalTextCleaner();
  return chunks.map((chunk) => cleaner.push(chunk)).join('') + cleaner.flush();
}

describe('stripAnsi', () => {
  test('removes CSI, OSC, charset and control sequences', () => {
    const raw = '\x1b[1;31mred\x1b[0m \x1b]0;title\x07\x1b]8;;https://x.test\x1b\\link\x1b]8;;\x1b\\ \x1b(Bascii\x1b)0 \x1b[?25lhidden\x1b[?25h\x07';
    assert.equal(stripAnsi(raw), 'red link ascii hidden');
  });

  test('keeps tabs, newlines and plain text', () => {
    assert.equal(stripAnsi('a\tb\nc'), 'a\tb\nc');
  });
});

describe('TerminalTextCleaner', () => {
  test('turns CRLF into LF, even when a chunk ends between CR and LF', () => {
    assert.equal(cleanAll(['one\r', '\ntwo\r\n']), 'one\ntwo\n');
  });

  test('joins an escape sequence split across chunks before removing it', () => {
    assert.equal(cleanAll(['a\x1b[3', '2mb\x1b]0;ti', 'tle\x07c\n']), 'abc\n');
  });

  test('collapses carriage-return redraws to the last one', () => {
    assert.equal(cleanAll(['progress 10%\rprogress 50%', '\rprogress 100%\r\ndone\n']), 'progress 100%\ndone\n');
  });

  test('a redraw that erases the line with CSI K keeps only the new text', () => {
    assert.equal(cleanAll(['downloading…\r\x1b[Kdone\n']), 'done\n');
  });

  test('a line redrawn forever stays bounded in memory and keeps its latest state', () => {
    const cleaner = new TerminalTextCleaner(1000);
    let emitted = '';
    for (let i = 0; i < 10_000; i++) emitted += cleaner.push(`\rstep ${i}`);
    emitted += cleaner.flush();
    assert.equal(emitted, 'step 9999');
  });
});

describe('ModelOutput', () => {
  test('short output passes through whole', () => {
    const output = new ModelOutput();
    output.push('hello\r\nworld\r\n');
    assert.deepEqual(output.finish(), { text: 'hello\nworld\n', truncated: false });
  });

  test('long output keeps whole lines of head and tail around a marker counting what was left out', () => {
    const output = new ModelOutput({ headChars: 100, tailChars: 200 });
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i + 1}`);
    for (let i = 0; i < lines.length; i += 37) output.push(lines.slice(i, i + 37).join('\r\n') + '\r\n');
    const { text, truncated } = output.finish();
    assert.equal(truncated, true);
    const [head, tail] = text.split(/\[… [\d,]+ characters \([\d,]+ lines\) omitted …\]\n/);
    assert.ok(head!.startsWith('line 1\nline 2\n') && head!.endsWith('\n') && head!.length <= 100);
    assert.ok(tail!.endsWith('line 10000\n') && tail!.length <= 200);
    const shown = (head! + tail!).trimEnd().split('\n');
    const omittedLines = Number(/\(([\d,]+) lines\)/.exec(text)![1]!.replace(/,/g, ''));
    assert.equal(shown.length + omittedLines, 10_000);
    const omittedChars = Number(/… ([\d,]+) characters/.exec(text)![1]!.replace(/,/g, ''));
    assert.equal(omittedChars + head!.length + tail!.length, lines.join('\n').length + 1);
  });
});

describe('ModelOutput on output far past its limits', () => {
  test('colored CRLF lines: head and tail come out cleaned, and the marker counts the lines between', () => {
    const output = new ModelOutput({ headChars: 1000, tailChars: 2000 });
    const total = 200_000;
    const line = (n: number) => `\x1b[32m${n}\x1b[0m\r\n`;
    for (let n = 1; n <= total; n += 500) output.push(Array.from({ length: 500 }, (_, i) => line(n + i)).join(''));
    output.push('\x1b[1mdone\x1b[0m\r\n');
    const { text, truncated } = output.finish();
    assert.ok(truncated);
    assert.ok(!text.includes('\x1b') && !text.includes('\r'), 'no escapes or CRs reach the model');
    const [head, tail] = text.split(/\[… [\d,]+ characters \([\d,]+ lines\) omitted …\]\n/);
    assert.ok(head!.startsWith('1\n2\n3\n') && head!.length <= 1000);
    assert.ok(tail!.endsWith(`${total - 1}\n${total}\ndone\n`) && tail!.length <= 2000);
    const omittedLines = Number(/\(([\d,]+) lines\)/.exec(text)![1]!.replace(/,/g, ''));
    assert.equal(head!.split('\n').length - 1 + omittedLines + tail!.split('\n').length - 1, total + 1);
  });

  test('a progress bar redrawn across the switch to raw output still collapses to its last state', () => {
    const output = new ModelOutput({ headChars: 100, tailChars: 200 });
    output.push('x\n'.repeat(5000));
    for (let percent = 0; percent <= 100; percent++) output.push(`\r${percent}% done`);
    output.push('\r\nfinished\n');
    const { text } = output.finish();
    assert.ok(text.endsWith('\n100% done\nfinished\n'), JSON.stringify(text.slice(-40)));
  });
});

describe('UiStream', () => {
  test('coalesces many chunks into few updates that together carry everything', async () => {
    const updates: UiUpdate[] = [];
    const stream = new UiStream((update) => updates.push(update), Date.now(), 50);
    for (let i = 0; i < 100; i++) stream.push(`chunk ${i}\r\n`);
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (updates.length > 0) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
    stream.push('last\r\n');
    stream.flush();
    assert.equal(updates.length, 2);
    const all = updates.map((update) => update.chunk).join('');
    assert.equal(all, Array.from({ length: 100 }, (_, i) => `chunk ${i}\r\n`).join('') + 'last\r\n');
    assert.equal(updates.at(-1)!.bytes, Buffer.byteLength(all));
  });

  test('a batch over the limit sends its newest whole lines after a note of how much it left out', () => {
    const updates: UiUpdate[] = [];
    const stream = new UiStream((update) => updates.push(update), Date.now(), 50, 1000);
    stream.push('small\n');
    stream.flush(false);
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i}`);
    for (let i = 0; i < lines.length; i += 100) stream.push(lines.slice(i, i + 100).join('\n') + '\n');
    stream.flush();
    stream.dispose();
    assert.equal(updates[0]!.chunk, 'small\n');
    assert.equal(updates[0]!.truncatedForUi, undefined);
    const [note, kept] = [updates[1]!.chunk.slice(0, updates[1]!.chunk.indexOf('\n') + 1), updates[1]!.chunk.slice(updates[1]!.chunk.indexOf('\n') + 1)];
    const skipped = Number(/\[… ([\d,]+) characters/.exec(note)![1]!.replace(/,/g, ''));
    assert.equal(note, skipNote(skipped));
    assert.ok(kept.length <= 1000 && kept.length > 900, `kept ${kept.length} characters`);
    assert.ok(kept.startsWith('line ') && kept.endsWith('line 4999\n'), 'whole lines, up to the last');
    assert.equal(skipped + kept.length, lines.join('\n').length + 1, 'the note counts exactly what was left out');
    assert.equal(updates[1]!.truncatedForUi, true);
    assert.equal(updates[1]!.bytes, Buffer.byteLength(`small\n${lines.join('\n')}\n`));
    assert.equal(stream.truncatedForUi, true);
  });
});

describe('deny patterns', () => {
  const refused = [
    'rm -rf /',
    'rm -fr /*',
    'sudo rm -r -f / ',
    'rm --recursive --force ~',
    'rm -rf $HOME/',
    'cd /tmp && rm -rf ~/',
    ':(){ :|:& };:',
    'mkfs.ext4 /dev/sdb1',
    'dd if=/dev/zero of=/dev/sda bs=1M',
    'cat image > /dev/nvme0n1',
    'chmod -R 777 /',
    'sudo shutdown -h now',
    'make && reboot',
  ];
  const allowed = [
    'rm -rf ./build',
    'rm -rf /tmp/cove-test',
    'rm -rf ~/project/node_modules',
    'echo "do not shutdown"',
    'grep reboot notes.txt',
    'dd if=in.img of=out.img',
    'chmod -R 755 ./dist',
    'ls /dev/sda',
  ];
  for (const command of refused) {
    test(`refuses ${command}`, () => assert.ok(matchDenyPattern(command, DEFAULT_DENY_PATTERNS), command));
  }
  for (const command of allowed) {
    test(`lets through ${command}`, () => assert.equal(matchDenyPattern(command, DEFAULT_DENY_PATTERNS), undefined));
  }
  test('configured strings match as substrings, regular expressions as themselves', () => {
    const patterns = [toDenyPattern('git push --force'), toDenyPattern(/\bnpm\s+publish\b/)];
    assert.equal(matchDenyPattern('git push --force origin main', patterns)?.name, 'git push --force');
    assert.equal(matchDenyPattern('npm  publish', patterns)?.name, '\\bnpm\\s+publish\\b');
    assert.equal(matchDenyPattern('git push origin', patterns), undefined);
  });

  test('an unfinished line waits for its end, so a secret is never split across two updates', () => {
    const token = `ghp_${'Ab3dEf6hIj'.repeat(4).slice(0, 36)}`;
    const updates: UiUpdate[] = [];
    const stream = new UiStream((update) => updates.push(update), Date.now(), 50);
    stream.push(`line one\ntoken=${token.slice(0, 10)}`);
    stream.flush(false);
    stream.push(`${token.slice(10)}\nafter\n`);
    stream.flush(false);
    stream.dispose();
    assert.deepEqual(
      updates.map((u) => u.chunk),
      ['line one\n', `token=${token}\nafter\n`],
    );
    const secrets = new SecretSet();
    assert.ok(
      updates.every((u) => !secrets.redact(u.chunk).text.includes(token.slice(4, 20))),
      'every update redacts the token whole',
    );
  });

  test('a PEM block is held until its END line; held text is sent after a while or at the end', async () => {
    const text = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n';
    assert.equal(sendablePrefix(`ok\n${text}`), 3);
    assert.equal(sendablePrefix(`ok\n${text}-----END RSA PRIVATE KEY-----\n`), `ok\n${text}-----END RSA PRIVATE KEY-----\n`.length);
    assert.equal(sendablePrefix('x'.repeat(HOLD_BACK_LIMIT + 1)), HOLD_BACK_LIMIT + 1, 'a huge line is not held forever');
    const updates: UiUpdate[] = [];
    const stream = new UiStream((update) => updates.push(update), Date.now(), 10);
    stream.push('Password: ');
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (updates.length > 0) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    assert.equal(updates[0]!.chunk, 'Password: ', 'a prompt without a newline still shows');
    stream.push('partial');
    stream.flush();
    assert.equal(updates.at(-1)!.chunk, 'partial', 'the end sends everything');
    stream.dispose();
  });
});
