/**
 * Fills a command's template with what followed `/name`: `$ARGUMENTS` is all of it, `$1`, `$2`…
 * each word (quotes group words, as in a shell). A template that uses neither still gets the
 * arguments, appended as Claude Code does, so `/review src/app.ts` never drops what was typed.
 */

export function splitArguments(text: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const match of text.matchAll(pattern)) words.push(match[1]?.replace(/\\(.)/g, '$1') ?? match[2] ?? match[3]!);
  return words;
}

export function expandCommand(template: string, args: string): string {
  const trimmed = args.trim();
  const words = splitArguments(trimmed);
  let used = false;
  const expanded = template.replace(/\$ARGUMENTS\b|\$(\d+)/g, (_match, index: string | undefined) => {
    used = true;
    if (index === undefined) return trimmed;
    return words[Number(index) - 1] ?? '';
  });
  if (used || trimmed === '') return expanded;
  return `${expanded}\n\nARGUMENTS: ${trimmed}`;
}
