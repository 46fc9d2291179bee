/**
 * Escape sequences that are never closed, cut short or oversized (cases after xterm's ctlseqs,
 * xterm.js' EscapeSequenceParser tests and vte's edge cases): the model's copy drops each only up
 * to a bound and never the lines after it, whole or fed in pieces, and through bash in a real PTY.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_STRING_SEQUENCE, stripAnsi, TerminalTextCleaner } from '../../electron/core/tools/ansi';
import { bashTool } from '../../electron/core/tools/bash';
import { makeContext, removeFolder, tempFolder, textOf } from './helpers/tool-context';

const ESC = '\x1b';
const BEL = '\x07';
const ST = `${ESC}\\`;
const payload = (length: number) => 'QUJD'.repeat(Math.ceil(length / 4)).slice(0, length);

/** Raw output and the text the model must see. */
const CASES: { name: string; raw: string; text: string }[] = [
  { name: 'CSI without a final byte, then a line', raw: `a${ESC}[1\ndone\n`, text: 'a\ndone\n' },
  { name: 'CSI cut after its intermediates', raw: `x${ESC}[38;5 \nnext\n`, text: 'x\nnext\n' },
  { name: 'CSI aborted by CAN', raw: `${ESC}[31\x18red\n`, text: 'red\n' },
  { name: 'OSC title never terminated', raw: `${ESC}]0;my title\nafter\n`, text: '\nafter\n' },
  { name: 'OSC 8 hyperlink never closed', raw: `${ESC}]8;;https://example.com\nafter\n`, text: '\nafter\n' },
  { name: 'OSC ended by the 8-bit ST', raw: `${ESC}]0;t\x9cafter\n`, text: 'after\n' },
  { name: 'OSC aborted by CAN', raw: `${ESC}]0;t\x18after\n`, text: 'after\n' },
  { name: 'OSC ended by another escape', raw: `${ESC}]0;t${ESC}[1mbold\n`, text: 'bold\n' },
  { name: '8-bit OSC with BEL', raw: `\x9d0;t${BEL}after\n`, text: 'after\n' },
  { name: 'DCS (sixel) never terminated', raw: `${ESC}Pq#0;2;0;0;0\nafter\n`, text: '\nafter\n' },
  { name: 'APC (kitty graphics) never terminated', raw: `${ESC}_Gf=100;${payload(40)}\nafter\n`, text: '\nafter\n' },
  { name: 'PM never terminated', raw: `${ESC}^privacy message\nafter\n`, text: '\nafter\n' },
  { name: 'SOS never terminated', raw: `${ESC}Xstart of string\nafter\n`, text: '\nafter\n' },
  { name: 'an ESC at the very end', raw: `done${ESC}`, text: 'done' },
  { name: 'an ESC before a line break', raw: `a${ESC}\nb\n`, text: 'a\nb\n' },
  { name: 'complete sequences still go', raw: `${ESC}[1;31mred${ESC}[0m ${ESC}]8;;http://a${ST}link${ESC}]8;;${ST} ${ESC}(B${ESC}7${ESC}=${ESC}P+q544e${ST}ok\n`, text: 'red link ok\n' },
  { name: 'an OSC 52 copy of 60 KB, terminated', raw: `${ESC}]52;c;${payload(60_000)}${BEL}after\n`, text: 'after\n' },
  {
    name: 'an OSC 52 copy of 1 MB, never terminated',
    raw: `${ESC}]52;c;${payload(1_000_000)}\nafter\n`,
    text: `${`52;c;${payload(1_000_000)}`.slice(MAX_STRING_SEQUENCE)}\nafter\n`,
  },
  { name: 'a CSI of 10,000 parameters', raw: `${ESC}[${'1;'.repeat(5000)}m\nafter\n`, text: `${'1;'.repeat(5000).slice(256)}m\nafter\n` },
];

/** The cleaner fed `raw` in pieces of `size` characters. */
function streamed(raw: string, size: number): string {
  const cleaner = new TerminalTextCleaner(Number.MAX_SAFE_INTEGER);
  let out = '';
  for (let start = 0; start < raw.length; start += size) out += cleaner.push(raw.slice(start, start + size));
  return out + cleaner.flush();
}

describe('escape sequences that are never closed', () => {
  for (const { name, raw, text } of CASES) {
    test(name, () => {
      assert.equal(stripAnsi(raw), text, 'whole');
      for (const size of [raw.length, 4096, 7, 1]) {
        if (size === 1 && raw.length > 100_000) continue;
        assert.equal(streamed(raw, size), text, `in pieces of ${size}`);
      }
    });
  }

  test('an open string is dropped as it arrives: a drained cleaner goes on dropping it', () => {
    const first = new TerminalTextCleaner();
    assert.equal(first.push(`line\n${ESC}]0;ti`), 'line\n');
    const second = new TerminalTextCleaner();
    assert.equal(second.push(first.drain()) + second.push(`tle${BEL}after\n`), 'after\n');
  });
});

describe('through bash in a real PTY', () => {
  test("printf 'a\\033[1'; echo; echo done keeps done, and so does every unclosed sequence", async () => {
    const root = tempFolder('escapes');
    try {
      const ctx = makeContext([root]);
      const command = [
        `printf 'a\\033[1'; echo; echo done`,
        `printf '\\033]0;title'; echo; echo osc-done`,
        `printf '\\033Pq#0'; echo; echo dcs-done`,
        `printf '\\033_Gf=1'; echo; echo apc-done`,
        `printf 'end\\033'; echo; echo esc-done`,
      ].join('; ');
      const text = textOf(await bashTool.execute({ command }, ctx));
      assert.match(text, /^a\ndone\n\nosc-done\n\ndcs-done\n\napc-done\nend\nesc-done\n/, text);
    } finally {
      removeFolder(root);
    }
  });
});
