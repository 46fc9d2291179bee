// Whether Electron's Chromium can start its sandbox on this Linux, checked before `npm start`
// launches it, so a person gets the fix instead of Chromium's abort ("The SUID sandbox helper
// binary was found, but is not configured correctly").
//
// Chromium sandboxes its renderers with an unprivileged user namespace, or, where it may not
// create one, with the setuid helper chrome-sandbox beside the binary. npm cannot make that
// helper setuid root, and Ubuntu 23.10 and later refuse user namespaces to programs without an
// AppArmor profile (kernel.apparmor_restrict_unprivileged_userns); Debian's older kernels had
// kernel.unprivileged_userns_clone. The packaged deb and rpm install a profile instead
// (build/linux/); a checkout's Electron has none.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const defaults = {
  read: (path) => {
    try {
      return readFileSync(path, 'utf8').trim();
    } catch {
      return undefined;
    }
  },
  stat: (path) => {
    try {
      return statSync(path);
    } catch {
      return undefined;
    }
  },
};

/** Which kernel setting refuses unprivileged user namespaces, or null when none does. */
export function usernsRestriction({ read = defaults.read } = {}) {
  if (read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') return 'kernel.apparmor_restrict_unprivileged_userns = 1 (AppArmor)';
  if (read('/proc/sys/kernel/unprivileged_userns_clone') === '0') return 'kernel.unprivileged_userns_clone = 0';
  if (read('/proc/sys/user/max_user_namespaces') === '0') return 'user.max_user_namespaces = 0';
  return null;
}

/**
 * Null when Electron at `electronPath` can sandbox itself here; else what stops it and the one
 * command that fixes it. Root is not checked: scripts/start.mjs passes --no-sandbox there.
 */
export function chromiumSandboxProblem({ electronPath, platform = process.platform, uid = process.getuid?.(), read = defaults.read, stat = defaults.stat }) {
  if (platform !== 'linux' || uid === 0) return null;
  const restriction = usernsRestriction({ read });
  if (!restriction) return null;
  const helper = join(dirname(electronPath), 'chrome-sandbox');
  const helperStat = stat(helper);
  const setuidRoot = helperStat !== undefined && helperStat.uid === 0 && (helperStat.mode & 0o4000) !== 0;
  if (setuidRoot) return null;
  return {
    reason: `this Linux refuses unprivileged user namespaces (${restriction}) and ${helper} is not setuid root, so Chromium's sandbox cannot start`,
    fix: `sudo chown root:root '${helper}' && sudo chmod 4755 '${helper}'`,
  };
}
