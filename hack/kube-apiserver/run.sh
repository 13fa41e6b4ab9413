#!/usr/bin/env bash
# A real kube-apiserver with etcd on loopback, for azsvc's integration test
# (shared/reference/kube-apiserver.md).
#
#   hack/kube-apiserver/run.sh build        build (or reuse) the kube-apiserver binary
#   hack/kube-apiserver/run.sh start DIR    build, start etcd and kube-apiserver, wait
#                                           on /readyz, write DIR/kubeconfig
#   hack/kube-apiserver/run.sh stop DIR     stop both and remove etcd's data
#
# kube-apiserver is built from k8s.io/kubernetes by the throwaway module in
# this directory (its own go.mod, never azsvc's), through the Go module proxy:
# about 8 minutes cold on 2 cores, seconds once Go's build cache is warm; the
# build says which step it is in and, every 20 seconds, how many packages it
# has compiled and for how long. The binary is kept in $AZSVC_KUBE_CACHE
# (default ~/.cache/azsvc). etcd comes from Debian's etcd-server, installed
# with apt-get when missing.
#
# KUBEBUILDER_ASSETS=DIR uses the kube-apiserver and etcd binaries in DIR
# instead (the directory envtest and setup-envtest use): nothing is built or
# installed.
#
# DIR/kubeconfig has three contexts, all token users from DIR/tokens.csv:
#   admin   system:masters (creates the fixtures and the RBAC below)
#   azsvc   no permissions when start returns; TestKubeCluster binds it to
#           examples/rbac/clusterrole.yaml, exactly what azsvc needs (by hand:
#           kubectl --kubeconfig DIR/kubeconfig --context admin apply -f
#           examples/rbac/clusterrole.yaml)
#   narrow  no permissions when start returns; TestKubeCluster's error cases
#           let it list services and nodes only (tests the RBAC error)
# start binds nothing itself: which permissions a user has is the test's to say.
#
# Exit 75 (EX_TEMPFAIL) means a prerequisite could not be fetched (module
# proxy or Debian archive unreachable): .ci/run skips the test then, loudly.
set -euo pipefail

K8S_VERSION=v1.37.2
here="$(cd "$(dirname "$0")" && pwd)"
cache="${AZSVC_KUBE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/azsvc}"
bin="$cache/kube-apiserver-$K8S_VERSION"
etcd=etcd
if [ -n "${KUBEBUILDER_ASSETS:-}" ]; then
	bin="$KUBEBUILDER_ASSETS/kube-apiserver"
	etcd="$KUBEBUILDER_ASSETS/etcd"
fi

log() { printf 'kube-apiserver: %s\n' "$*" >&2; }
elapsed() { local s=$((SECONDS - $1)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }
die() { log "$*"; exit 1; }
unavailable() { log "$*"; exit 75; }

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
		unavailable "need root (or sudo) to run: $*"
	fi
}

apt_install() {
	log "installing $* with apt-get"
	as_root apt-get update -qq >/dev/null || unavailable "apt-get update failed: Debian's archive is unreachable"
	DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null ||
		unavailable "apt-get install $* failed"
}

build() {
	if [ -n "${KUBEBUILDER_ASSETS:-}" ]; then
		local b
		for b in "$bin" "$etcd"; do
			[ -x "$b" ] || die "KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS has no executable $(basename "$b")"
		done
		log "using $("$bin" --version 2>/dev/null || echo "an unknown version of kube-apiserver") from KUBEBUILDER_ASSETS ($bin)"
		return
	fi
	if [ -x "$bin" ]; then
		log "using $bin, built before"
		return
	fi
	mkdir -p "$cache"
	local start=$SECONDS step
	log "building kube-apiserver $K8S_VERSION (about 8 minutes on a cold Go build cache); KUBEBUILDER_ASSETS=DIR uses existing binaries instead"
	step=$SECONDS
	log "step 1/2: downloading k8s.io/kubernetes $K8S_VERSION and its modules from the Go module proxy"
	(cd "$here" && GOFLAGS="-mod=mod" go mod download k8s.io/kubernetes) ||
		unavailable "cannot download k8s.io/kubernetes $K8S_VERSION from the Go module proxy"
	# The package count is only for the progress lines: when go list fails,
	# go build says why.
	local total
	total=$(cd "$here" && GOFLAGS="-mod=mod" go list -deps k8s.io/kubernetes/cmd/kube-apiserver 2>/dev/null | wc -l) || true
	[ "$total" -gt 0 ] || total="?"
	log "step 1/2 done in $(elapsed "$step")"
	step=$SECONDS
	log "step 2/2: compiling kube-apiserver ($total packages; those already in Go's build cache are not compiled again)"
	compile "$total" "$step"
	mv "$bin.tmp" "$bin"
	log "step 2/2 done in $(elapsed "$step"); built $bin in $(elapsed "$start")"
}

