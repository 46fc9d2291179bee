/**
 * Whether a sed script only prints or edits the stream. GNU sed's `w`, `W`, `r`, `R` commands,
 * the `w` and `e` flags of `s`, and the `e` command read or write files and run commands, so an
 * allow rule for `sed -n` must not cover them (aliyun/iac-code #88; Codex allows only `sed -n Np`).
 * The reading is an allowlist: addresses, then one of the stream commands, or `s`/`y` with their
 * delimiters; anything else is not safe.
 */
const SED_SAFE_COMMAND = /^[pdDqQ=lnNgGhHxPz{}]$/;

export function sedScriptIsSafe(script: string): boolean {
  let index = 0;
  const skipBlank = () => {
    while (index < script.length && /[\s;]/.test(script[index]!)) index++;
  };
  const delimited = (delimiter: string) => {
    while (index < script.length && script[index] !== delimiter) index += script[index] === '\\' ? 2 : 1;
    if (index >= script.length) return false;
    index++;
    return true;
  };
  const address = () => {
    if (script[index] === '$') index++;
    else if (/\d/.test(script[index] ?? '')) while (/[\d~]/.test(script[index] ?? '')) index++;
    else if (script[index] === '/' || script[index] === '\\') {
      const delimiter = script[index] === '\\' ? script[++index]! : '/';
      index++;
      if (!delimited(delimiter)) return false;
      while (/[IM]/.test(script[index] ?? '')) index++;
    }
    return true;
  };
  skipBlank();
  while (index < script.length) {
    if (!address()) return false;
    if (script[index] === ',') {
      index++;
      if (script[index] === '+' || script[index] === '~') index++;
      if (!address()) return false;
    }
    while (script[index] === ' ' || script[index] === '!') index++;
    const command = script[index++];
    if (command === undefined) return false;
    if (command === 's' || command === 'y') {
      const delimiter = script[index++];
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return false;
      if (!delimited(delimiter) || !delimited(delimiter)) return false;
      if (command === 's') while (/[gpiImM0-9]/.test(script[index] ?? '')) index++;
    } else if (!SED_SAFE_COMMAND.test(command)) return false;
    if (command === '{') {
      skipBlank();
      continue;
    }
    if (command === 'q' || command === 'Q') while (/\d/.test(script[index] ?? '')) index++;
    while (script[index] === ' ') index++;
    if (index < script.length && !/[;\n}]/.test(script[index]!)) return false;
    skipBlank();
  }
  return true;
}
