/**
 * The bash deny-pattern guardrail. It catches obvious mistakes (a stray `rm -rf /`), NOT a
 * determined command: `rm  -rf "/"`, a base64-decoded pipe or `find / -delete` walk past it.
 * It is no sandbox; the permission engine is the real gate for bash.
 */

export interface DenyPattern {
  /** What the refusal names. */
  name: string;
  pattern: RegExp;
}

/** Where a command word can start: line start, after a separator, a subshell or sudo. */
const COMMAND_START = String.raw`(?:^|[\n;&|(\x60]|\$\(|\bsudo\s+|\bexec\s+)\s*`;
const DISK_DEVICE = String.raw`\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk)`;
/** rm with a recursive flag (-r, -R, -rf, -fr, --recursive …) among its options. */
const RECURSIVE_RM = String.raw`\brm\s+(?:-{1,2}[\w-]*\s+)*(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(?:\s+-{1,2}[\w-]*)*\s+`;
const END_OF_WORD = String.raw`(?=\s|$|[;&|)])`;

export const DEFAULT_DENY_PATTERNS: readonly DenyPattern[] = [
  { name: 'rm -rf /', pattern: new RegExp(`${RECURSIVE_RM}['"]?\\/\\*?['"]?${END_OF_WORD}`) },
  { name: 'rm -rf ~', pattern: new RegExp(`${RECURSIVE_RM}['"]?(?:~|\\$HOME|\\$\\{HOME\\})\\/?\\*?['"]?${END_OF_WORD}`) },
  { name: 'fork bomb', pattern: /(\w+|:)\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}\s*;\s*\1/ },
  { name: 'mkfs', pattern: new RegExp(`${COMMAND_START}mkfs(?:\\.\\w+)?\\b`) },
  { name: 'dd of=/dev/sd*', pattern: new RegExp(`\\bdd\\b[^\\n;|&]*\\bof=${DISK_DEVICE}`) },
  { name: '> /dev/sda', pattern: new RegExp(`>\\s*${DISK_DEVICE}`) },
  { name: 'chmod -R 777 /', pattern: new RegExp(`\\bch(?:mod|own)\\s+(?:-\\w+\\s+)*-\\w*R\\w*\\s+(?:\\S+\\s+)?\\/${END_OF_WORD}`) },
  {
    name: 'shutdown/reboot',
    pattern: new RegExp(`${COMMAND_START}(?:shutdown|reboot|halt|poweroff|systemctl\\s+(?:poweroff|reboot|halt)|init\\s+[06]${END_OF_WORD})`),
  },
];

/** Configured patterns: a string matches as a plain substring, a RegExp as itself. */
export function toDenyPattern(entry: string | RegExp): DenyPattern {
  if (typeof entry !== 'string') return { name: entry.source, pattern: entry };
  const escaped = entry.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return { name: entry, pattern: new RegExp(escaped) };
}

/** The first pattern the command matches, if any. */
export function matchDenyPattern(command: string, patterns: readonly DenyPattern[]): DenyPattern | undefined {
  return patterns.find((deny) => deny.pattern.test(command));
}
