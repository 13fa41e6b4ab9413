#!/usr/bin/env bash
# Installs one azsvc release, checked against its SHA-256, for the GitHub
# Action (action.yml) or any CI. Nothing is installed unless the archive's
# checksum is the expected one.
#
#   AZSVC_VERSION=v1.2.3 hack/action/install.sh
#
# AZSVC_VERSION      the release, vX.Y.Z (required)
# AZSVC_SHA256       the archive's SHA-256 for this platform, pinned by the
#                    caller; empty: the archive's line in the release's
#                    SHA256SUMS
# AZSVC_BASE_URL     where the release's files are: an https URL, a file://
#                    URL or a directory (e.g. dist/ from `make release`);
#                    default: the GitHub release of AZSVC_VERSION
# AZSVC_INSTALL_DIR  where azsvc goes (default: $RUNNER_TEMP/azsvc-VERSION,
#                    else a new temporary directory)
#
# Prints the binary's path on stdout; on GitHub Actions also adds its
# directory to GITHUB_PATH and writes path= to GITHUB_OUTPUT.
set -euo pipefail

say() { printf 'azsvc install: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

version=${AZSVC_VERSION:-}
[[ $version =~ ^v?[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]*)?$ ]] ||
	die "AZSVC_VERSION must be a release version such as v1.2.3, not '${version}'"
version=v${version#v}
base=${AZSVC_BASE_URL:-https://github.com/azsvc/azsvc/releases/download/$version}
base=${base%/}

platform() {
	local os arch
	case "$(uname -s)" in
	Linux) os=linux ;;
	Darwin) os=darwin ;;
	MINGW* | MSYS* | CYGWIN* | Windows_NT) os=windows ;;
	*) die "no azsvc release for this OS: $(uname -s)" ;;
	esac
	case "$(uname -m)" in
	x86_64 | amd64) arch=amd64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) die "no azsvc release for this architecture: $(uname -m)" ;;
	esac
	echo "$os $arch"
}
read -r os arch <<<"$(platform)"
ext=tar.gz exe=azsvc
if [ "$os" = windows ]; then ext=zip exe=azsvc.exe; fi
# The name .goreleaser.yaml gives an archive: keep the two in step.
archive="azsvc_${version#v}_${os}_${arch}.${ext}"

# fetch NAME DEST copies one file of the release.
fetch() {
	case "$base" in
	https://* | http://*)
		curl -fsSL --retry 3 --proto '=https,http' -o "$2" "$base/$1" ||
			die "cannot download $base/$1"
		;;
	*)
		local dir=${base#file://}
		[ -f "$dir/$1" ] || die "no $1 in $dir"
		cp "$dir/$1" "$2"
		;;
	esac
}

sha256() {
	if command -v sha256sum >/dev/null; then
		sha256sum "$1" | cut -d' ' -f1
	else
		shasum -a 256 "$1" | cut -d' ' -f1
	fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fetch "$archive" "$tmp/$archive"

want=${AZSVC_SHA256:-}
if [ -z "$want" ]; then
	fetch SHA256SUMS "$tmp/SHA256SUMS"
	want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/SHA256SUMS")
	[ -n "$want" ] || die "SHA256SUMS of $version has no line for $archive: refusing to install"
fi
want=$(printf '%s' "$want" | tr 'A-F' 'a-f')
got=$(sha256 "$tmp/$archive")
if [ "$got" != "$want" ]; then
	die "checksum mismatch for $archive: want $want, got $got: refusing to install"
fi
say "$archive: SHA-256 $got verified"

mkdir -p "$tmp/x"
if [ "$ext" = zip ]; then
	unzip -q "$tmp/$archive" "$exe" -d "$tmp/x"
else
	tar -xzf "$tmp/$archive" -C "$tmp/x" "$exe"
fi
chmod 0755 "$tmp/x/$exe"

# The binary must say it is the version asked for: a checksum proves the
# bytes are the release's, not that the release is the one asked for.
line=$("$tmp/x/$exe" version) || die "the $exe in $archive does not run"
case "$line" in
"azsvc version $version,"*) ;;
*) die "$archive holds '$line', not azsvc $version: refusing to install" ;;
esac

dir=${AZSVC_INSTALL_DIR:-}
if [ -z "$dir" ]; then
	if [ -n "${RUNNER_TEMP:-}" ]; then dir="$RUNNER_TEMP/azsvc-$version"; else dir=$(mktemp -d); fi
fi
mkdir -p "$dir"
mv "$tmp/x/$exe" "$dir/$exe"
say "installed $dir/$exe: $line"

if [ -n "${GITHUB_PATH:-}" ]; then echo "$dir" >>"$GITHUB_PATH"; fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "path=$dir/$exe" >>"$GITHUB_OUTPUT"; fi
echo "$dir/$exe"
