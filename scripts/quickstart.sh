#!/usr/bin/env bash
# One command from a fresh clone to a running Refract at http://localhost:3000:
# OS packages (when allowed), npm dependencies, build, start on the embedded SQLite database.
set -euo pipefail
cd "$(dirname "$0")/.."

node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error("Refract needs Node 20.19 or later; this is "+process.version); process.exit(1) }'

bash scripts/install-os-packages.sh
echo "npm: installing dependencies ..."
npm ci --no-audit --no-fund
echo "Building ..."
npm run build
# A quick start is a trial on one's own machine: development mode, where the built-in test
# checkout is expected and not warned about. A real installation runs `npm start`, which
# defaults to production.
export NODE_ENV="${NODE_ENV:-development}"
echo "Starting Refract on http://localhost:${PORT:-3000} (data in ${DATA_DIR:-./data}, NODE_ENV=$NODE_ENV) ..."
exec npm start
