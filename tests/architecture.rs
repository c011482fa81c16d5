//! The layering rules of docs/design.md, checked on the source itself: GL only in `src/gl/`, no
//! file over 400 lines, and no import cycle — neither between files (modules) nor between the
//! top-level layers — in the library (`src/`), the tools' library (`tools/src/`: `lib.rs` and
//! `bench/`) nor in the binary (`tools/src/main.rs` and `cli/`). An import is a
//! `use` of a `crate::`, `super::` or `self::` path, or such a path written inline; a name
//! reached through a re-export counts as an import of the module that defines it, and a module's
//! `pub use` of its own children is its interface, not a dependency. And one public path per
//! item: the tools, the web crate and the Python crate import a name the API gives (at the root,
//! in `lp`, in `machine`) by that name, not through the layer that defines it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type ModPath = Vec<String>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The tools crate's sources: its library (`lib.rs`, `bench/`) and the binary (`main.rs`, `cli/`).
fn tools_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/src")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("src is readable").flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "cli") {
                walk(&p, out);
            }
        } else if p.extension().is_some_and(|e| e == "rs") && p.file_name().is_some_and(|n| n != "main.rs") {
            out.push(p);
        }
    }
}

/// Every library source file.
fn library_files() -> Vec<PathBuf> {
    let mut v = Vec::new();
    walk(&src(), &mut v);
    v
}

/// The tools' library files (`lib.rs` and `bench/`; the binary's `main.rs` and `cli/` are a
/// crate of their own).
fn tools_library_files() -> Vec<PathBuf> {
    let mut v = Vec::new();
    walk(&tools_src(), &mut v);
    v
}

/// The binary crate's files: `main.rs` (its root) and `cli/`.
fn binary_files() -> Vec<PathBuf> {
    let mut v = vec![tools_src().join("main.rs")];
    let mut cli: Vec<PathBuf> =
        std::fs::read_dir(tools_src().join("cli")).expect("tools/src/cli").flatten().map(|e| e.path()).collect();
    cli.sort();
    v.extend(cli.into_iter().filter(|p| p.extension().is_some_and(|e| e == "rs")));
    v
}

fn module_of(file: &Path) -> ModPath {
    let rel = file.strip_prefix(src()).or_else(|_| file.strip_prefix(tools_src())).expect("under src or tools/src");
    let mut parts: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" && stem != "main" {
        parts.push(stem.to_string());
    }
    parts
}

