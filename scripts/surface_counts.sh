#!/usr/bin/env bash
# Counts of the library's surface, run from a checkout's root: bash scripts/surface_counts.sh
# (TARGET=DIR picks the cargo target folder of the documentation build; default target/surface_docs).
# The public API is counted from rustdoc's output of the library with its default features
# (items behind `internals` are hidden from it and crate-private without it): one page per
# item (module, struct, enum, trait, function, constant, type, macro), plus the fields,
# variants and methods those pages list.
set -eu
core=src
target=${TARGET:-target/surface_docs}
pub_items=$(grep -rhE '^\s*pub (unsafe )?(fn|struct|enum|trait|const|type|mod|static|use) ' $core --include=*.rs | wc -l)
echo "pub item lines in src (pub fn/struct/enum/trait/const/type/mod/static/use, any module): $pub_items"
echo "top-level pub mod in src/lib.rs: $(grep -cE '^pub mod ' src/lib.rs)"
if cargo doc -p glsolve --lib --no-deps --offline -q --target-dir "$target" 2>/dev/null; then
  d="$target/doc/glsolve"
  pages=$(find "$d" -name '*.html' | grep -vE '/(index|all|sidebar-items)\.html$' | grep -cE '/(struct|enum|trait|fn|constant|type|macro|static|union)\.' || true)
  mods=$(find "$d" -name index.html | wc -l)
  # Fields, variants, inherent methods and a trait's own methods: ids before a page's trait
  # implementations (derived and blanket impls are not the crate's surface).
  members=$(python3 - "$d" <<'PY'
import pathlib, re, sys
n = 0
for f in pathlib.Path(sys.argv[1]).rglob("*.html"):
    t = f.read_text(errors="replace")
    cut = min([k for k in (t.find(m) for m in ('id="trait-implementations"', 'id="synthetic-implementations"', 'id="blanket-implementations"', 'id="implementors"')) if k >= 0] + [len(t)])
    n += len(set(re.findall(r'id="(?:structfield|variant|method|tymethod|associatedconstant)\.[A-Za-z0-9_]+"', t[:cut])))
print(n)
PY
)
  echo "public API in the docs (without internals): $pages items, $mods modules, $members fields/variants/methods"
else
  echo "public API in the docs: cargo doc failed"
fi
echo "#[allow(missing_docs)] in src: $(grep -rh 'allow(missing_docs)' $core --include=*.rs | wc -l)"
echo "pub const in src/lp: $(grep -rhE '^\s*pub const ' src/lp --include=*.rs | wc -l)"
# Fields of the structs and enum variants declared in src/lp/settings (not its error type), public or not.
fields=$(ls src/lp/settings/*.rs | grep -v /error.rs | xargs cat | awk '/^(pub(\(crate\))? )?(struct|enum) [A-Za-z]+.*\{$/ {on=1; next} on && /^}/ {on=0} on && !/^[ \t]*\/\// {c += gsub(/[a-z_0-9]+: /, "")} END {print c+0}')
echo "fields of the settings types (structs and variants in src/lp/settings, error type aside): $fields"
for t in VectorKernels NormalEquations; do
  n=$(awk -v t="$t" '$0 ~ "^pub(\\(crate\\))? trait "t"[ <]" {on=1} on && /^[ \t]+fn / {c++} on && /^}/ {on=0} END {print c+0}' src/lp/backend/mod.rs)
  echo "methods of $t: $n"
done
files=$(find src tools/src -name '*.rs' 2>/dev/null -exec wc -l {} + | awk '$2!="total" && $1>=350 && $1<=400' | wc -l)
echo "files of 350-400 lines (src and tools/src): $files"
echo "lines of src/lp: $(find src/lp -name '*.rs' -exec cat {} + | wc -l)"
echo "lines of the library (src): $(find src -name '*.rs' -exec cat {} + | wc -l)"
if [ -d tools/src ]; then echo "lines of the tools (tools/src): $(find tools/src -name '*.rs' -exec cat {} + | wc -l)"; fi
