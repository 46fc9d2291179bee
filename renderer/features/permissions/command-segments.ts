/** Cuts a command into runs of text under the same marks, so overlapping and nested marks both draw. */
import type { CommandMark } from '../../../shared/events';

export interface MarkSegment {
  text: string;
  start: number;
  end: number;
  /** The marks over this run, the narrowest first: it decides the colour, the others the tooltip. */
  marks: CommandMark[];
  /** The marks that end with this run, for their numbers. */
  ending: CommandMark[];
}

export function segmentMarks(command: string, marks: readonly CommandMark[]): MarkSegment[] {
  const cuts = new Set([0, command.length]);
  for (const mark of marks) {
    cuts.add(Math.max(0, Math.min(command.length, mark.start)));
    cuts.add(Math.max(0, Math.min(command.length, mark.end)));
  }
  const points = [...cuts].sort((a, b) => a - b);
  const segments: MarkSegment[] = [];
  for (let index = 0; index + 1 < points.length; index++) {
    const start = points[index]!;
    const end = points[index + 1]!;
    const over = marks.filter((mark) => mark.start <= start && mark.end >= end).sort((a, b) => a.end - a.start - (b.end - b.start));
    segments.push({ text: command.slice(start, end), start, end, marks: over, ending: marks.filter((mark) => mark.end === end && mark.start < end) });
  }
  return segments;
}
