#!/bin/sh
# embed.sh OUT FILE...: writes OUT, a Swift file whose EmbeddedAssets.files holds each FILE's
# text by its name, as a raw string literal (run by the EmbedAssets build plugin).
set -eu
out=$1
shift
# The literal's delimiter, which no asset may hold (the build fails if one does).
fence='#####'
{
  echo "// Written by Plugins/EmbedAssets/embed.sh from the page assets: not to be edited."
  echo "enum EmbeddedAssets {"
  echo "  /// Each asset's text by its file name, as it was when built."
  echo "  static let files: [String: String] = ["
  for file in "$@"; do
    if grep -qF -e "\"\"\"$fence" -e "\\$fence" "$file"; then
      echo "embed.sh: $file holds $fence after \"\"\" or a backslash: it cannot be embedded" >&2
      exit 1
    fi
    printf '    "%s": %s"""\n' "$(basename "$file")" "$fence"
    cat "$file"
    # The line break before the closing delimiter is not the literal's: the file's own last
    # one is kept, and a file without one gets none.
    printf '\n"""%s,\n' "$fence"
  done
  echo "  ]"
  echo "}"
} >"$out.partial"
mv "$out.partial" "$out"
