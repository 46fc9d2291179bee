/**
 * A problem the person fixes before anything runs: a bad flag, a missing API key, a malformed
 * settings file. Hosts show its message as it is (one line, naming what was wrong) and the CLI
 * exits with its usage code. Kept in a module of its own so a host can recognise it without
 * loading what threw it.
 */
export class SetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
