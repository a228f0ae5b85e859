#!/usr/bin/env bash
# Brings up the engines the environment conformance suite runs against, all on this machine and without networking:
# dockerd (no bridge, no iptables) with a test image imported from busybox-static and bash, and sshd on 127.0.0.1 with
# keys generated in a temporary folder (with a known_hosts file listing its host keys), logging in as a non-root user
# created here. Logs go to stderr; stdout holds the `export` lines the suite reads, so the caller runs:
# eval "$(bash test/environments/setup-ci.sh)"
set -euo pipefail
log() { printf '[setup-ci] %s\n' "$*" >&2; }

state=${TOOLHOST_ENGINES_DIR:-/tmp/toolhost-engines}
ssh_port=${TOOLHOST_SSH_PORT:-42022}
ssh_user=${TOOLHOST_SSH_USER:-toolhost-ci}
image=toolhost-test:busybox
mkdir -p "$state"

if ! command -v dockerd >/dev/null || ! command -v busybox >/dev/null || ! command -v sshd >/dev/null; then
  log "installing docker.io, busybox-static, openssh-server"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq docker.io busybox-static openssh-server >&2
fi

# --- dockerd -----------------------------------------------------------------------------------------------------
docker_host="unix://$state/docker.sock"
start_dockerd() {
  dockerd --bridge=none --iptables=false --ip6tables=false --host="$docker_host" \
    --data-root="$state/docker-data" --exec-root="$state/docker-exec" --pidfile="$state/docker.pid" "$@" \
    >"$state/dockerd.log" 2>&1 &
  for _ in $(seq 1 100); do
    DOCKER_HOST=$docker_host docker version >/dev/null 2>&1 && return 0
    kill -0 $! 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
if DOCKER_HOST=$docker_host docker version >/dev/null 2>&1; then
  log "dockerd already answers on $docker_host"
elif start_dockerd; then
  log "dockerd started ($(DOCKER_HOST=$docker_host docker info --format '{{.Driver}}' 2>/dev/null) storage)"
else
  # Where overlay2 is not allowed (nested or unprivileged kernels), vfs always works, only slower to copy layers.
  log "dockerd failed with the default storage driver, retrying with vfs: $(tail -n 3 "$state/dockerd.log" | tr '\n' ' ')"
  start_dockerd --storage-driver=vfs || { log "dockerd did not start:"; tail -n 20 "$state/dockerd.log" >&2; exit 1; }
fi
export DOCKER_HOST=$docker_host

if ! docker image inspect "$image" >/dev/null 2>&1; then
  rootfs=$(mktemp -d)
  mkdir -p "$rootfs"/{bin,tmp,root,etc,proc,sys,dev,work}
  cp "$(command -v busybox)" "$rootfs/bin/busybox"
  for applet in $("$rootfs/bin/busybox" --list); do [ -e "$rootfs/bin/$applet" ] || ln -s busybox "$rootfs/bin/$applet"; done
  cp /bin/bash "$rootfs/bin/bash"
  for library in $(ldd /bin/bash | grep -o '/[^ ]*'); do mkdir -p "$rootfs$(dirname "$library")"; cp -L "$library" "$rootfs$library"; done
  echo 'root:x:0:0:root:/root:/bin/sh' >"$rootfs/etc/passwd"
  echo 'root:x:0:' >"$rootfs/etc/group"
  chmod 1777 "$rootfs/tmp"
  tar -C "$rootfs" -c . | docker import -c 'CMD ["/bin/sh"]' -c 'ENV PATH=/usr/local/bin:/usr/bin:/bin' - "$image" >/dev/null
  rm -rf "$rootfs"
  log "imported $image (busybox-static + bash)"
fi

# --- sshd ---------------------------------------------------------------------------------------------------------
id "$ssh_user" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$ssh_user"
# No password, but not locked: sshd without PAM refuses a locked account ('!') even for a key.
usermod -p '*' "$ssh_user"
home=$(getent passwd "$ssh_user" | cut -d: -f6)
keys="$state/ssh"
mkdir -p "$keys" /run/sshd
# Three host key types, so the suite can check that a known_hosts file listing any one of them is enough.
for type in ed25519 ecdsa rsa; do
  [ -f "$keys/host_$type" ] || ssh-keygen -q -t "$type" -N '' -f "$keys/host_$type"
done
[ -f "$keys/client_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -f "$keys/client_ed25519"
install -d -m 700 -o "$ssh_user" -g "$ssh_user" "$home/.ssh"
install -m 600 -o "$ssh_user" -g "$ssh_user" "$keys/client_ed25519.pub" "$home/.ssh/authorized_keys"
install -d -m 755 -o "$ssh_user" -g "$ssh_user" "$home/ws"
cat >"$keys/sshd_config" <<CONFIG
ListenAddress 127.0.0.1
Port $ssh_port
HostKey $keys/host_ed25519
HostKey $keys/host_ecdsa
HostKey $keys/host_rsa
PidFile $keys/sshd.pid
AuthenticationMethods publickey
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
AllowUsers $ssh_user
Subsystem sftp internal-sftp
CONFIG
if [ -f "$keys/sshd.pid" ] && kill -0 "$(cat "$keys/sshd.pid")" 2>/dev/null; then
  log "sshd already runs on 127.0.0.1:$ssh_port"
else
  "$(command -v sshd)" -f "$keys/sshd_config" -E "$keys/sshd.log"
  for _ in $(seq 1 50); do (exec 3<>/dev/tcp/127.0.0.1/"$ssh_port") 2>/dev/null && break; sleep 0.1; done
  log "sshd started on 127.0.0.1:$ssh_port for $ssh_user"
fi
# The host keys the suite trusts, added as a user would (ssh-keyscan), checked against the keys sshd was started with.
ssh-keyscan -p "$ssh_port" 127.0.0.1 2>/dev/null | sort >"$keys/known_hosts.new"
for type in ed25519 ecdsa rsa; do
  grep -qF "$(cut -d' ' -f2 "$keys/host_$type.pub")" "$keys/known_hosts.new" || { log "ssh-keyscan did not return sshd's $type host key"; exit 1; }
done
mv "$keys/known_hosts.new" "$keys/known_hosts"

cat <<EXPORTS
export DOCKER_HOST='$docker_host'
export TOOLHOST_TEST_DOCKER_IMAGE='$image'
export TOOLHOST_TEST_SSH_HOST='127.0.0.1'
export TOOLHOST_TEST_SSH_PORT='$ssh_port'
export TOOLHOST_TEST_SSH_USER='$ssh_user'
export TOOLHOST_TEST_SSH_KEY='$keys/client_ed25519'
export TOOLHOST_TEST_SSH_ROOT='$home/ws'
export TOOLHOST_TEST_SSH_KNOWN_HOSTS='$keys/known_hosts'
EXPORTS
