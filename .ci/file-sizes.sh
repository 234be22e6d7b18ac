#!/usr/bin/env bash
# The house's size rule (DEVELOPERS.md): no source file outside the tests is over 300 lines. Source files are the
# committed C#, Java, JavaScript, Python and shell files (a script without an extension counts by its #! line).
# Prints each file over the limit with its length and exits 1; prints the longest and exits 0 when none is.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=300

sources() {
  git ls-files -z -- . ':!:tests/' | while IFS= read -r -d '' file; do
    case "$file" in
      *.cs | *.java | *.js | *.mjs | *.cjs | *.py | *.sh) echo "$file" ;;
      *) [[ "$(basename "$file")" != *.* && -f "$file" ]] && head -c 2 "$file" | grep -q '^#!' && echo "$file" || true ;;
    esac
  done
}

over=0 longest=0 longest_file=""
while IFS= read -r file; do
  lines=$(wc -l < "$file")
  if [ "$lines" -gt "$limit" ]; then
    echo "$file: $lines lines (the limit is $limit: split it)" >&2
    over=$((over + 1))
  fi
  if [ "$lines" -gt "$longest" ]; then
    longest=$lines longest_file=$file
  fi
done < <(sources)

[ "$over" -eq 0 ] || { echo "$over source file(s) over $limit lines." >&2; exit 1; }
echo "no source file outside the tests over $limit lines (the longest: $longest_file, $longest)"
