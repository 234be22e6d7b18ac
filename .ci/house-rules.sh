#!/usr/bin/env bash
# The house's rules that no compiler or formatter keeps, for every committed source file outside the tests:
#   - no file over 300 lines (C#, Java, JavaScript, Python and shell; a script without an extension counts by its #!);
#   - one top-level type per C# file (a declaration at the start of a line: the namespaces are file-scoped), named as
#     the file is, so a reader finds a type by its name;
#   - no more repeated places than were last reviewed: the pairs `duplicates` finds (the team's tool, on developers'
#     machines and CI's; said and passed over where it is missing). A change that repeats itself fails here; one that
#     removes a pair lowers the ceiling with it.
# Prints each file that breaks one and exits 1; prints what it checked and exits 0 when none does.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=300
declaration='^((public|internal|file|sealed|static|abstract|partial|readonly|ref|unsafe) )*(class|record|struct|interface|enum|delegate) '

# The names of a C# file's top-level types: the word before a declaration's type parameters, parameters or body.
type_names() {
  grep -E "$declaration" "$1" | sed -E 's/[({:;].*//; s/ where .*//; s/<[^<>]*(<[^<>]*>[^<>]*)*>//g; s/ +$//; s/.* //'
}

sources() {
  git ls-files -z -- . ':!:tests/' | while IFS= read -r -d '' file; do
    case "$file" in
      *.cs | *.java | *.js | *.mjs | *.cjs | *.py | *.sh) echo "$file" ;;
      *) [[ "$(basename "$file")" != *.* && -f "$file" ]] && head -c 2 "$file" | grep -q '^#!' && echo "$file" || true ;;
    esac
  done
}

broken=0 checked=0 longest=0 longest_file=""
while IFS= read -r file; do
  checked=$((checked + 1))
  lines=$(wc -l < "$file")
  if [ "$lines" -gt "$limit" ]; then
    echo "$file: $lines lines (the limit is $limit: split it)" >&2
    broken=$((broken + 1))
  fi
  if [ "$lines" -gt "$longest" ]; then
    longest=$lines longest_file=$file
  fi
  if [[ "$file" == *.cs ]]; then
    types=$(grep -cE "$declaration" "$file" || true)
    if [ "$types" -gt 1 ]; then
      echo "$file: $types top-level types ($(type_names "$file" | paste -sd, -)): one a file" >&2
      broken=$((broken + 1))
    elif [ "$types" -eq 1 ]; then
      # Foo.cs, Foo{T}.cs and the parts of a partial type, Foo.Parsing.cs, all hold Foo.
      name=$(basename "$file" .cs) name=${name%%\{*} name=${name%%.*}
      [ "$(type_names "$file")" = "$name" ] || { echo "$file: holds $(type_names "$file"), not $name" >&2; broken=$((broken + 1)); }
    fi
  fi
done < <(sources)

# Issue 66's ceiling, reached on 30 November: what remains is the Program.cs pipelines (each lists its own), constant
# lists, and declarations and tests of the same shape (the note lists them).
most_pairs=30
repeated="duplicates is not installed: repetition not checked"
if command -v duplicates >/dev/null 2>&1; then
  found=$(duplicates --most 200 --seconds 120)
  pairs=$(head -1 <<< "$found" | grep -oE '^[0-9]+ pairs' | grep -oE '^[0-9]+' || echo 0)
  if grep -q '^incomplete:' <<< "$found"; then
    repeated="duplicates did not finish ($(grep '^incomplete:' <<< "$found" | head -1)): repetition not checked"
  elif [ "$pairs" -gt "$most_pairs" ]; then
    echo "duplicates finds $pairs pairs of repeated places, more than the $most_pairs reviewed: write the new one once (the list: duplicates --most 200)" >&2
    broken=$((broken + 1))
  else
    repeated="$pairs pairs of repeated places (at most $most_pairs)"
  fi
fi

[ "$broken" -eq 0 ] || { echo "$broken file(s) or rule(s) break the house's rules." >&2; exit 1; }
echo "$checked source files: none over $limit lines (the longest: $longest_file, $longest), one top-level type in each C# file; $repeated"
