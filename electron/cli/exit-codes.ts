/** Exit codes of `cove`: 0 the run ended normally, 1 it failed or hit a limit, 2 bad usage, 130 stopped. */
export const EXIT = { ok: 0, failed: 1, usage: 2, stopped: 130 } as const;
