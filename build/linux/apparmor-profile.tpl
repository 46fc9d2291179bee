# Cove's AppArmor profile (electron-builder fills in the names). Ubuntu 23.10 and later refuse
# unprivileged user namespaces to programs without a profile that grants `userns`, and Chromium's
# sandbox needs one; this is the profile Chrome, VS Code and Cursor ship for the same reason.
# Unconfined otherwise: it adds one permission, it takes none away.
abi <abi/4.0>,
include <tunables/global>

profile "${executable}" "/opt/${sanitizedProductName}/${executable}" flags=(unconfined) {
  userns,

  include if exists <local/${executable}>
}
