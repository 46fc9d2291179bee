/**
 * A session's stored events as their stored JSON text, for a transport that sends JSON text
 * (the WebSocket of `cove serve`): each row goes out as the store holds it, without being
 * parsed into an object and serialized again, which for a long session's log is most of the
 * cost of answering. Transports that need objects (Electron IPC, callers in the process) get
 * the events parsed, as usual; `encodeWithRawEvents` is the one place that writes them out.
 */
import { randomUUID } from 'node:crypto';

export class RawEvents {
  constructor(readonly texts: readonly string[]) {}

  get length(): number {
    return this.texts.length;
  }
}

/** JSON.stringify, except that each `RawEvents` in `value` is written as the array of its texts. */
export function encodeWithRawEvents(value: unknown): string {
  const raws: RawEvents[] = [];
  // A fresh name each time, so no string in the value can pass for a placeholder.
  const marker = `cove-raw-${randomUUID()}-`;
  const text = JSON.stringify(value, (_key, field: unknown) => {
    if (!(field instanceof RawEvents)) return field;
    raws.push(field);
    return `${marker}${raws.length - 1}`;
  });
  if (raws.length === 0) return text;
  let out = text;
  raws.forEach((raw, index) => {
    out = out.replace(`"${marker}${index}"`, () => `[${raw.texts.join(',')}]`);
  });
  return out;
}
