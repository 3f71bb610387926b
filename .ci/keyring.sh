# Sourced by the .ci scripts. `in_keyring_session SCRIPT`: on Linux without a running Secret Service,
# runs SCRIPT inside a private D-Bus session with an unlocked gnome-keyring and a throwaway HOME
# (removed after), so keytar talks to a real keychain, and exits with SCRIPT's status. Elsewhere
# (or once inside that session) it returns and the caller goes on.
in_keyring_session() {
  if [ "$(uname -s)" = "Linux" ] && [ -z "${AGENT_DESK_KEYRING_SESSION:-}" ] \
    && command -v dbus-run-session >/dev/null && command -v gnome-keyring-daemon >/dev/null; then
    export AGENT_DESK_KEYRING_SESSION=1
    local home rc=0
    home="$(mktemp -d)"
    HOME="$home" dbus-run-session -- bash -c "echo -n ci-keyring | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec bash $1" || rc=$?
    rm -rf "$home" # the throwaway HOME (its keyring and caches) goes with the session
    exit "$rc"
  fi
}
