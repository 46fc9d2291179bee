import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAnsi, tailSpans } from '../../renderer/features/tools/ansi';
import { appendTerminal, EMPTY_TERMINAL } from '../../renderer/features/tools/terminal-buffer';

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
    assert.deepEqual(spans.map((span) => span.style), [{ bold: true, fg: 'var(--ansi-2)', bg: 'var(--ansi-4)' }, { bold: true, bg: 'var(--ansi-4)' }, {}]);
  });

  test('other escape sequences and control characters are removed', () => {
    const spans = parseAnsi('\x1b]0;window title\x07a\x1b[2Kb\x1b[10;5Hc\x1b(Bd\x07e\x1b[?25l');
    assert.deepEqual(spans, [{ text: 'abcde', style: {} }]);
  });

  test('tailSpans keeps the last lines with their styles', () => {
    const spans = parseAnsi('one\n\x1b[31mtwo\nthree\x1b[0m\nfour');
    const tail = tailSpans(spans, 2);
    assert.equal(tail.map((span) => span.text).join(''), 'three\nfour');
    assert.equal(tail[0]?.style.fg, 'var(--ansi-1)');
  });
});

describe('terminal buffer', () => {
  test('carriage returns redraw the line, CRLF split across chunks is one newline', () => {
    let buffer = appendTerminal(EMPTY_TERMINAL, 'progress 10%\rprogress 50%');
    buffer = appendTerminal(buffer, '\rprogress 100%\r');
    buffer = appendTerminal(buffer, '\ndone\n');
    assert.equal(buffer.text, 'progress 100%\ndone\n');
    assert.equal(buffer.breaks, 2);
  });

  test('keeps only the last lines once over the bound', () => {
    let buffer = EMPTY_TERMINAL;
    for (let line = 1; line <= 130; line++) buffer = appendTerminal(buffer, `line ${line}\n`, 100);
    assert.ok(buffer.breaks <= 120, `kept ${buffer.breaks} lines`);
    assert.ok(buffer.text.endsWith('line 130\n'));
    assert.equal(buffer.droppedLines + buffer.breaks, 130);
    assert.ok(buffer.text.startsWith(`line ${buffer.droppedLines + 1}\n`));
  });
});
