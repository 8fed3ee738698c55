#!/bin/sh
# `npm start` (server) and `npm run worker` (worker): starts the built app with an allocator
# that gives memory back. glibc's malloc keeps the fragments libvips leaves in many
# arenas, so RSS climbed with image work and stayed up; sharp's documentation recommends
# jemalloc for long-running servers. Debian's libjemalloc2 is preloaded when installed
# (scripts/install-os-packages.sh); otherwise glibc is held to two arenas. Either can be set
# by the operator instead (LD_PRELOAD, MALLOC_ARENA_MAX), which wins.
set -eu
cd "$(dirname "$0")/.."
entry="apps/server/dist/${1:-server}.js"

jemalloc="/usr/lib/$(uname -m)-linux-gnu/libjemalloc.so.2"
case "${LD_PRELOAD:-}" in
  *jemalloc*) ;;
  *)
    if [ -z "${MALLOC_ARENA_MAX:-}" ] && [ -r "$jemalloc" ]; then
      # Node only: thread-pool.cts takes it out of the environment again, so ffmpeg, Chromium
      # and libheif start with their own allocators.
      export LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$jemalloc"
      export REFRACT_PRELOADED="$jemalloc"
      # jemalloc gives freed pages back on a timer only with its background thread; without
      # it, only when the process allocates again, so an idle server kept what an upscale had
      # freed (375 MB 60 s after, against 172 idle; 142 with the thread). Freed pages go back
      # after 1 s unused rather than jemalloc's 10 s: start-up's garbage (routes compiled, the
      # engines probed) otherwise held the idle server at 156-171 MB for its first seconds,
      # against 140 (bench/results/memory.md).
      export MALLOC_CONF="${MALLOC_CONF:-background_thread:true,dirty_decay_ms:1000}"
    else
      export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
    fi
    ;;
esac

# NODE_FLAGS: flags Node refuses in NODE_OPTIONS (--cpu-prof, for bench/api-profile.mjs).
# shellcheck disable=SC2086
exec node ${NODE_FLAGS:-} --require ./apps/server/dist/thread-pool.cjs "$entry"
