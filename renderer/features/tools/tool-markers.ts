/**
 * Model-facing markers taken out of what people see. Tools write for the model: file tags
 * (`[src/calc.js#yyqsy5]`, "Tag: […]") that hashline edits check, line-number gutters, exit-code
 * trailers and paging hints addressed to the model. The card shows the same facts in its own
 * way (a path, a gutter, a Failed state); the result the model gets is never changed.
 */

/** read_file's gutter separator (LINE_NUMBER_SEPARATOR of electron/core/tools/read-file.ts). */
const GUTTER = '│';
const TAG = '[0-9a-z]{6}';
const TAG_SENTENCE = new RegExp(`\\s*Tag: \\[[^\\]\\n]+#${TAG}\\]`, 'g');
const TAGGED_PATH = new RegExp(`\\[([^\\]\\n#]+)#${TAG}\\]`, 'g');
const EXIT_TRAILER = /\n?\[(?:exit code -?\d+|killed by signal \w+)\]\s*$/;
const PAGING_HINT = /; call read_file with offset=\d+ to continue/g;
const HEADER = new RegExp(`^\\[([^\\]\\n]+)#${TAG}\\]$`);
const NUMBERED = new RegExp(`^ *(\\d+)${GUTTER}(.*)$`);

/** The text with every marker taken out (tagged paths keep their path). */
export function stripMarkers(text: string): string {
  return text.replace(TAG_SENTENCE, '').replace(TAGGED_PATH, '$1').replace(EXIT_TRAILER, '').replace(PAGING_HINT, '');
}

export interface NumberedFile {
  path: string;
  /** The number of the first line shown. */
  firstLine: number;
  lines: string[];
  /** What followed the lines ("… 120 more lines"), without the hint addressed to the model. */
  note: string | null;
}

/** read_file's page (a tagged header, then numbered lines) as a file view; null for anything else. */
export function parseNumberedFile(text: string): NumberedFile | null {
  const rows = text.split('\n');
  const header = HEADER.exec(rows[0] ?? '');
  if (!header) return null;
  const lines: string[] = [];
  let firstLine = 0;
  let index = 1;
  for (; index < rows.length; index++) {
    const numbered = NUMBERED.exec(rows[index]!);
    if (!numbered) break;
    if (lines.length === 0) firstLine = Number(numbered[1]);
    lines.push(numbered[2]!);
  }
  if (lines.length === 0) return null;
  const rest = stripMarkers(rows.slice(index).join('\n')).trim();
  return { path: header[1]!, firstLine, lines, note: rest === '' ? null : rest };
}
