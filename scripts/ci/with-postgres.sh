#!/usr/bin/env bash
# Runs a command with TEST_DATABASE_URL pointing at a throw-away PostgreSQL server: a fresh cluster in a
# temp folder on a free loopback port, stopped and deleted afterwards, whatever the command's outcome.
#   scripts/ci/with-postgres.sh npx vitest run tests/api
# Needs Debian's server binaries (`apt-get install postgresql`); PostgreSQL refuses to run as root,
# so as root the cluster belongs to the `postgres` user the package creates.
set -euo pipefail
cd "$(dirname "$0")/../.."

bindir="${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "with-postgres: no PostgreSQL server found under /usr/lib/postgresql (apt-get install postgresql)" >&2
  exit 1
fi
as_owner=()
if [ "$(id -u)" -eq 0 ]; then as_owner=(runuser -u postgres --); fi

dir="$(mktemp -d /tmp/campaign-web-pg.XXXXXX)"
port="$(node --input-type=module -e "import getPort from 'get-port'; console.log(await getPort())")"
if [ ${#as_owner[@]} -gt 0 ]; then chown postgres "$dir"; fi

stop() {
  "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

"${as_owner[@]}" "$bindir/initdb" -D "$dir/data" -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8 >/dev/null
"${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-p $port -c listen_addresses=127.0.0.1 -k $dir -c max_connections=200" start >/dev/null
echo "with-postgres: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"

export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
"$@"
