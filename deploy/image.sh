#!/usr/bin/env bash
# The steps of Steward's container image, in one place: the Dockerfile runs them, and CI runs them
# on a plain machine (containers cannot be built there), so what CI checks is what the image does.
#
#   deploy/image.sh build   in the source tree: install, compile, prune to production dependencies
#   deploy/image.sh smoke   in a built tree (as root): start `node dist/main.js` as an unprivileged
#                           user that cannot write the tree, smoke-test it (health, a token, one
#                           provisioning to completion), stop it with SIGTERM, expect exit 0
#   deploy/image.sh ci      both, on a copy of this checkout, as CI runs them
set -euo pipefail

APP=$(cd "$(dirname "$0")/.." && pwd)
RUN_AS=${STEWARD_IMAGE_USER:-steward}

build() {
  cd "$APP"
  # CI has just run `npm ci` from the same lock file in its clone: it hands its node_modules over
  # (STEWARD_IMAGE_MODULES_FROM) rather than installing and compiling the native modules twice.
  if [ -n "${STEWARD_IMAGE_MODULES_FROM:-}" ]; then
    cp -a "$STEWARD_IMAGE_MODULES_FROM" node_modules
  else
    npm ci --no-audit --no-fund
  fi
  # CI hands over the dist/ its suites ran on too (STEWARD_IMAGE_DIST_FROM): compiled once, from these
  # very sources, which build.js checks (it compiles only when dist/ is missing or from other sources).
  if [ -n "${STEWARD_IMAGE_DIST_FROM:-}" ] && [ -d "$STEWARD_IMAGE_DIST_FROM" ]; then
    cp -a "$STEWARD_IMAGE_DIST_FROM" dist
  fi
  node scripts/build.js --if-stale
  npm prune --omit=dev --no-audit --no-fund
  npm cache clean --force 2>/dev/null || true
  # What the production start needs is dist/ and the production node_modules; prove TypeScript is gone.
  if [ -e node_modules/typescript ]; then
    echo "image: TypeScript is still installed after pruning" >&2
    exit 1
  fi
}

smoke() {
  cd "$APP"
  id -u "$RUN_AS" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$RUN_AS"
  local data port log pid code
  data=$(mktemp -d)
  chown "$RUN_AS" "$data"
  if runuser -u "$RUN_AS" -- test -w "$APP/dist" || runuser -u "$RUN_AS" -- test -w "$APP"; then
    echo "image: the source tree must not be writable by $RUN_AS" >&2
    exit 1
  fi
  port=${STEWARD_SMOKE_PORT:-3978}
  log=$(mktemp)
  # The image's command, as the image's user; no npm, no compiler. setpriv and env exec, so $! is
  # Steward itself and its exit code is what SIGTERM gives.
  setpriv --reuid "$RUN_AS" --regid "$(id -g "$RUN_AS")" --init-groups env -i PATH="$PATH" HOME=/nonexistent \
    STEWARD_DATA_DIR="$data" STEWARD_PORT="$port" STEWARD_HOST=127.0.0.1 \
    node dist/main.js >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 60); do
    grep -q '"Steward is listening"' "$log" && break
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.5
  done
  local status=0
  runuser -u "$RUN_AS" -- env -i PATH="$PATH" HOME=/nonexistent STEWARD_DATA_DIR="$data" \
    node deploy/smoke.js "http://127.0.0.1:$port" node dist/cli/token.js || status=$?
  kill -TERM "$pid"
  code=0
  wait "$pid" || code=$?
  if [ "$status" -ne 0 ] || [ "$code" -ne 0 ]; then
    echo "image: smoke test exit $status, Steward exit $code; its log:" >&2
    cat "$log" >&2
    exit 1
  fi
  echo "image: smoke test passed; Steward stopped with exit 0"
  rm -rf "$data" "$log"
}

# The runtime stage's file list, read from the Dockerfile itself: one "source destination" line per
# path of each `COPY --from=build` after the last FROM (sources under /app/, destinations relative
# to the runtime's WORKDIR /app). A file the image lacks is then missing from the tree CI smokes too.
runtime_copies() {
  awk '
    /^FROM /{ n = 0; delete lines }
    /^COPY --from=build / { lines[n++] = $0 }
    END { for (i = 0; i < n; i++) print lines[i] }
  ' "$APP/Dockerfile" | while read -r -a words; do
    local args=()
    for word in "${words[@]:1}"; do
      case "$word" in --*) ;; *) args+=("$word") ;; esac
    done
    local dest=${args[-1]}
    for source in "${args[@]:0:${#args[@]}-1}"; do
      source=${source#/app/}
      case "$dest" in
        ./ | . | /app | /app/) echo "$source $source" ;;
        *) echo "$source ${dest#./}" ;;
      esac
    done
  done
}

ci() {
  # A copy of the tracked (and new, not ignored) files, as `COPY . .` with .dockerignore gives the image.
  local copy runtime
  copy=$(mktemp -d)
  runtime=$(mktemp -d)
  (cd "$APP" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$copy" 2>/dev/null || true)
  echo "--- image: build (npm ci, npm run build, npm prune --omit=dev)"
  (cd "$copy" && STEWARD_IMAGE_MODULES_FROM="$APP/node_modules" STEWARD_IMAGE_DIST_FROM="$APP/dist" bash deploy/image.sh build)
  # App Service's build (SCM_DO_BUILD_DURING_DEPLOYMENT, infra/main.bicep) runs `npm run build` after
  # installing production packages into the uploaded tree: with dist/ current it compiles nothing.
  echo "--- image: npm run build once more after the prune, as App Service's build runs it"
  (cd "$copy" && npm run -s build)
  echo "--- image: the runtime stage's files, as the Dockerfile copies them"
  local count=0
  while read -r source dest; do
    mkdir -p "$(dirname "$runtime/$dest")"
    cp -a "$copy/$source" "$runtime/$dest"
    echo "    $source -> $dest"
    count=$((count + 1))
  done < <(runtime_copies)
  if [ "$count" -eq 0 ]; then
    echo "image: no COPY --from=build found in the Dockerfile's last stage" >&2
    exit 1
  fi
  rm -rf "$copy"
  ls "$runtime/dist/main.js" >/dev/null
  # Read-only for everyone but root, as the image's files are for its user.
  chown -R root:root "$runtime"
  chmod -R go-w,a+rX "$runtime"
  echo "--- image: smoke test as an unprivileged user, in that tree alone"
  bash "$runtime/deploy/image.sh" smoke
  rm -rf "$runtime"
}

case "${1:-}" in
  build) build ;;
  smoke) smoke ;;
  ci) ci ;;
  *)
    echo "usage: deploy/image.sh build | smoke | ci" >&2
    exit 2
    ;;
esac