/// The code of a file without comments, string and char literals, and its `#[cfg(test)]` module.
fn code(text: &str) -> String {
    let body = text.split("#[cfg(test)]").next().unwrap_or("");
    let chars: Vec<char> = body.chars().collect();
    let mut out = String::with_capacity(body.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !out.ends_with(|p: char| p.is_alphanumeric() || p == '_')
        {
            // Raw string r"…" or r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|h| chars.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\''
            && (chars.get(i + 2) == Some(&'\'') || (next == Some('\\') && chars.get(i + 3) == Some(&'\'')))
        {
            // A char literal ('x' or '\x'); lifetimes ('a) pass through.
            i += if next == Some('\\') { 4 } else { 3 };
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Expands `a::{b, c::{d, e}}` into full paths.
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head = tree[..open].trim().trim_end_matches("::");
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let base = if head.is_empty() { prefix.to_string() } else { format!("{prefix}{head}::") };
        let mut depth = 0;
        let mut start = 0;
        for (i, ch) in inner.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&base, &inner[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(&base, &inner[start..], out);
    } else if !tree.is_empty() {
        let path = tree.split(" as ").next().unwrap_or(tree).trim();
        out.push(format!("{prefix}{path}"));
    }
}

/// `(is_pub_use, paths)` of every `use` statement, and the inline `crate::` paths.
fn imports(code: &str) -> (Vec<(bool, String)>, Vec<String>) {
    let mut uses = Vec::new();
    let mut rest = code;
    let mut spans = Vec::new();
    while let Some(at) = rest.find("use ") {
        let before = &rest[..at];
        let boundary = before.chars().last().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let stmt_end = rest[at..].find(';').map(|e| at + e).unwrap_or(rest.len());
        if boundary {
            let is_pub = before.trim_end().ends_with("pub") || before.trim_end().ends_with(')');
            let stmt = &rest[at + 4..stmt_end];
            let mut paths = Vec::new();
            expand("", stmt, &mut paths);
            for p in paths {
                uses.push((is_pub, p));
            }
            spans.push(stmt.to_string());
        }
        rest = &rest[(stmt_end + 1).min(rest.len())..];
    }
    let mut inline = Vec::new();
    for root in ["crate::", "super::", "self::"] {
        let mut scan = code;
        while let Some(at) = scan.find(root) {
            let tail = &scan[at..];
            // A path starts a word (`use` statements were taken above; `super::super::` once).
            let starts = scan[..at].chars().last().is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'));
            let end = tail.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(tail.len());
            if starts {
                inline.push(tail[..end].trim_end_matches(':').to_string());
            }
            scan = &scan[at + root.len()..];
        }
    }
    (uses, inline)
}

struct Crate {
    modules: BTreeSet<ModPath>,
    /// Per module: name → the path it re-exports (`pub use child::Name`).
    reexports: BTreeMap<ModPath, BTreeMap<String, ModPath>>,
}

impl Crate {
    /// The module a path names, following re-exports to the defining module.
    fn resolve(&self, path: &[String], depth: usize) -> Option<ModPath> {
        let mut best = None;
        for k in (0..=path.len()).rev() {
            if self.modules.contains(&path[..k]) {
                best = Some(k);
                break;
            }
        }
        let k = best?;
        let module = path[..k].to_vec();
        if depth < 8 && k < path.len() {
            if let Some(target) = self.reexports.get(&module).and_then(|r| r.get(&path[k])) {
                let mut full = target.clone();
                full.extend_from_slice(&path[k + 1..]);
                if let Some(m) = self.resolve(&full, depth + 1) {
                    return Some(m);
                }
            }
        }
        Some(module)
    }
}

/// An import path relative to `module` made absolute (`crate::`, `super::`, `self::`, or a child).
fn absolute(module: &ModPath, path: &str, is_mod_file: bool) -> Option<ModPath> {
    let segs: Vec<String> = path.split("::").map(str::to_string).collect();
    let mut base: ModPath = match segs.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        Some("super") | Some("self") => {
            // In `a/b.rs` (module a::b) `super` is `a`; in `a/b/mod.rs` also `a`.
            let mut m = module.clone();
            let mut it = segs.iter().peekable();
            let mut consumed = 0;
            while let Some(s) = it.peek() {
                match s.as_str() {
                    "super" => {
                        m.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                it.next();
                consumed += 1;
            }
            let _ = is_mod_file;
            let mut out = m;
            out.extend(segs[consumed..].iter().cloned());
            return Some(out);
        }
        _ => return None,
    };
    base.extend(segs[1..].iter().cloned());
    Some(base)
}

/// The library's module graph.
fn load() -> (Crate, BTreeMap<ModPath, BTreeSet<ModPath>>) {
    let files: Vec<(ModPath, bool, String)> = library_files()
        .iter()
        .map(|f| {
            let is_mod = f.file_name().is_some_and(|n| n == "mod.rs" || n == "lib.rs");
            (module_of(f), is_mod, std::fs::read_to_string(f).expect("readable"))
        })
        .collect();
    graph_of(&files)
}

/// The tools' library's module graph (`lib.rs` and `bench/`).
fn load_tools() -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let files: Vec<(ModPath, bool, String)> = tools_library_files()
        .iter()
        .map(|f| {
            let is_mod = f.file_name().is_some_and(|n| n == "mod.rs" || n == "lib.rs");
            (module_of(f), is_mod, std::fs::read_to_string(f).expect("readable"))
        })
        .collect();
    graph_of(&files).1
}

/// The binary's module graph (`main.rs` and `cli/`; the libraries are other crates to it).
fn load_binary() -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let files: Vec<(ModPath, bool, String)> = binary_files()
        .iter()
        .map(|f| {
            let is_mod = f.file_name().is_some_and(|n| n == "mod.rs" || n == "main.rs");
            (module_of(f), is_mod, std::fs::read_to_string(f).expect("readable"))
        })
        .collect();
    graph_of(&files).1
}

/// The module graph of one crate given as (module path, is a `mod.rs`/root, source).
fn graph_of(files: &[(ModPath, bool, String)]) -> (Crate, BTreeMap<ModPath, BTreeSet<ModPath>>) {
    let modules: BTreeSet<ModPath> = files.iter().map(|(m, _, _)| m.clone()).collect();
    let mut krate = Crate { modules, reexports: BTreeMap::new() };
    let mut parsed = Vec::new();
    for (m, is_mod, text) in files {
        let (m, is_mod) = (m.clone(), *is_mod);
        let (uses, inline) = imports(&code(text));
        for (is_pub, p) in &uses {
            if !is_pub {
                continue;
            }
            // `pub use child::Name` (child of this module) re-exports Name.
            let rel: Vec<&str> = p.split("::").collect();
            let (first, name) = (rel[0], *rel.last().unwrap_or(&""));
            let target = if first == "crate" || first == "super" || first == "self" {
                absolute(&m, p, is_mod)
            } else {
                let mut t = m.clone();
                t.extend(rel.iter().map(|s| s.to_string()));
                Some(t)
            };
            if let Some(t) = target {
                krate.reexports.entry(m.clone()).or_default().insert(name.to_string(), t);
            }
        }
        parsed.push((m, is_mod, uses, inline));
    }
    let mut graph: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for (m, is_mod, uses, inline) in parsed {
        let edges = graph.entry(m.clone()).or_default();
        let mut targets = Vec::new();
        for (is_pub, p) in uses {
            let first = p.split("::").next().unwrap_or("");
            let child_reexport = is_pub && !matches!(first, "crate" | "super");
            if child_reexport {
                continue;
            }
            if let Some(abs) = absolute(&m, &p, is_mod) {
                targets.push(abs);
            } else {
                // A path relative to this module's own children (`use child::X`).
                let mut t = m.clone();
                t.extend(p.split("::").map(str::to_string));
                if krate.modules.contains(&t[..m.len() + 1]) {
                    targets.push(t);
                }
            }
        }
        for p in inline {
            if let Some(abs) = absolute(&m, &p, is_mod) {
                targets.push(abs);
            }
        }
        for t in targets {
            if let Some(r) = krate.resolve(&t, 0) {
                if r != m && !m.starts_with(&r) {
                    edges.insert(r);
                } else if r != m && m.starts_with(&r) {
                    // A child using its parent's own items: an edge to the parent file.
                    edges.insert(r);
                }
            }
        }
    }
    (krate, graph)
}

/// The cycles of a directed graph, one per strongly connected component of size > 1.
fn cycles<N: Ord + Clone>(graph: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    // Kosaraju: order by finish time, then walk the reversed graph.
    let nodes: Vec<N> = graph.keys().cloned().chain(graph.values().flatten().cloned()).collect();
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    fn dfs<N: Ord + Clone>(n: &N, g: &BTreeMap<N, BTreeSet<N>>, seen: &mut BTreeSet<N>, order: &mut Vec<N>) {
        if !seen.insert(n.clone()) {
            return;
        }
        if let Some(next) = g.get(n) {
            for m in next {
                dfs(m, g, seen, order);
            }
        }
        order.push(n.clone());
    }
    for n in &nodes {
        dfs(n, graph, &mut seen, &mut order);
    }
    let mut rev: BTreeMap<N, BTreeSet<N>> = BTreeMap::new();
    for (a, bs) in graph {
        for b in bs {
            rev.entry(b.clone()).or_default().insert(a.clone());
        }
    }
    let mut assigned = BTreeSet::new();
    let mut out = Vec::new();
    for n in order.iter().rev() {
        if assigned.contains(n) {
            continue;
        }
        let mut comp = Vec::new();
        let mut stack = vec![n.clone()];
        while let Some(x) = stack.pop() {
            if !assigned.insert(x.clone()) {
                continue;
            }
            comp.push(x.clone());
            if let Some(prev) = rev.get(&x) {
                stack.extend(prev.iter().filter(|p| !assigned.contains(*p)).cloned());
            }
        }
        if comp.len() > 1 {
            out.push(comp);
        }
    }
    out
}

fn name(m: &ModPath) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let (_, graph) = load();
    // A parent's edge to a child (re-export façade) is not in the graph; a child's edge to its
    // parent is. Cycles are therefore real import cycles.
    let found: Vec<String> =
        cycles(&graph).iter().map(|c| c.iter().map(name).collect::<Vec<_>>().join(" ↔ ")).collect();
    assert!(found.is_empty(), "import cycles between modules:\n{}", found.join("\n"));
    let binary = load_binary();
    assert!(binary.len() > 5, "the binary's modules were read: {binary:?}");
    let found: Vec<String> =
        cycles(&binary).iter().map(|c| c.iter().map(name).collect::<Vec<_>>().join(" ↔ ")).collect();
    assert!(found.is_empty(), "import cycles between the binary's modules:\n{}", found.join("\n"));
    let tools = load_tools();
    assert!(tools.len() > 5, "the tools' modules were read: {tools:?}");
    let found: Vec<String> =
        cycles(&tools).iter().map(|c| c.iter().map(name).collect::<Vec<_>>().join(" ↔ ")).collect();
    assert!(found.is_empty(), "import cycles between the tools' modules:\n{}", found.join("\n"));
}

/// Two sibling modules that reach each other only by inline `super::` paths (no `use`), as the
/// command line's did: the checker must see the cycle.
#[test]
fn the_checker_sees_a_planted_super_cycle() {
    let m = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<ModPath>();
    let files = vec![
        (m(&["cli"]), true, "mod bench; mod mixed; pub fn fail() {}".to_string()),
        (m(&["cli", "bench"]), false, "pub fn run() { super::mixed::lu(); super::fail(); }".to_string()),
        (m(&["cli", "mixed"]), false, "pub fn lu() { super::bench::report(); }\npub fn report() {}".to_string()),
    ];
    let (_, g) = graph_of(&files);
    let found = cycles(&g);
    assert_eq!(found.len(), 1, "{g:?}");
    assert!(found[0].contains(&m(&["cli", "bench"])) && found[0].contains(&m(&["cli", "mixed"])));
    // `self::` too, and a path inside a longer word is no path.
    let files = vec![
        (m(&["a"]), true, "mod b; mod c; fn f() { self::b::g(); }".to_string()),
        (m(&["a", "b"]), false, "pub fn g() { my_super::c::h(); }".to_string()),
        (m(&["a", "c"]), false, "pub fn h() {}".to_string()),
    ];
    assert!(cycles(&graph_of(&files).1).is_empty());
}

#[test]
fn the_top_level_layers_form_a_dag() {
    let (_, graph) = load();
    let mut top: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, bs) in &graph {
        let ta = a.first().cloned().unwrap_or_else(|| "crate".into());
        for b in bs {
            let tb = b.first().cloned().unwrap_or_else(|| "crate".into());
            if ta != tb && tb != "crate" && ta != "crate" {
                top.entry(ta.clone()).or_default().insert(tb);
            }
        }
    }
    let found = cycles(&top);
    assert!(found.is_empty(), "cycles between layers: {found:?}\nlayer graph: {top:?}");
    // The pass machinery never reaches up into the solvers.
    for low in ["gl", "geometry", "layout", "gpu", "kernels"] {
        let ups: Vec<&String> = top
            .get(low)
            .into_iter()
            .flatten()
            .filter(|t| ["lp", "lsq", "refine", "bench", "debug"].contains(&t.as_str()))
            .collect();
        assert!(ups.is_empty(), "{low} imports {ups:?}");
    }
    // The seeded problems are the tests' and the benchmarks': no solver reads them (the
    // viewer's scenarios do).
    let readers: Vec<&String> =
        top.iter().filter(|(t, deps)| deps.contains("fixtures") && t.as_str() != "debug").map(|(t, _)| t).collect();
    assert!(readers.is_empty(), "layers that import the fixtures: {readers:?}");
    assert!(top.get("debug").is_some_and(|d| d.contains("fixtures")), "the check sees the viewer's import");
}

