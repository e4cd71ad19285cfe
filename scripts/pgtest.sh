#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster: initdb in a temporary folder, the server
# runs as the postgres user (when started as root) and listens only on a Unix socket in that
# folder; the command gets the cluster's URL in PALARO_TEST_POSTGRES (internal/testdb makes one
# database per test from it). The cluster and its folder are removed at the end, whatever the
# outcome. Where PostgreSQL cannot be started, this says why and fails.
#
# Usage: pgtest.sh [--durable] COMMAND...
# Tests run the cluster without durability (fsync, synchronous_commit and full_page_writes off: it
# lives for one run). --durable keeps PostgreSQL's durable defaults on (every commit flushed to disk
# before it returns), as the bench needs for its figures to count durable commits.
set -euo pipefail

fail() { echo "pgtest: $*" >&2; exit 1; }

durable=0
if [ "${1:-}" = "--durable" ]; then durable=1; shift; fi
[ $# -gt 0 ] || fail "usage: pgtest.sh [--durable] COMMAND..."

bindir=""
for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
  if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then bindir=$d; break; fi
done
if [ -z "$bindir" ] && command -v pg_config >/dev/null 2>&1; then
  d=$(pg_config --bindir)
  if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then bindir=$d; fi
fi
[ -n "$bindir" ] || fail "no PostgreSQL server found (initdb and pg_ctl): install Debian's postgresql package (go tool task postgresql)"

dir=$(mktemp -d /tmp/palaro-pg.XXXXXX)
as_pg=()
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || fail "running as root but there is no postgres user to run the server as"
  chown postgres: "$dir"
  as_pg=(runuser -u postgres --)
fi

cleanup() {
  "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

"${as_pg[@]}" "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; fail "initdb failed"; }
# max_connections covers parallel tests, each holding a writer and a read pool.
opts="-c listen_addresses='' -c unix_socket_directories='$dir' -c max_connections=400 -c shared_buffers=64MB"
if [ "$durable" = 1 ]; then
  opts+=" -c fsync=on -c synchronous_commit=on -c full_page_writes=on"
else
  opts+=" -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
fi
"${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -o "$opts" -w -t 60 start >/dev/null ||
  { cat "$dir/server.log" >&2 2>/dev/null; fail "the PostgreSQL server did not start"; }

export PALARO_TEST_POSTGRES="postgres://postgres@localhost/postgres?host=$dir&sslmode=disable"
mode="durability off (fsync, synchronous_commit, full_page_writes)"
[ "$durable" = 1 ] && mode="durable (fsync, synchronous_commit, full_page_writes on)"
echo "pgtest: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on $dir, $mode" >&2
"$@"
