#!/usr/bin/env bash
# `make install` and `make uninstall` into a temporary prefix: the binary, the menu entry (with
# its Exec pointing at the installed binary) and the icons land; the entry is valid; uninstall
# leaves nothing behind (no icon or menu cache made in a folder that had none).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -x build/bin/engram ] || { echo "install-check: build/bin/engram is missing (make build)"; exit 2; }
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "install-check: $*"; exit 1; }
make --no-print-directory -o build install PREFIX="$prefix" >/dev/null
entry="$prefix/share/applications/engram.desktop"
for f in "$prefix/bin/engram" "$entry" "$prefix/share/pixmaps/engram.png" "$prefix/share/icons/hicolor/scalable/apps/engram.svg"; do
  [ -s "$f" ] || fail "missing $f"
done
[ -x "$prefix/bin/engram" ] || fail "the installed binary is not executable"
grep -qx "Exec=$prefix/bin/engram" "$entry" || fail "Exec does not name the installed binary: $(grep '^Exec=' "$entry")"
grep -qx '\[Desktop Entry\]' "$entry" && grep -qx 'Type=Application' "$entry" && grep -q '^Name=' "$entry" && grep -qx 'Icon=engram' "$entry" \
  || fail "the menu entry lacks a key it needs"
mains=$(grep '^Categories=' "$entry" | tr ';=' '\n\n' | grep -cxE 'AudioVideo|Audio|Video|Development|Education|Game|Graphics|Network|Office|Science|Settings|System|Utility' || true)
[ "$mains" -eq 1 ] || fail "Categories names $mains main categories (the menu would list Engram $mains times)"
if command -v desktop-file-validate >/dev/null 2>&1; then
  desktop-file-validate "$entry" || fail "desktop-file-validate refused the entry"
fi
make --no-print-directory uninstall PREFIX="$prefix" >/dev/null
left=$(find "$prefix" -type f)
[ -z "$left" ] || fail "uninstall left: $left"
echo "install-check: install and uninstall clean"
