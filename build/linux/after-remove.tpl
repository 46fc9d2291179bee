#!/bin/bash
# Cove's deb and rpm after-remove script: the link, then both AppArmor profiles, unloaded before
# their files go so no policy stays in force until the next reboot. Shell variables are written
# without braces (see after-install.tpl).

app_dir='/opt/${sanitizedProductName}'
executable='${executable}'

if type update-alternatives >/dev/null 2>&1; then
    update-alternatives --remove "$executable" "$app_dir/$executable"
else
    rm -f "/usr/bin/$executable"
fi

for profile in "/etc/apparmor.d/$executable" /etc/apparmor.d/cove-bwrap; do
    [ -f "$profile" ] || continue
    if apparmor_status --enabled >/dev/null 2>&1 && hash apparmor_parser 2>/dev/null; then
        if ! { [ -x /usr/bin/ischroot ] && /usr/bin/ischroot; }; then
            apparmor_parser --remove "$profile" || true
        fi
    fi
    rm -f "$profile"
done
