#!/usr/bin/env bash
# Brings up Podman as a second engine of the Docker API, beside setup-ci.sh's dockerd: `podman system service` on a
# socket in the engines folder, its storage there too, with the runc runtime (crun refuses this kind of machine's
# cgroup layout) and no default ulimits (containers.conf), and setup-ci.sh's test image copied over from Docker
# (`docker save | podman load`). Run after setup-ci.sh, with its DOCKER_HOST exported; stdout holds the `export` line:
# eval "$(bash test/environments/setup-podman.sh)"
set -euo pipefail
log() { printf '[setup-podman] %s\n' "$*" >&2; }
started=$(date +%s)

state=${TOOLHOST_ENGINES_DIR:-/tmp/toolhost-engines}
image=toolhost-test:busybox
socket="$state/podman.sock"
mkdir -p "$state"

if ! command -v podman >/dev/null || ! command -v runc >/dev/null; then
  log "installing podman, runc"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq podman runc >&2
fi

export CONTAINERS_CONF="$state/containers.conf"
cat >"$CONTAINERS_CONF" <<CONF
[containers]
default_ulimits = []

[engine]
runtime = "runc"
CONF
podman=(podman --root "$state/podman-root" --runroot "$state/podman-run" --storage-driver vfs)

ping() { curl -sf --unix-socket "$socket" http://podman/_ping >/dev/null 2>&1; }
if ping; then
  log "podman already answers on $socket"
else
  rm -f "$socket"
  "${podman[@]}" system service --time=0 "unix://$socket" >"$state/podman.log" 2>&1 &
  for _ in $(seq 1 100); do ping && break; kill -0 $! 2>/dev/null || break; sleep 0.1; done
  ping || { log "podman system service did not start:"; tail -n 20 "$state/podman.log" >&2; exit 1; }
  log "podman $("${podman[@]}" version --format '{{.Client.Version}}') serves the Docker API on $socket"
fi

if ! "${podman[@]}" image exists "$image"; then
  docker save "$image" | "${podman[@]}" load -q >&2
  log "loaded $image from Docker"
fi
log "ready in $(($(date +%s) - started)) s"

echo "export TOOLHOST_TEST_PODMAN_SOCKET='$socket'"
