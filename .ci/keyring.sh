# Sourced by the .ci scripts. `in_keyring_session SCRIPT`: on Linux without a running Secret Service,
# re-runs SCRIPT inside a private D-Bus session with an unlocked gnome-keyring and a throwaway HOME,
# so keytar talks to a real keychain. Elsewhere (or once inside that session) it returns and the
# caller goes on.
in_keyring_session() {
  if [ "$(uname -s)" = "Linux" ] && [ -z "${AGENT_DESK_KEYRING_SESSION:-}" ] \
    && command -v dbus-run-session >/dev/null && command -v gnome-keyring-daemon >/dev/null; then
    export AGENT_DESK_KEYRING_SESSION=1
    HOME="$(mktemp -d)"
    export HOME
    exec dbus-run-session -- bash -c "echo -n ci-keyring | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec bash $1"
  fi
}
