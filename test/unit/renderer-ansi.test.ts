import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAnsi, parseAnsiFrom, styleAfter } from '../../renderer/features/tools/ansi';
import { appendTerminal, EMPTY_TERMINAL, lineSpans, MAX_LINE_CHARS, partialLine, terminalLineCount, terminalText, type TerminalBuffer } from '../../renderer/features/tools/terminal-buffer';

describe('ANSI parser', () => {
  test('16 colors, bold and reset', () => {
    const spans = parseAnsi('plain \x1b[1;31mred bold\x1b[0m back');
    assert.deepEqual(spans, [
      { text: 'plain ', style: {} },
      { text: 'red bold', style: { bold: true, fg: 'var(--ansi-1)' } },
      { text: ' back', style: {} },
    ]);
  });

  test('bright, 256-color and truecolor foreground and background', () => {
    const [bright, cube, gray, rgb] = parseAnsi('\x1b[92ma\x1b[38;5;196mb\x1b[48;5;244mc\x1b[0;38;2;10;20;30;48;2;1;2;3md');
    assert.equal(bright?.style.fg, 'var(--ansi-10)');
    assert.equal(cube?.style.fg, 'rgb(255, 0, 0)');
    assert.equal(gray?.style.bg, 'rgb(128, 128, 128)');
    assert.deepEqual(rgb?.style, { fg: 'rgb(10, 20, 30)', bg: 'rgb(1, 2, 3)' });
  });

  test('39 and 49 reset one color; 22 ends bold', () => {
    const spans = parseAnsi('\x1b[1;32;44mx\x1b[39my\x1b[49;22mz');
    assert.deepEqual(
      spans.map((span) => span.style),
      [{ bold: true, fg: 'var(--ansi-2)', bg: 'var(--ansi-4)' }, { bold: true, bg: 'var(--ansi-4)' }, {}],
    );
  });

  test('other escape sequences and control characters are removed', () => {
    const spans = parseAnsi('\x1b]0;window title\x07a\x1b[2Kb\x1b[10;5Hc\x1b(Bd\x07e\x1b[?25l');
    assert.deepEqual(spans, [{ text: 'abcde', style: {} }]);
  });

  test('a line parsed from a style starts in it and says where it ends', () => {
    const red = parseAnsiFrom('one\x1b[31mtwo', {}).style;
    const next = parseAnsiFrom('three\x1b[1m', red);
    assert.deepEqual(next.spans, [{ text: 'three', style: { fg: 'var(--ansi-1)' } }]);
    assert.deepEqual(next.style, { fg: 'var(--ansi-1)', bold: true });
    assert.deepEqual(styleAfter('a\x1b[32mb\x1b]0;title\x07c\x1b[4m', {}), { fg: 'var(--ansi-2)', underline: true });
    const plain = {};
    assert.equal(styleAfter('no escapes at all', plain), plain, 'plain text keeps the very style object');
    assert.deepEqual(styleAfter('\x1b[1mbold\x1b[0m then \x1b[33myellow', { fg: 'var(--ansi-1)' }), { fg: 'var(--ansi-3)' }, 'nothing before a full reset carries over');
    assert.deepEqual(styleAfter('\x1b[1mbold\x1b[m', { fg: 'var(--ansi-1)' }), {});
    assert.deepEqual(styleAfter('\x1b[10m\x1b[4m', { fg: 'var(--ansi-1)' }), { fg: 'var(--ansi-1)', underline: true }, 'a code that only starts like a reset is not one');
  });
});

/** Each finished line as `text` or `text{fg}` per span, for comparing what two buffers draw. */
function drawn(buffer: TerminalBuffer): string[] {
  const lines = [...buffer.head, ...buffer.lines.slice(buffer.start, buffer.end)];
  return [...lines, partialLine(buffer)].map((line) =>
    lineSpans(line)
      .map((span) => span.text + (span.style.fg ? `{${span.style.fg}}` : ''))
      .join(''),
  );
}

function feed(chunks: string[], maxLines?: number, headLines?: number): TerminalBuffer {
  return chunks.reduce((buffer, chunk) => appendTerminal(buffer, chunk, maxLines, headLines), EMPTY_TERMINAL);
}

