/**
 * How wide inline Markdown text is drawn, estimated from its letters without asking the page
 * (which would lay it out): for the columns of a long table (./MarkdownTable.tsx). Em per
 * letter, on the wide side of common sans-serif fonts (DejaVu Sans, Segoe UI, Helvetica), so
 * a cell rarely wraps for want of a fraction of a letter.
 */
import type { Inline } from './markdown-parser';

/** Room for rounding and the odd wide letter, in em. */
const SLACK_EM = 0.6;

export function inlineWidth(nodes: readonly Inline[]): number {
  return nodes.length === 0 ? 0 : widthOf(nodes, 1) + SLACK_EM;
}

function widthOf(nodes: readonly Inline[], scale: number): number {
  let width = 0;
  for (const node of nodes) {
    if (node.type === 'text') width += textWidth(node.text) * scale;
    // Monospace at about 0.6 em a letter, with padding on both sides (transcript.css).
    else if (node.type === 'code') width += node.text.length * 0.6 + 0.6;
    else if (node.type === 'strong') width += widthOf(node.children, scale * 1.1);
    else if (node.type !== 'break') width += widthOf(node.children, scale);
  }
  return width;
}

export function textWidth(text: string): number {
  let width = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 32) width += 0.32;
    else if (code >= 48 && code <= 57) width += 0.64;
    else if (code >= 65 && code <= 90) width += 0.7;
    // Narrow letters and punctuation: i j l t f r . , : ; ' | ! /
    else if ("ijltfr.,:;'|!/".includes(text[index]!)) width += 0.34;
    else if (code === 109 || code === 119) width += 0.9;
    // Wide scripts (CJK, emoji) take about a full em.
    else if (code >= 0x1100) width += 1;
    else width += 0.56;
  }
  return width;
}
