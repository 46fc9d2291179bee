/** Search snippets mark matches with «…»; they become highlighted segments. */

export interface SnippetSegment {
  text: string;
  match: boolean;
}

export function snippetSegments(snippet: string): SnippetSegment[] {
  const segments: SnippetSegment[] = [];
  const pattern = /«([^«»]*)»/g;
  let start = 0;
  for (let found = pattern.exec(snippet); found; found = pattern.exec(snippet)) {
    if (found.index > start) segments.push({ text: snippet.slice(start, found.index), match: false });
    if (found[1] !== '') segments.push({ text: found[1]!, match: true });
    start = found.index + found[0].length;
  }
  if (start < snippet.length) segments.push({ text: snippet.slice(start), match: false });
  return segments;
}
