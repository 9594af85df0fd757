//! The module loader of the `iris` CLI and the test262 runner: modules are files, found the
//! way node finds ES modules.
//!
//! - A relative (`./x.js`, `../lib/y.mjs`) or absolute (`/a/b.js`, `file:///a/b.js`)
//!   specifier names a file relative to the importing module's directory (the current
//!   directory for the entry module). More lenient than node, and said so in `--help`: a
//!   specifier without its extension finds `x.js` or `x.mjs`, and a directory finds its
//!   `index.js` or `index.mjs`.
//! - A bare specifier (`lodash`, `@scope/pkg/sub`) is looked up in `node_modules` of the
//!   importing module's directory and each parent: the package's `package.json` `exports`
//!   (a string, subpaths, `*` patterns, and the conditions `import`, `node`, `default`), else
//!   its `main`, else `index.js`.
//! - `node:` built-in modules are not there.
//!
//! The key of a module is its canonical absolute path. A file that starts with a bundle's
//! magic bytes is loaded as a compiled bundle.

use std::path::{Component, Path, PathBuf};

use vm::{ModuleLoader, ModuleSource};

/// Finds modules in the file system (see the module docs).
#[derive(Debug, Default)]
pub struct FileLoader;

impl ModuleLoader for FileLoader {
    fn resolve(&mut self, specifier: &str, referrer: Option<&str>) -> Result<String, String> {
        let base = match referrer {
            Some(r) => Path::new(r).parent().map(Path::to_path_buf).unwrap_or_default(),
            None => std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?,
        };
        let path = resolve_path(specifier, &base)?;
        Ok(path.to_string_lossy().into_owned())
    }

    fn load(&mut self, key: &str) -> Result<ModuleSource, String> {
        let bytes = std::fs::read(key).map_err(|e| format!("Cannot read module '{key}': {e}"))?;
        if bytecode::Bundle::is_bundle(&bytes) {
            return Ok(ModuleSource::Bundle(bytes));
        }
        match String::from_utf8(bytes) {
            Ok(text) => Ok(ModuleSource::Text(text)),
            Err(e) => Ok(ModuleSource::Bytes(e.into_bytes())),
        }
    }
}

/// The file `specifier` names from directory `base`, canonical.
pub fn resolve_path(specifier: &str, base: &Path) -> Result<PathBuf, String> {
    if let Some(rest) = specifier.strip_prefix("file://") {
        return find_file(&normalize(Path::new(rest)), specifier);
    }
    if specifier.starts_with("node:") {
        return Err(format!("Cannot find module '{specifier}': node's built-in modules are not available"));
    }
    if specifier.starts_with("./")
        || specifier.starts_with("../")
        || specifier.starts_with('/')
        || specifier == "."
        || specifier == ".."
    {
        return find_file(&normalize(&base.join(specifier)), specifier);
    }
    resolve_package(specifier, base)
}

/// Removes `.` and `..` components without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `path` itself if it is a file, else with `.js` or `.mjs`, else its `index.js` or
/// `index.mjs` if it is a directory.
fn find_file(path: &Path, specifier: &str) -> Result<PathBuf, String> {
    let mut candidates = vec![path.to_path_buf()];
    for ext in ["js", "mjs"] {
        let mut p = path.as_os_str().to_owned();
        p.push(".");
        p.push(ext);
        candidates.push(PathBuf::from(p));
    }
    candidates.push(path.join("index.js"));
    candidates.push(path.join("index.mjs"));
    for c in candidates {
        if c.is_file() {
            return c.canonicalize().map_err(|e| format!("Cannot find module '{}': {e}", c.display()));
        }
    }
    Err(format!("Cannot find module '{}' (from the specifier '{specifier}')", path.display()))
}

/// A bare specifier: `node_modules` of `base` and its parents.
fn resolve_package(specifier: &str, base: &Path) -> Result<PathBuf, String> {
    let mut parts = specifier.splitn(if specifier.starts_with('@') { 3 } else { 2 }, '/');
    let name = match (specifier.starts_with('@'), parts.next(), parts.next()) {
        (true, Some(scope), Some(pkg)) => format!("{scope}/{pkg}"),
        (false, Some(pkg), _) => pkg.to_string(),
        _ => return Err(format!("Invalid module specifier '{specifier}'")),
    };
    let subpath = match specifier[name.len()..].trim_start_matches('/') {
        "" => ".".to_string(),
        s => format!("./{s}"),
    };
    let mut dir = Some(base);
    while let Some(d) = dir {
        let pkg = d.join("node_modules").join(&name);
        if pkg.is_dir() {
            return resolve_in_package(&pkg, &subpath, specifier);
        }
        dir = d.parent();
    }
    Err(format!("Cannot find package '{name}' (from the specifier '{specifier}')"))
}

