#!/usr/bin/env bash
# Runs one azsvc command for the GitHub Action (action.yml) and says its
# exit code in GITHUB_OUTPUT (exit-code=N).
#
# AZSVC_BIN            the azsvc binary (install.sh's path output)
# AZSVC_COMMAND        its arguments, read as bash reads a run: line (quotes
#                      and $VARIABLES work), e.g. plan -f "$DEPLOY" --detailed-exitcode
# AZSVC_OK_EXIT_CODES  the exit codes that pass the step, space-separated
#                      (default 0; "0 2" for plan --detailed-exitcode)
# AZSVC_STDOUT         a file for the command's standard output (default: the log)
set -uo pipefail

: "${AZSVC_BIN:?AZSVC_BIN is not set}"
: "${AZSVC_COMMAND:?AZSVC_COMMAND is empty}"
# A command over several lines (command: | in YAML) is one command: line
# ends, with or without a backslash, separate words.
words=${AZSVC_COMMAND//$'\\\n'/ }
words=${words//$'\n'/ }
eval "set -- $words" || { echo "azsvc action: cannot read command: $AZSVC_COMMAND" >&2; exit 64; }

if [ -n "${AZSVC_STDOUT:-}" ]; then
	"$AZSVC_BIN" "$@" >"$AZSVC_STDOUT"
else
	"$AZSVC_BIN" "$@"
fi
code=$?
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "exit-code=$code" >>"$GITHUB_OUTPUT"; fi

for ok in ${AZSVC_OK_EXIT_CODES:-0}; do
	if [ "$code" = "$ok" ]; then exit 0; fi
done
echo "::error title=azsvc::azsvc ${1:-} exited $code (passing: ${AZSVC_OK_EXIT_CODES:-0}); azsvc help exit-codes says what it means" >&2
exit "$code"
