/**
 * The window's size and position, remembered in `<dataDir>/window-state.json` and checked
 * against the displays of today before use: a monitor unplugged since, or a laptop moved to a
 * smaller screen, must not put the window where nobody can see or grab it. Pure but for the
 * file, so every case is tested with simulated displays.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Rectangle;
  maximized: boolean;
}

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_SIZE = { width: 1280, height: 840 };
export const MINIMUM_SIZE = { width: 720, height: 480 };
/** How much of the title bar must lie on a display for the window to be reachable. */
const VISIBLE = { width: 120, height: 40 };

function isRectangle(value: unknown): value is Rectangle {
  if (!value || typeof value !== 'object') return false;
  const { x, y, width, height } = value as Record<string, unknown>;
  return [x, y, width, height].every((n) => typeof n === 'number' && Number.isFinite(n)) && (width as number) > 0 && (height as number) > 0;
}

/** The saved state, or undefined when there is none or it is unreadable (a fresh start is no loss). */
export function readWindowState(dataDir: string, log: (message: string) => void): WindowState | undefined {
  const path = join(dataDir, WINDOW_STATE_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as { bounds?: unknown; maximized?: unknown };
    if (!isRectangle(value.bounds)) throw new Error('bounds must be {x, y, width, height} with positive sizes');
    return { bounds: value.bounds, maximized: value.maximized === true };
  } catch (error) {
    log(`ignored ${path}: ${(error as Error).message}`);
    return undefined;
  }
}

export function writeWindowState(dataDir: string, state: WindowState): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, WINDOW_STATE_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

function overlap(a: Rectangle, b: Rectangle): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

/**
 * Where to open the window: the saved bounds when their title bar lies on one of `workAreas`
 * (each display's area without dock and taskbars), shrunk to fit that display; else the default
 * size centred on the primary display (`workAreas[0]`). Undefined position means "let the OS
 * place it".
 */
export function initialBounds(saved: WindowState | undefined, workAreas: readonly Rectangle[]): { bounds: Partial<Rectangle> & { width: number; height: number }; maximized: boolean } {
  const fallback = { bounds: { ...DEFAULT_SIZE }, maximized: false };
  if (!saved) return fallback;
  const titleBar = { ...saved.bounds, height: Math.min(saved.bounds.height, VISIBLE.height) };
  const area = workAreas.find((candidate) => {
    const seen = overlap(titleBar, candidate);
    return seen.width >= Math.min(VISIBLE.width, saved.bounds.width) && seen.height >= Math.min(VISIBLE.height, titleBar.height);
  });
  if (!area) return { bounds: { ...DEFAULT_SIZE }, maximized: saved.maximized };
  const width = Math.max(MINIMUM_SIZE.width, Math.min(saved.bounds.width, area.width));
  const height = Math.max(MINIMUM_SIZE.height, Math.min(saved.bounds.height, area.height));
  const x = Math.min(Math.max(saved.bounds.x, area.x), area.x + area.width - Math.min(width, area.width));
  const y = Math.min(Math.max(saved.bounds.y, area.y), area.y + area.height - Math.min(height, area.height));
  return { bounds: { x, y, width, height }, maximized: saved.maximized };
}
