#!/usr/bin/env bash
# `make ops`: Prometheus against the running dev platform, with the platform's rules and
# console. Installs Debian's prometheus package where it is missing, writes the configuration
# (ops/prometheus/prometheus.yml with the targets below) into data/prometheus, and runs it in
# the foreground on 127.0.0.1 (Ctrl-C stops it), printing the console's and the alerts' address.
#
# Settings (environment): PLATFORM=127.0.0.1:8080 GAMEHOSTS="127.0.0.1:9101 127.0.0.1:9102"
# LISTEN=127.0.0.1:9090 DATA=data/prometheus INTERVAL=5s
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
PLATFORM=${PLATFORM:-127.0.0.1:8080}
GAMEHOSTS=${GAMEHOSTS:-127.0.0.1:9101 127.0.0.1:9102}
LISTEN=${LISTEN:-127.0.0.1:9090}
DATA=${DATA:-data/prometheus}
INTERVAL=${INTERVAL:-5s}

bash ops/prometheus/install.sh

mkdir -p "$DATA"
DATA=$(cd "$DATA" && pwd)
# The checked-in file with this run's targets and interval; rule paths made absolute.
python3 - "$ROOT/ops/prometheus/prometheus.yml" "$DATA/prometheus.yml" "$PLATFORM" "$GAMEHOSTS" "$INTERVAL" "$ROOT/ops/prometheus" <<'PY'
import json, sys
src, dst, platform, hosts, interval, base = sys.argv[1:]
text = open(src).read()
text = text.replace('targets: ["127.0.0.1:8080"]', 'targets: ' + json.dumps([platform]))
text = text.replace('targets: ["127.0.0.1:9101", "127.0.0.1:9102"]', 'targets: ' + json.dumps(hosts.split()))
text = text.replace("scrape_interval: 5s", "scrape_interval: " + interval).replace("evaluation_interval: 5s", "evaluation_interval: " + interval)
text = text.replace("  - rules/", "  - " + base + "/rules/")
open(dst, "w").write(text)
PY
promtool check config "$DATA/prometheus.yml" > /dev/null

echo "Prometheus on http://$LISTEN scraping the platform at $PLATFORM and the game hosts at $GAMEHOSTS"
echo "  console: http://$LISTEN/consoles/yoo-overview.html"
echo "  alerts:  http://$LISTEN/classic/alerts"
exec prometheus \
  --config.file="$DATA/prometheus.yml" \
  --storage.tsdb.path="$DATA/tsdb" \
  --storage.tsdb.retention.time=2d \
  --web.listen-address="$LISTEN" \
  --web.console.templates="$ROOT/ops/prometheus/consoles" \
  --web.console.libraries="$ROOT/ops/prometheus/console_libraries"
