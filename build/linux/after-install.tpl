#!/bin/bash
# Cove's deb and rpm after-install script (electron-builder fills in the names; shell variables
# are written $name, never with braces, which electron-builder would take for its own macros).
#
# It differs from electron-builder's own script in one place: that one decides whether
# chrome-sandbox must be setuid by running `unshare --user true`, but package scripts run as
# root, and root may create user namespaces where normal users may not (AppArmor's
# apparmor_restrict_unprivileged_userns, Debian's unprivileged_userns_clone). The check passed
# wrongly, chrome-sandbox stayed 0755, and the app aborted for every normal user. Here the
# kernel's settings are read, and the test runs as an unprivileged user.

app_dir='/opt/${sanitizedProductName}'
executable='${executable}'

if type update-alternatives >/dev/null 2>&1; then
    if [ -L "/usr/bin/$executable" -a -e "/usr/bin/$executable" -a "$(readlink "/usr/bin/$executable")" != "/etc/alternatives/$executable" ]; then
        rm -f "/usr/bin/$executable"
    fi
    update-alternatives --install "/usr/bin/$executable" "$executable" "$app_dir/$executable" 100 || ln -sf "$app_dir/$executable" "/usr/bin/$executable"
else
    ln -sf "$app_dir/$executable" "/usr/bin/$executable"
fi

if hash update-mime-database 2>/dev/null; then
    update-mime-database /usr/share/mime || true
fi
if hash update-desktop-database 2>/dev/null; then
    update-desktop-database /usr/share/applications || true
fi

# Whether a normal user is refused unprivileged user namespaces.
userns_restricted() {
    [ "$(cat /proc/sys/kernel/apparmor_restrict_unprivileged_userns 2>/dev/null)" = 1 ] && return 0
    [ "$(cat /proc/sys/kernel/unprivileged_userns_clone 2>/dev/null)" = 0 ] && return 0
    [ "$(cat /proc/sys/user/max_user_namespaces 2>/dev/null)" = 0 ] && return 0
    [ -L /proc/self/ns/user ] || return 0
    if hash setpriv 2>/dev/null; then
        setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user true >/dev/null 2>&1 || return 0
    fi
    return 1
}

# Loads an AppArmor profile when this AppArmor understands it (Ubuntu 22.04 has no abi/4.0 and
# needs none). Succeeds only when the profile is in force.
install_profile() {
    source_file=$1
    target_file=$2
    apparmor_parser --skip-kernel-load --debug "$source_file" >/dev/null 2>&1 || return 1
    cp -f "$source_file" "$target_file" || return 1
    # In a chroot (image builds) the kernel's profiles are not ours to change.
    if [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; then
        return 1
    fi
    apparmor_parser --replace --write-cache --skip-read-cache "$target_file" >/dev/null 2>&1
}

# Whether a profile other than ours attaches to /usr/bin/bwrap: its header names the path
# (`profile NAME /usr/bin/bwrap …` or `/usr/bin/bwrap {`); rules that merely run bwrap do not count.
bwrap_has_profile() {
    for profile in /etc/apparmor.d/*; do
        [ -f "$profile" ] && [ "$profile" != /etc/apparmor.d/cove-bwrap ] || continue
        grep -qE '^[[:space:]]*(profile[[:space:]]+[^[:space:]]+[[:space:]]+)?"?/usr/bin/bwrap"?[[:space:]]*(flags=.*)?\{?[[:space:]]*$' "$profile" && return 0
    done
    return 1
}

app_profile_loaded=no
if apparmor_status --enabled >/dev/null 2>&1 && hash apparmor_parser 2>/dev/null; then
    if install_profile "$app_dir/resources/apparmor-profile" "/etc/apparmor.d/$executable"; then
        app_profile_loaded=yes
    else
        echo "Cove: the AppArmor profile was not loaded (this AppArmor does not support it, or this is a chroot)"
    fi
    # Another profile for bwrap (Ubuntu's bwrap-userns-restrict, a distribution's own) wins.
    if [ -x /usr/bin/bwrap ] && ! bwrap_has_profile; then
        install_profile "$app_dir/resources/apparmor-bwrap" /etc/apparmor.d/cove-bwrap ||
            echo "Cove: the AppArmor profile for bwrap was not loaded; the bash sandbox may be unavailable"
    fi
fi

# chrome-sandbox is setuid only where Chromium cannot have a user namespace: a setuid binary is
# attack surface nobody needs where namespaces work.
if userns_restricted && [ "$app_profile_loaded" != yes ]; then
    chmod 4755 "$app_dir/chrome-sandbox" || true
else
    chmod 0755 "$app_dir/chrome-sandbox" || true
fi
