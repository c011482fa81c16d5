#!/usr/bin/env bash
# Counts of the library's surface (public item lines, pub consts in src/lp, files of 350-400
# lines, lines of src/lp and src), run from a checkout's root: bash scripts/surface_counts.sh
set -eu
core=src
pub_items=$(grep -rhE '^\s*pub (unsafe )?(fn|struct|enum|trait|const|type|mod|static|use) ' $core --include=*.rs | wc -l)
echo "public items (pub fn/struct/enum/trait/const/type/mod/static/use lines in src): $pub_items"
echo "top-level pub mod in src/lib.rs: $(grep -cE '^pub mod ' src/lib.rs)"
echo "pub const in src/lp: $(grep -rhE '^\s*pub const ' src/lp --include=*.rs | wc -l)"
echo "files of 350-400 lines: $(find src -name '*.rs' -exec wc -l {} + | awk '$2!="total" && $1>=350 && $1<=400' | wc -l)"
echo "lines of src/lp: $(find src/lp -name '*.rs' -exec cat {} + | wc -l)"
echo "lines of src: $(find src -name '*.rs' -exec cat {} + | wc -l)"
