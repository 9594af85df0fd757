//! The layering drawn at the top of `lib.rs`, kept by a test: every `crate::` path (and
//! every `super::` path that leaves its top-level module) in a module's source must name a
//! module of the same or a lower layer. Unit tests (`tests.rs` files and the `#[cfg(test)]`
//! module at the end of a file) may build a whole runtime and are not checked.

use std::collections::HashMap;
use std::path::Path;

/// The layer of each top-level module, read from the `layer N  a, b` lines of the drawing.
fn layers_from_drawing(lib_rs: &str) -> HashMap<String, u32> {
    let mut layers = HashMap::new();
    for line in lib_rs.lines() {
        let Some(rest) = line.trim_start_matches("//!").trim_start().strip_prefix("layer ") else { continue };
        let (n, rest) = rest.split_once(' ').expect("`layer N  modules` in the drawing");
        let n: u32 = n.parse().expect("a layer number");
        let modules = rest.trim_start().split("  ").next().unwrap_or("");
        for m in modules.split(',') {
            layers.insert(m.trim().to_string(), n);
        }
    }
    layers
}

/// The top-level module a source file belongs to (`runtime/property.rs` → `runtime`) and its
/// module path below the crate root.
fn module_path(file: &str) -> Vec<String> {
    let file = file.strip_suffix(".rs").unwrap_or(file);
    let mut parts: Vec<String> = file.split('/').map(String::from).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The top-level module a path written in `file` names, if it is a crate-local path.
fn named_module(file_module: &[String], path: &str) -> Option<String> {
    if let Some(rest) = path.strip_prefix("crate::") {
        return rest.split("::").next().map(String::from);
    }
    let mut module = file_module.to_vec();
    let mut rest = path;
    while let Some(r) = rest.strip_prefix("super::") {
        module.pop();
        rest = r;
    }
    if rest.len() == path.len() {
        return None;
    }
    match module.first() {
        Some(top) => Some(top.clone()),
        None => rest.split("::").next().map(String::from),
    }
}

/// Every path in `text` (the source of `file`, relative to `src/`) that names a module of a
/// higher layer, as `file:line: path`.
fn violations(file: &str, text: &str, layers: &HashMap<String, u32>) -> Vec<String> {
    let module = module_path(file);
    let Some(&own) = module.first().and_then(|m| layers.get(m)) else {
        return vec![format!("{file}: module `{}` is not in the layering drawing of lib.rs", module[0])];
    };
    let mut found = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        // An inline test module ends what is checked (it comes last in a file).
        let next = lines.get(i + 1).map_or("", |l| l.trim());
        if line.trim_start().starts_with("#[cfg(test)]") && next.starts_with("mod ") && next.ends_with('{') {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        let mut from = 0;
        while let Some(at) = code[from..].find(['c', 's']).map(|k| k + from) {
            let tail = &code[at..];
            let boundary =
                at == 0 || !code.as_bytes()[at - 1].is_ascii_alphanumeric() && code.as_bytes()[at - 1] != b'_';
            if boundary && (tail.starts_with("crate::") || tail.starts_with("super::")) {
                let end = tail.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(tail.len());
                let path = &tail[..end];
                if let Some(target) = named_module(&module, path) {
                    if let Some(&t) = layers.get(&target) {
                        if t > own {
                            found.push(format!("{file}:{}: `{path}` (layer {own} → layer {t})", i + 1));
                        }
                    }
                }
                from = at + end.max(1);
            } else {
                from = at + 1;
            }
        }
    }
    found
}

fn sources(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("readable src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            sources(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).expect("under src").to_string_lossy().replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&path).expect("readable source")));
        }
    }
}

#[test]
fn modules_import_only_from_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let layers = layers_from_drawing(&std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs"));
    assert!(layers.len() >= 9, "the drawing in lib.rs names the modules: {layers:?}");
    let mut files = Vec::new();
    sources(&src, &src, &mut files);
    let mut found = Vec::new();
    for (file, text) in &files {
        let name = file.rsplit('/').next().unwrap_or(file);
        if file == "lib.rs" || file == "layering.rs" || name == "tests.rs" || file.contains("/tests/") {
            continue;
        }
        found.extend(violations(file, text, &layers));
    }
    assert!(found.is_empty(), "imports from a higher layer (see the drawing in lib.rs):\n{}", found.join("\n"));
}

#[test]
fn an_upward_import_is_reported() {
    let layers = layers_from_drawing("//!  layer 1  object, string    things\n//!  layer 2  runtime  more\n");
    let text = "use crate::string::Str;\nuse crate::runtime::Runtime;\nfn f() { super::super::runtime::x() }\n";
    let found = violations("object/shape.rs", text, &layers);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("object/shape.rs:2: `crate::runtime::Runtime`"), "{found:?}");
    assert!(found[1].starts_with("object/shape.rs:3: `super::super::runtime::x`"), "{found:?}");
    // A test module at the end of a file may use anything; a declared one is a file of its own.
    let inline = "#[cfg(test)]\nmod tests {\n    use crate::runtime::Runtime;\n}\n";
    assert!(violations("object/mod.rs", inline, &layers).is_empty());
    let declared = "#[cfg(test)]\nmod tests;\nuse crate::runtime::Runtime;\n";
    assert_eq!(violations("object/mod.rs", declared, &layers).len(), 1);
    // A module missing from the drawing is an error too.
    assert_eq!(violations("interp/mod.rs", "", &layers).len(), 1);
}
