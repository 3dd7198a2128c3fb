# The two commands of the README. The scripts live in ops/.
.PHONY: run run-cluster test ops frontend server

run:
	bash ops/run.sh

run-cluster:
	bash ops/run-cluster.sh

test:
	bash ops/test.sh

ops:
	bash ops/prometheus/run.sh

frontend:
	bash ops/frontend.sh build

server:
	cargo build -p facade --bin yoo-server