#[test]
fn only_the_gl_layer_calls_opengl() {
    let mut offenders = Vec::new();
    for f in library_files() {
        let m = module_of(&f);
        if m.first().is_some_and(|s| s == "gl") {
            continue;
        }
        let c = code(&std::fs::read_to_string(&f).expect("readable"));
        if c.contains("glow::") || c.contains("glutin") {
            offenders.push(f.display().to_string());
        }
    }
    assert!(offenders.is_empty(), "GL calls outside src/gl/: {offenders:?}");
}

#[test]
fn no_source_file_is_over_400_lines() {
    let mut long = Vec::new();
    let bin = tools_src().join("cli");
    let tools = tools_library_files().into_iter().chain(std::iter::once(tools_src().join("main.rs")));
    for f in library_files()
        .into_iter()
        .chain(tools)
        .chain(std::fs::read_dir(&bin).expect("cli").flatten().map(|e| e.path()))
    {
        let n = std::fs::read_to_string(&f).expect("readable").lines().count();
        if n > 400 {
            long.push(format!("{} ({n} lines)", f.display()));
        }
    }
    assert!(long.is_empty(), "files over 400 lines: {long:?}");
}

#[test]
fn the_checker_sees_a_planted_cycle() {
    // The analysis itself: two modules importing each other form one cycle.
    let mut g: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    let a = vec!["lp".to_string(), "pipeline".to_string()];
    let b = vec!["lp".to_string(), "verify".to_string()];
    g.entry(a.clone()).or_default().insert(b.clone());
    g.entry(b.clone()).or_default().insert(a.clone());
    assert_eq!(cycles(&g).len(), 1);
    let mut paths = Vec::new();
    expand("", "crate::lp::{pipeline::{objective, reduced_costs}, verify}", &mut paths);
    assert_eq!(paths, ["crate::lp::pipeline::objective", "crate::lp::pipeline::reduced_costs", "crate::lp::verify"]);
    // And on the real tree, with the old cycle re-created in the graph, it is found.
    let (_, mut graph) = load();
    graph.entry(b).or_default().insert(a);
    assert!(!cycles(&graph).is_empty(), "a verify → pipeline edge would close a cycle with pipeline → verify");
}

