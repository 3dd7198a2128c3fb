# Sourced by the bench scripts: which store the server under test runs on.
#   STORE=sqlite (default): the file in the run's data_dir.
#   STORE=postgres: a fresh database on $PG_SERVER (default postgres://postgres@127.0.0.1:5432),
#   created here and dropped when the script exits; POOL connections (default 16).
# Use: `store_toml >> server.toml` after writing the rest of the configuration, and
# `store_drop` in the script's EXIT trap.
STORE=${STORE:-sqlite}
PG_SERVER=${PG_SERVER:-postgres://postgres@127.0.0.1:5432}
BENCH_DB=
if [ "$STORE" = postgres ]; then
  BENCH_DB="yoo_bench_$$_$(date +%s)"
fi
store_toml() {
  case "$STORE" in
    sqlite) ;;
    postgres)
      psql "$PG_SERVER/postgres" -qc "CREATE DATABASE $BENCH_DB" >/dev/null
      printf '\n[storage]\nkind = "postgres"\nurl = "%s/%s"\npool_size = %s\n' "$PG_SERVER" "$BENCH_DB" "${POOL:-16}"
      ;;
    *) echo "STORE is sqlite or postgres, not $STORE" >&2; return 1 ;;
  esac
}
store_drop() {
  if [ -n "$BENCH_DB" ]; then
    psql "$PG_SERVER/postgres" -qc "DROP DATABASE IF EXISTS $BENCH_DB WITH (FORCE)" >/dev/null 2>&1 || true
  fi
}
