#!/usr/bin/env bash
# Installs Debian's PostgreSQL if needed, starts a throw-away cluster on
# loopback and exports ATRIL_PG_DSN for the store tests.
#
# Source it so the variable reaches the caller:
#     . .ci/install-postgres.sh
# Run as a command it prints the export line instead. It never fails the
# caller: when PostgreSQL cannot be had it says so, leaves ATRIL_PG_DSN
# unset, and the PostgreSQL tests are skipped with a message.
# ATRIL_PG_PORT chooses the port (default 54329).

atril_pg_setup() {
	local port="${ATRIL_PG_PORT:-54329}"
	local dir="${TMPDIR:-/tmp}/atril-pg-$port"
	local bin
	bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
	if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
		echo "install-postgres: installing Debian's postgresql" >&2
		if [ "$(id -u)" = 0 ]; then
			(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >&2 || {
				echo "install-postgres: apt-get install postgresql failed; PostgreSQL tests will be skipped" >&2
				return 0
			}
		else
			echo "install-postgres: not root and no PostgreSQL installed; PostgreSQL tests will be skipped" >&2
			return 0
		fi
		bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
	fi
	# initdb and the server refuse to run as root: use the postgres user.
	local as=()
	if [ "$(id -u)" = 0 ]; then
		id postgres >/dev/null 2>&1 || useradd --system --home /var/lib/postgresql postgres
		as=(runuser -u postgres --)
	fi
	if ! "${as[@]}" "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
		rm -rf "$dir"
		mkdir -p "$dir"
		if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
		"${as[@]}" "$bin/initdb" -D "$dir" -A trust -U atril -E UTF8 >/dev/null || {
			echo "install-postgres: initdb failed; PostgreSQL tests will be skipped" >&2
			return 0
		}
		"${as[@]}" "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w \
			-o "-h 127.0.0.1 -p $port -k $dir -c fsync=off" start >/dev/null || {
			echo "install-postgres: the server did not start (see $dir/server.log); PostgreSQL tests will be skipped" >&2
			return 0
		}
	fi
	export ATRIL_PG_DSN="postgres://atril@127.0.0.1:$port/postgres?sslmode=disable"
	echo "install-postgres: PostgreSQL ($bin) listening on 127.0.0.1:$port; ATRIL_PG_DSN=$ATRIL_PG_DSN" >&2
}

atril_pg_setup
if [ "${BASH_SOURCE[0]}" = "$0" ] && [ -n "${ATRIL_PG_DSN:-}" ]; then
	echo "export ATRIL_PG_DSN='$ATRIL_PG_DSN'"
fi