/// The re-exports of a module's source that no `internals` gate hides: (the path re-exported,
/// relative to the crate, the public path it gets: `public_prefix` and its name).
fn public_reexports(file: &str, own_prefix: &str, public_prefix: &str) -> Vec<(String, String)> {
    // The raw text (its strings kept: the gates name features), comment lines left out.
    let text: String = std::fs::read_to_string(src().join(file))
        .expect("readable")
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("pub use ").map(|a| from + a) {
        let before = &text[..at];
        let end = text[at..].find(';').map_or(text.len(), |e| at + e);
        // The attribute right before the statement, if any.
        let last = before.trim_end().rsplit('\n').next().unwrap_or("");
        let gated = last.trim_start().starts_with("#[cfg") && last.contains("internals");
        // Inside an inline `pub mod name {` (not closed since): public as `name::`.
        let inline_mod = before.rfind("pub mod ").filter(|&m| !before[m..].contains("\n}")).map(|m| {
            before[m + 8..].split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("").to_string()
        });
        if !gated {
            let stmt = &text[at + 8..end];
            let mut sources = Vec::new();
            expand("", stmt, &mut sources);
            // The names they get: the last segment, or the `as` name (in the same order).
            let mut named = Vec::new();
            expand_named(stmt, &mut named);
            let prefix = inline_mod.map_or(public_prefix.to_string(), |m| format!("{public_prefix}{m}::"));
            for (source, name) in sources.into_iter().zip(named) {
                let source = source.strip_prefix("crate::").map_or(format!("{own_prefix}{source}"), str::to_string);
                out.push((source, format!("{prefix}{name}")));
            }
        }
        from = (end + 1).min(text.len());
    }
    out
}