# compile runs go build -v, which names each package as it compiles it, and
# says every 20 seconds (AZSVC_KUBE_PROGRESS_SECONDS) how many it has named.
compile() {
	local total=$1 step=$2 out pid rc=0
	out=$(mktemp)
	(cd "$here" && GOFLAGS="-mod=mod -buildvcs=false" exec go build -v -ldflags "-s -w" -o "$bin.tmp" k8s.io/kubernetes/cmd/kube-apiserver) 2>"$out" &
	pid=$!
	while ! wait_for "$pid" "${AZSVC_KUBE_PROGRESS_SECONDS:-20}"; do
		log "  compiling: $(grep -c -v '^#' "$out") of $total packages compiled, $(elapsed "$step")"
	done
	wait "$pid" || rc=$?
	if [ "$rc" -ne 0 ]; then
		tail -n 30 "$out" >&2
		rm -f "$out"
		die "go build of kube-apiserver failed (exit $rc)"
	fi
	rm -f "$out"
}

# wait_for PID N returns 0 once PID has exited, 1 after N seconds if it has not.
wait_for() {
	local i
	for ((i = 0; i < $2 * 5; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.2
	done
	! kill -0 "$1" 2>/dev/null
}

prerequisites() {
	local missing=()
	[ -n "${KUBEBUILDER_ASSETS:-}" ] || command -v etcd >/dev/null || missing+=(etcd-server)
	command -v curl >/dev/null || missing+=(curl)
	command -v openssl >/dev/null || missing+=(openssl)
	if [ ${#missing[@]} -gt 0 ]; then
		apt_install "${missing[@]}"
	fi
}

# free_port prints a loopback TCP port nothing listens on.
free_port() {
	local p
	for _ in $(seq 1 50); do
		p=$((20000 + RANDOM % 20000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return
		fi
	done
	die "no free loopback port found"
}

wait_ready() {
	local url=$1 token=$2 pid=$3 what=$4 log=$5
	for _ in $(seq 1 600); do
		if ! kill -0 "$pid" 2>/dev/null; then
			tail -n 30 "$log" >&2 || true
			die "$what exited before it was ready (log: $log)"
		fi
		if curl -fsS --max-time 2 -k ${token:+-H "Authorization: Bearer $token"} "$url" >/dev/null 2>&1; then
			return
		fi
		sleep 0.1
	done
	tail -n 30 "$log" >&2 || true
	die "$what not ready after 60s (log: $log)"
}

start() {
	local dir=$1
	build
	prerequisites
	mkdir -p "$dir/certs"
	dir="$(cd "$dir" && pwd)"
	# etcd's data lives in memory when it can: the scale test writes
	# thousands of objects and fsync on a shared disk is the bottleneck.
	local data
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then data="$(mktemp -d /dev/shm/azsvc-etcd.XXXXXX)"; else data="$dir/etcd"; fi
	echo "$data" >"$dir/etcd.data"

	local etcd_port peer_port api_port
	etcd_port=$(free_port)
	peer_port=$(free_port)
	api_port=$(free_port)
	local t=$SECONDS
	setsid "$etcd" --name azsvc --data-dir "$data" \
		--listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
		--listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
		--initial-cluster "azsvc=http://127.0.0.1:$peer_port" >"$dir/etcd.log" 2>&1 &
	echo $! >"$dir/etcd.pid"
	wait_ready "http://127.0.0.1:$etcd_port/health" "" "$(cat "$dir/etcd.pid")" etcd "$dir/etcd.log"
	log "etcd ready on 127.0.0.1:$etcd_port in $(elapsed "$t")"
	t=$SECONDS

	local admin azsvc narrow
	admin=$(openssl rand -hex 16)
	azsvc=$(openssl rand -hex 16)
	narrow=$(openssl rand -hex 16)
	cat >"$dir/tokens.csv" <<-EOF
		$admin,admin,uid-admin,"system:masters"
		$azsvc,azsvc,uid-azsvc
		$narrow,narrow,uid-narrow
	EOF
	openssl genrsa -out "$dir/sa.key" 2048 2>/dev/null
	openssl rsa -in "$dir/sa.key" -pubout -out "$dir/sa.pub" 2>/dev/null

	# The Service IP and NodePort ranges are widened so that the 5,000
	# LoadBalancer Services of the scale test fit several runs over.
	setsid "$bin" --etcd-servers "http://127.0.0.1:$etcd_port" \
		--bind-address 127.0.0.1 --secure-port "$api_port" --cert-dir "$dir/certs" \
		--token-auth-file "$dir/tokens.csv" --authorization-mode RBAC \
		--service-account-issuer https://kubernetes.default.svc \
		--service-account-key-file "$dir/sa.pub" --service-account-signing-key-file "$dir/sa.key" \
		--service-cluster-ip-range 10.96.0.0/12 --service-node-port-range 20000-59999 \
		--max-requests-inflight 800 --max-mutating-requests-inflight 400 >"$dir/kube-apiserver.log" 2>&1 &
	echo $! >"$dir/kube-apiserver.pid"
	wait_ready "https://127.0.0.1:$api_port/readyz" "$admin" "$(cat "$dir/kube-apiserver.pid")" kube-apiserver "$dir/kube-apiserver.log"
	log "kube-apiserver ready on 127.0.0.1:$api_port in $(elapsed "$t")"

	write_kubeconfig "$dir" "https://127.0.0.1:$api_port" "$admin" "$azsvc" "$narrow"
	log "ready: KUBECONFIG=$dir/kubeconfig (contexts admin, azsvc, narrow)"
}

write_kubeconfig() {
	local dir=$1 server=$2 admin=$3 azsvc=$4 narrow=$5
	cat >"$dir/kubeconfig" <<-EOF
		apiVersion: v1
		kind: Config
		clusters:
		- name: local
		  cluster:
		    server: $server
		    certificate-authority: $dir/certs/apiserver.crt
		users:
		- name: admin
		  user: {token: $admin}
		- name: azsvc
		  user: {token: $azsvc}
		- name: narrow
		  user: {token: $narrow}
		contexts:
		- name: admin
		  context: {cluster: local, user: admin, namespace: default}
		- name: azsvc
		  context: {cluster: local, user: azsvc, namespace: default}
		- name: narrow
		  context: {cluster: local, user: narrow, namespace: default}
		current-context: admin
	EOF
	chmod 600 "$dir/kubeconfig"
}

stop() {
	local dir=$1 pid
	for name in kube-apiserver etcd; do
		if [ -f "$dir/$name.pid" ]; then
			pid=$(cat "$dir/$name.pid")
			kill "$pid" 2>/dev/null || true
			for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
			kill -9 "$pid" 2>/dev/null || true
			rm -f "$dir/$name.pid"
		fi
	done
	if [ -f "$dir/etcd.data" ]; then
		rm -rf "$(cat "$dir/etcd.data")"
		rm -f "$dir/etcd.data"
	fi
}

case "${1:-}" in
build) build ;;
start) [ $# -eq 2 ] || die "usage: $0 start DIR"; start "$2" ;;
stop) [ $# -eq 2 ] || die "usage: $0 stop DIR"; stop "$2" ;;
*) die "usage: $0 build | start DIR | stop DIR" ;;
esac
