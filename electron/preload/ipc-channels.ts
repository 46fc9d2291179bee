/**
 * The Electron IPC channels between the preload and the main-side binder, the only two
 * places that touch Electron IPC. Requests and host events carry the contract's shapes; menu
 * commands are the one thing the native menu asks of the page.
 */
export const REQUEST_CHANNEL = 'cove:request';
export const EVENT_CHANNEL = 'cove:event';
/** The sessions whose high-rate events a window wants (contract `watchInput`), answered like a request. */
export const WATCH_CHANNEL = 'cove:watch';
export const COMMAND_CHANNEL = 'cove:command';

/** What the native menu (and a clicked notification: open that session) asks the page to do. */
export type MenuCommand = 'newSession' | `openSession:${string}`;
