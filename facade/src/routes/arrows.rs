//! The import arrows of the facade (ARCHITECTURE.md, `facade/`), checked over the sources: the
//! arrows between the feature folders are the listed ones and run one way, no feature imports
//! what sits above the features (`site`, `ws`, `static_files`), and nothing but the assembly
//! (`lib.rs`, `main.rs`, `openapi.rs`) imports the assembly.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Which feature folder imports which. A new arrow goes here and in ARCHITECTURE.md.
const ARROWS: &[(&str, &str)] = &[
    ("activity", "accounts"),
    ("activity", "commerce"),
    ("commerce", "accounts"),
    ("commerce", "catalogue"),
    ("rooms", "play"),
];

/// The route files above the feature folders: they may import the features, never the reverse.
const ABOVE: &[&str] = &["site", "ws", "static_files"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comment lines (doc comments name modules in prose).
fn code(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names a path prefix reaches in `text`: `prefix name` and each name of `prefix{a, b}`.
fn reached<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    let ident = |s: &'a str| &s[..s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len())];
    let mut names = Vec::new();
    for (at, _) in text.match_indices(prefix) {
        let rest = &text[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            names.extend(group.split(',').map(|n| ident(n.trim())).filter(|n| !n.is_empty()));
        } else {
            names.push(ident(rest));
        }
    }
    names
}

fn features() -> BTreeSet<String> {
    std::fs::read_dir(src().join("routes"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn feature_folders_import_each_other_only_along_the_listed_arrows() {
    let features = features();
    let mut found: BTreeMap<(String, String), PathBuf> = BTreeMap::new();
    for feature in &features {
        let mut files = Vec::new();
        rust_files(&src().join("routes").join(feature), &mut files);
        for file in files {
            let text = code(&file);
            // the `super::`s that reach `routes` from this file's module
            let inside = file.strip_prefix(src().join("routes").join(feature)).unwrap().components().count();
            let up = "super::".repeat(if file.ends_with("mod.rs") { inside } else { inside + 1 });
            for name in reached(&text, "crate::routes::").into_iter().chain(reached(&text, &up)) {
                assert!(
                    !ABOVE.contains(&name),
                    "{} imports routes::{name}, which sits above the feature folders",
                    file.display()
                );
                if features.contains(name) && name != feature {
                    found.entry((feature.clone(), name.to_string())).or_insert(file.clone());
                }
            }
        }
    }
    let listed: BTreeSet<(String, String)> = ARROWS.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    for ((from, to), file) in &found {
        assert!(
            listed.contains(&(from.clone(), to.clone())),
            "{} makes the arrow {from} -> {to}, which is not listed (routes/arrows.rs, ARCHITECTURE.md)",
            file.display()
        );
    }
    for (from, to) in &listed {
        assert!(
            found.contains_key(&(from.clone(), to.clone())),
            "the listed arrow {from} -> {to} is gone: unlist it"
        );
    }
}

#[test]
fn the_listed_arrows_make_no_circle() {
    // a feature whose every import is already placed is placed; all are placed iff no circle
    let mut placed: BTreeSet<&str> = BTreeSet::new();
    let all: BTreeSet<&str> = ARROWS.iter().flat_map(|(a, b)| [*a, *b]).collect();
    loop {
        let next: Vec<&str> = all
            .iter()
            .filter(|f| !placed.contains(*f))
            .filter(|f| ARROWS.iter().filter(|(a, _)| a == *f).all(|(_, b)| placed.contains(b)))
            .copied()
            .collect();
        if next.is_empty() {
            break;
        }
        placed.extend(next);
    }
    assert_eq!(placed, all, "the arrows between feature folders make a circle");
}

#[test]
fn only_the_assembly_imports_the_assembly() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    for file in files {
        let name = file.strip_prefix(src()).unwrap().to_string_lossy().into_owned();
        if ["lib.rs", "main.rs", "openapi.rs"].contains(&name.as_str()) || name == "routes/arrows.rs" {
            continue;
        }
        let text = code(&file);
        for name in reached(&text, "crate::") {
            assert!(
                !["openapi", "AppState", "start", "Running"].contains(&name),
                "{} imports crate::{name}: the assembly's (use the shared module instead)",
                file.display()
            );
        }
        if name.starts_with("routes/") && name != "routes/mod.rs" {
            for item in reached(&text, "crate::routes::") {
                assert!(
                    !["table", "dev_table", "dev_pages"].contains(&item),
                    "{} imports the route table",
                    file.display()
                );
            }
        }
    }
}