/// The names a use tree gives, in [`expand`]'s order.
fn expand_named(tree: &str, out: &mut Vec<String>) {
    let mut paths = Vec::new();
    expand("", &tree.replace(" as ", "__AS__"), &mut paths);
    for p in paths {
        let last = p.rsplit("::").next().unwrap_or(&p);
        out.push(last.rsplit("__AS__").next().unwrap_or(last).trim().to_string());
    }
}

#[test]
fn the_tools_web_and_python_use_the_public_name_where_one_exists() {
    // One public path per item: a type the root (or `lp`, or `machine`) names is imported by
    // that name, not through the layer that defines it (reachable only with `internals`).
    let mut reexports = public_reexports("lib.rs", "", "");
    reexports.extend(public_reexports("lp/mod.rs", "lp::", "lp::"));
    let public: BTreeSet<String> = reexports.iter().map(|(_, p)| p.clone()).collect();
    let by_source: BTreeMap<String, String> = reexports.into_iter().filter(|(s, _)| !public.contains(s)).collect();
    assert!(
        by_source.contains_key("gpu::cholesky::Variant") && by_source.contains_key("lp::log::Logger"),
        "{by_source:?}"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tools/src", "web/src", "python/src"] {
        all_rs(&root.join(dir), &mut files);
    }
    let found: Vec<String> = files
        .iter()
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).expect("readable");
            through_layers(&text, &by_source).into_iter().map(move |l| format!("{}: {l}", f.display()))
        })
        .collect();
    assert!(found.is_empty(), "imports through a layer of a name the API gives:\n{}", found.join("\n"));
    // Planted: a grouped import through the layer, and a renamed one, are seen; the public
    // names are not.
    let planted = "use glsolve::gpu::cholesky::{plan, Variant};\nuse glsolve::lp::log::Logger as L;\nuse glsolve::{Gpu, Variant};";
    assert_eq!(through_layers(planted, &by_source).len(), 2, "{:?}", through_layers(planted, &by_source));
}

/// The `glsolve::` imports of `text` that go through a layer to a name `by_source` maps to a
/// public one.
fn through_layers(text: &str, by_source: &BTreeMap<String, String>) -> Vec<String> {
    let (uses, _) = imports(&code(text));
    uses.into_iter()
        .filter_map(|(_, path)| {
            let public = path.strip_prefix("glsolve::").and_then(|p| by_source.get(p))?;
            Some(format!("{path} (public as glsolve::{public})"))
        })
        .collect()
}

/// Every `.rs` file under `dir`.
fn all_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    for p in std::fs::read_dir(dir).expect("readable").flatten().map(|e| e.path()) {
        if p.is_dir() {
            all_rs(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}