describe('terminal buffer', () => {
  test('carriage returns redraw the line, CRLF split across chunks is one newline', () => {
    const buffer = feed(['progress 10%\rprogress 50%', '\rprogress 100%\r', '\ndone\n']);
    assert.equal(terminalText(buffer), 'progress 100%\ndone\n');
    assert.equal(terminalLineCount(buffer), 2);
  });

  test('a redrawn line keeps the colors set on it before the carriage return', () => {
    const buffer = feed(['\x1b[32mworking 1\r', 'working 2\rdone\n']);
    assert.deepEqual(drawn(buffer), ['done{var(--ansi-2)}', '']);
  });

  test('keeps the first and the last lines once over the bound, and counts those left out between', () => {
    let buffer = EMPTY_TERMINAL;
    for (let line = 1; line <= 130; line++) buffer = appendTerminal(buffer, `line ${line}\n`, 100, 10);
    assert.equal(terminalLineCount(buffer), 110);
    assert.equal(buffer.droppedLines, 20);
    assert.equal(buffer.head.length, 10);
    assert.ok(terminalText(buffer).startsWith('line 1\nline 2\n'));
    assert.ok(terminalText(buffer).includes('line 10\nline 31\n'), 'the tail starts right after the lines left out');
    assert.ok(terminalText(buffer).endsWith('line 130\n'));
  });

  test('a flood in one chunk keeps its head and its tail, never splitting the middle', () => {
    const buffer = feed(['\x1b[33m' + Array.from({ length: 100_000 }, (_, index) => `row ${index}`).join('\n') + '\nlast'], 1000, 50);
    assert.equal(buffer.head.length, 50);
    assert.equal(buffer.end - buffer.start, 1000);
    assert.equal(buffer.droppedLines, 100_000 - 50 - 1000);
    assert.equal(drawn(buffer)[0], 'row 0{var(--ansi-3)}');
    assert.equal(drawn(buffer)[50], `row ${100_000 - 1000}{var(--ansi-3)}`);
    assert.equal(drawn(buffer).at(-1), 'last{var(--ansi-3)}');
  });

  test('any split of the output into chunks draws the same lines, colors and counts', () => {
    const colors = ['\x1b[31m', '\x1b[0m', '\x1b[1;34m', ''];
    let output = '';
    for (let line = 0; line < 400; line++) output += `${colors[line % 4]}row ${line}${line % 7 === 0 ? '\r\n' : line % 11 === 0 ? '\rover ' + line + '\n' : '\n'}`;
    output += 'unfinished';
    const whole = feed([output], 50, 20);
    for (const size of [1, 3, 17, 256, 5000]) {
      const chunks: string[] = [];
      for (let at = 0; at < output.length; at += size) chunks.push(output.slice(at, at + size));
      const split = feed(chunks, 50, 20);
      assert.deepEqual(drawn(split), drawn(whole), `chunks of ${size}`);
      assert.equal(split.droppedLines, whole.droppedLines, `chunks of ${size}`);
    }
    assert.equal(whole.droppedLines + terminalLineCount(whole), 401);
    assert.equal(drawn(whole).at(-1), 'unfinished{var(--ansi-4)}');
    const colored = feed(['\x1b[35m' + 'x\n'.repeat(400) + 'end'], 50, 20);
    assert.equal(drawn(colored).at(-1), 'end{var(--ansi-5)}', 'a color set in lines dropped unsplit still applies');
  });

  test('an older version stays as it was when a newer one grows, and can grow on its own', () => {
    const base = feed(['a\nb\n']);
    const grown = appendTerminal(base, 'c\n');
    const other = appendTerminal(base, 'x\n');
    assert.equal(terminalText(base), 'a\nb\n');
    assert.equal(terminalText(grown), 'a\nb\nc\n');
    assert.equal(terminalText(other), 'a\nb\nx\n');
    assert.equal(terminalText(appendTerminal(grown, 'd\n')), 'a\nb\nc\nd\n');
  });

  test('a line that never ends is broken into drawable pieces', () => {
    const buffer = feed(['y'.repeat(MAX_LINE_CHARS), 'y'.repeat(MAX_LINE_CHARS + 10)]);
    assert.equal(terminalLineCount(buffer), 3);
    assert.equal(buffer.partial.length, 10);
    assert.equal(terminalText(buffer).length, 2 * MAX_LINE_CHARS + 10 + 2);
  });
});
