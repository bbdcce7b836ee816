#!/bin/sh
# Runs a command as an unprivileged user: as it is when we are not root, else as nobody.
if [ "$(id -u)" != 0 ]; then exec "$@"; fi
exec runuser -u nobody -- "$@"