/// `subpath` (`.` or `./x`) of the package in directory `pkg`.
fn resolve_in_package(pkg: &Path, subpath: &str, specifier: &str) -> Result<PathBuf, String> {
    let manifest = std::fs::read_to_string(pkg.join("package.json")).ok();
    let json: Option<serde_json::Value> = manifest.as_deref().and_then(|m| serde_json::from_str(m).ok());
    if let Some(exports) = json.as_ref().and_then(|j| j.get("exports")) {
        let target = match exports {
            serde_json::Value::Object(map) if map.keys().any(|k| k.starts_with('.')) => subpath_target(map, subpath),
            // A string, an array or a conditions object: the package's main export.
            other if subpath == "." => conditional_target(other),
            _ => None,
        };
        return match target {
            Some(t) => find_file(&normalize(&pkg.join(t)), specifier),
            None => {
                Err(format!("Package subpath '{subpath}' is not exported by {} (from '{specifier}')", pkg.display()))
            }
        };
    }
    if subpath == "." {
        if let Some(main) = json.as_ref().and_then(|j| j.get("main")).and_then(|m| m.as_str()) {
            return find_file(&normalize(&pkg.join(main)), specifier);
        }
        return find_file(&pkg.join("index.js"), specifier);
    }
    find_file(&normalize(&pkg.join(subpath)), specifier)
}

/// The target of `subpath` in an `exports` object of subpaths, with `*` patterns.
fn subpath_target(map: &serde_json::Map<String, serde_json::Value>, subpath: &str) -> Option<String> {
    if let Some(t) = map.get(subpath) {
        return conditional_target(t);
    }
    // The longest matching pattern wins.
    let mut best: Option<(&str, &serde_json::Value, String)> = None;
    for (key, value) in map {
        let Some((prefix, suffix)) = key.split_once('*') else { continue };
        if subpath.starts_with(prefix) && subpath.ends_with(suffix) && subpath.len() >= prefix.len() + suffix.len() {
            let star = subpath[prefix.len()..subpath.len() - suffix.len()].to_string();
            if best.as_ref().is_none_or(|b| key.len() > b.0.len()) {
                best = Some((key, value, star));
            }
        }
    }
    let (_, value, star) = best?;
    conditional_target(value).map(|t| t.replace('*', &star))
}

/// A target: a string, the first usable entry of an array, or the first matching
/// condition (`import`, `node`, `default`) of an object.
fn conditional_target(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Array(items) => items.iter().find_map(conditional_target),
        serde_json::Value::Object(map) => map
            .iter()
            .filter(|(k, _)| matches!(k.as_str(), "import" | "node" | "default" | "module"))
            .find_map(|(_, t)| conditional_target(t)),
        _ => None,
    }
}

/// Whether `path` is module code by its name: `.mjs`, or `.js` under a `package.json` whose
/// `type` is `module` (the nearest one decides).
pub fn is_module_path(path: &Path) -> bool {
    match path.extension().and_then(|e| e.to_str()) {
        Some("mjs") => return true,
        Some("js") => {}
        _ => return false,
    }
    let abs = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let mut dir = abs.parent();
    while let Some(d) = dir {
        if let Ok(text) = std::fs::read_to_string(d.join("package.json")) {
            let json: Option<serde_json::Value> = serde_json::from_str(&text).ok();
            return json.as_ref().and_then(|j| j.get("type")).and_then(|t| t.as_str()) == Some("module");
        }
        dir = d.parent();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("iris-loader-{}-{}", std::process::id(), files.len()));
        let _ = std::fs::remove_dir_all(&dir);
        for (name, text) in files {
            let p = dir.join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        dir.canonicalize().unwrap()
    }

    #[test]
    fn relative_packages_and_exports_resolve_as_node_does() {
        let d = tree(&[
            ("app/main.mjs", ""),
            ("app/lib/util.js", ""),
            ("app/lib/index.js", ""),
            (
                "node_modules/pkg/package.json",
                r#"{"exports": {".": {"import": "./esm/index.mjs", "require": "./cjs.js"}, "./feature/*": "./src/*.js"}}"#,
            ),
            ("node_modules/pkg/esm/index.mjs", ""),
            ("node_modules/pkg/src/a.js", ""),
            ("node_modules/@s/m/package.json", r#"{"main": "lib/m.js"}"#),
            ("node_modules/@s/m/lib/m.js", ""),
        ]);
        let app = d.join("app");
        assert_eq!(resolve_path("./lib/util.js", &app).unwrap(), d.join("app/lib/util.js"));
        assert_eq!(resolve_path("./lib/util", &app).unwrap(), d.join("app/lib/util.js"));
        assert_eq!(resolve_path("./lib", &app).unwrap(), d.join("app/lib/index.js"));
        assert_eq!(resolve_path("../app/main.mjs", &app).unwrap(), d.join("app/main.mjs"));
        assert_eq!(resolve_path("pkg", &app).unwrap(), d.join("node_modules/pkg/esm/index.mjs"));
        assert_eq!(resolve_path("pkg/feature/a", &app).unwrap(), d.join("node_modules/pkg/src/a.js"));
        assert_eq!(resolve_path("@s/m", &app).unwrap(), d.join("node_modules/@s/m/lib/m.js"));
        assert!(resolve_path("pkg/cjs.js", &app).unwrap_err().contains("not exported"));
        assert!(resolve_path("./missing.js", &app).unwrap_err().contains("Cannot find module"));
        assert!(resolve_path("nothing", &app).unwrap_err().contains("Cannot find package"));
        let _ = std::fs::remove_dir_all(&d);
    }
}
