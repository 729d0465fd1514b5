#!/usr/bin/env bash
# Installs the Wails v2 CLI into $(go env GOPATH)/bin if it is missing or another version.
# `go install …/wails@v2.9.2` fails on current Go (old golang.org/x/tools), so it is built in a
# scratch module with a newer x/tools. Prints the path of the wails binary.
set -euo pipefail
WAILS_VERSION=v2.9.2
bin="$(go env GOPATH)/bin/wails"
if [ -x "$bin" ] && "$bin" version 2>/dev/null | grep -q "${WAILS_VERSION}"; then
  echo "$bin"
  exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(
  cd "$work"
  go mod init wailscli >/dev/null 2>&1
  go get "github.com/wailsapp/wails/v2/cmd/wails@${WAILS_VERSION}" golang.org/x/tools@latest >&2
  go build -o "$bin" github.com/wailsapp/wails/v2/cmd/wails
)
echo "$bin"
