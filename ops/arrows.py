#!/usr/bin/env python3
"""The arrows between feature folders: which folder of a layer imports which, checked against the
allowed arrows of ops/arrows.toml.

    python3 ops/arrows.py             the check: exit 1, one line per problem, when it fails
    python3 ops/arrows.py --report    the actual arrows of every layer, with counts, and cycles
    python3 ops/arrows.py --dot       the same graph for Graphviz (dot -Tsvg > arrows.svg)

A layer is a tree of source files (Rust or TypeScript) under a root. Each file belongs to one
node: the first path component under the root (a folder, or a top-level file's stem), or, under
one of the layer's `split` folders, the folder and its own first component (`routes/room`,
`features/auth`). ops/arrows.toml sorts the nodes into:

- features: one may import another only along an allowed arrow (`allow = ["a -> b"]`), and the
  allowed arrows must not form a cycle, so no circle of imports can appear between features;
- shared: the kernel every node may import; it imports no feature and no root;
- roots: the composition roots (a crate's lib.rs, the app shell) that may import anything and
  that no feature or shared node imports.

A node the configuration does not name is a problem too, so a new folder is placed on purpose.
Layers with `enforce = false` are reported but do not fail the check.

What counts as an import:
- Rust: `use` trees (`use crate::a::b`, `use crate::{a, b::{c, d}}`, `use super::x`, `use self::x`)
  and `crate::`, `super::`, `self::` paths anywhere in code; in a file, the paths through the
  modules it declares (`mod x;` ... `x::f()`); comments, strings and `$crate` are not code;
  `super` is resolved from the module the code is in (the file's, and any inline `mod` it is
  inside); `crate::Name` re-exported by the crate root (`pub use a::Name`) counts as `a`;
  `mod x;` itself is not an import.
- TypeScript/TSX: `import ... from '...'`, `import '...'`, `import('...')`,
  `export ... from '...'`; relative specifiers are resolved against the file, the layer's
  `aliases` (e.g. `"@/" = "src/"`) against the repository; packages are not arrows.

Standard library only (Python 3.11: tomllib).
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import re
import sys
import tomllib
from dataclasses import dataclass, field

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG = os.path.join(REPO, "ops", "arrows.toml")

RUST_EXT = (".rs",)
TS_EXT = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
SKIP_DIRS = {"node_modules", "target", "dist", ".git"}


class ConfigError(Exception):
    """The configuration is malformed (exit 2)."""


# ---------------------------------------------------------------------------------------------
# The configuration


@dataclass
class Layer:
    name: str
    lang: str
    root: str  # relative to the repository
    split: list[str]
    features: list[str]
    shared: list[str]
    roots: list[str]
    allow: list[tuple[str, str, int]]  # (from, to, line of arrows.toml)
    enforce: bool
    aliases: dict[str, str]
    exclude: list[str]
    crate: str | None

    def category(self, node: str) -> str | None:
        # the first that matches: so `features = ["routes/*"]` can leave one of them to `shared`
        for cat, patterns in (("root", self.roots), ("shared", self.shared), ("feature", self.features)):
            if any(fnmatch.fnmatchcase(node, p) for p in patterns):
                return cat
        return None


def _line_of(text: str, needle: str, start: int = 0) -> int:
    i = text.find(needle, start)
    return text.count("\n", 0, i) + 1 if i >= 0 else 0


def load_config(path: str) -> list[Layer]:
    try:
        with open(path, "rb") as f:
            raw = f.read()
        data = tomllib.loads(raw.decode())
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: {e}") from e
    text = raw.decode()
    layers = []
    for name, t in (data.get("layer") or {}).items():
        if not isinstance(t, dict):
            raise ConfigError(f"{path}: [layer.{name}] is not a table")
        known = {"lang", "root", "split", "features", "shared", "roots", "allow", "enforce", "aliases", "exclude", "crate"}
        unknown = set(t) - known
        if unknown:
            raise ConfigError(f"{path}: [layer.{name}] has unknown keys {sorted(unknown)}")
        lang = t.get("lang")
        if lang not in ("rust", "ts"):
            raise ConfigError(f'{path}: [layer.{name}] lang must be "rust" or "ts"')
        if "root" not in t or "enforce" not in t:
            raise ConfigError(f"{path}: [layer.{name}] needs root and enforce")
        section = text.find(f"[layer.{name}]")
        allow = []
        for a in t.get("allow", []):
            m = re.fullmatch(r"\s*(\S+)\s*->\s*(\S+)\s*", a)
            if not m:
                raise ConfigError(f'{path}: [layer.{name}] allow entry "{a}" is not "a -> b"')
            allow.append((m[1], m[2], _line_of(text, f'"{a}"', max(section, 0))))
        layers.append(
            Layer(
                name=name,
                lang=lang,
                root=t["root"],
                split=list(t.get("split", [])),
                features=list(t.get("features", [])),
                shared=list(t.get("shared", [])),
                roots=list(t.get("roots", [])),
                allow=allow,
                enforce=bool(t["enforce"]),
                aliases=dict(t.get("aliases", {})),
                exclude=list(t.get("exclude", [])),
                crate=t.get("crate"),
            )
        )
    if not layers:
        raise ConfigError(f"{path}: no [layer.NAME] tables")
    return layers


# ---------------------------------------------------------------------------------------------
# The graph


@dataclass(frozen=True)
class Site:
    file: str  # relative to the repository
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Graph:
    layer: Layer
    nodes: dict[str, list[str]] = field(default_factory=dict)  # node -> its files
    edges: dict[tuple[str, str], list[Site]] = field(default_factory=dict)

    def add(self, a: str, b: str, site: Site) -> None:
        if a != b:
            sites = self.edges.setdefault((a, b), [])
            if site not in sites:
                sites.append(site)


def source_files(repo: str, layer: Layer) -> list[str]:
    root = os.path.join(repo, layer.root)
    if not os.path.isdir(root):
        raise ConfigError(f"[layer.{layer.name}] root {layer.root} is not a directory")
    exts = RUST_EXT if layer.lang == "rust" else TS_EXT
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("."))
        for f in sorted(files):
            if f.endswith(exts):
                rel = os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/")
                if not any(fnmatch.fnmatchcase(rel, p) for p in layer.exclude):
                    out.append(rel)
    return out


def _stem(name: str, lang: str) -> str:
    return name[:-3] if lang == "rust" else name.split(".", 1)[0]


def node_of_file(rel: str, layer: Layer) -> str:
    """The node of a file, by its path under the layer's root."""
    parts = rel.split("/")
    if len(parts) == 1:
        return _stem(parts[0], layer.lang)
    if parts[0] in layer.split:
        if layer.lang == "rust" and parts[1] == "mod.rs" and len(parts) == 2:
            return parts[0]
        if len(parts) == 2 and layer.lang == "ts":
            return parts[0]
        return f"{parts[0]}/{_stem(parts[1], layer.lang) if len(parts) == 2 else parts[1]}"
    return parts[0]


def build(repo: str, layer: Layer) -> Graph:
    g = Graph(layer)
    files = source_files(repo, layer)
    scanner = RustLayer(repo, layer, files) if layer.lang == "rust" else TsLayer(repo, layer)
    for rel in files:
        g.nodes.setdefault(scanner.node_for(rel), []).append(rel)
    scanner.scan(files, g)
    for sites in g.edges.values():
        sites.sort(key=lambda s: (s.file, s.line))
    return g


# ---------------------------------------------------------------------------------------------
# Rust

_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


_RAW_STRING = re.compile(r'b?r(#*)"')
_CHAR = re.compile(r"'(\\(?:u\{[0-9a-fA-F]*\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'")


def strip_rust(src: str) -> str:
    """The source with comments and the insides of string and char literals blanked (newlines
    kept, so offsets and line numbers stay)."""
    out = list(src)
    n = len(src)
    i = 0

    def blank(a: int, b: int) -> None:
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif (m := _RAW_STRING.match(src, i)) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            end = src.find('"' + m[1], m.end())
            end = n if end < 0 else end
            blank(m.end(), end)
            i = end + 1 + len(m[1])
        elif c == '"' or (c == "b" and src.startswith('b"', i) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_"))):
            j = i + (2 if c == "b" else 1)
            start = j
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            blank(start, j)
            i = j + 1
        elif c == "'":
            # a char literal ('x', '\n', '\u{..}', b'x'), or a lifetime ('a)
            m = _CHAR.match(src, i)
            if m:
                blank(i + 1, m.end() - 1)
                i = m.end()
            else:
                i += 1
        else:
            i += 1
    return "".join(out)


_TOKEN = re.compile(rf"::|{_IDENT}|[{{}},*;]")


def parse_use_tree(text: str) -> list[list[str]]:
    """The leaf paths of a use tree (the text between `use` and `;`): `crate::{a, b::{c, d}}` is
    [crate, a], [crate, b, c], [crate, b, d]; `x::{self}` is [x]; `x::*` is [x, *]; an `as`
    rename keeps the path. A leading `::` (an outside crate) gives nothing."""
    return [path for path, _ in use_leaves(text)]


def use_leaves(text: str) -> list[tuple[list[str], int]]:
    """parse_use_tree's leaves, each with the offset in `text` of its last segment."""
    toks = [(m[0], m.start()) for m in _TOKEN.finditer(text)]
    leaves: list[tuple[list[str], int]] = []
    if toks and toks[0][0] == "::":
        return leaves

    def tree(i: int, prefix: list[str]) -> int:
        path = list(prefix)
        at = toks[i][1] if i < len(toks) else 0
        took_self = False  # `a::{self}` names `a`
        while i < len(toks):
            t = toks[i][0]
            if t == "{":
                i += 1
                while i < len(toks) and toks[i][0] != "}":
                    if toks[i][0] == ",":
                        i += 1
                        continue
                    i = tree(i, path)
                return i + 1
            if t == "*":
                leaves.append((path + ["*"], toks[i][1]))
                return i + 1
            if t in (",", "}", ";"):
                if path != prefix or took_self:
                    leaves.append((path, at))
                return i
            if t == "::":
                i += 1
                continue
            if t == "as":
                leaves.append((path, at))
                return i + 2
            if t == "self" and path:
                took_self, at = True, toks[i][1]
            else:
                path.append(t)
                at = toks[i][1]
            i += 1
        if path != prefix or took_self:
            leaves.append((path, at))
        return i

    tree(0, [])
    return leaves


class RustLayer:
    """Resolves the paths of one crate's files to nodes."""

    def __init__(self, repo: str, layer: Layer, files: list[str]):
        self.repo = repo
        self.layer = layer
        self.root = os.path.join(repo, layer.root)
        # `#[path = "x.rs"] mod m;`: x.rs is the module m of the declaring file, in its node
        self.placed: dict[str, tuple[str, list[str]]] = {}
        for rel in files:
            src = _read(os.path.join(self.root, rel))
            code = strip_rust(src)
            for m in re.finditer(rf'#\[\s*path\s*=\s*"(\s*)"\s*\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+({_IDENT})\s*;', code):
                raw = src[m.start(1) - 1 : m.end(1) + 1]
                target = os.path.normpath(os.path.join(os.path.dirname(rel), raw.strip('"'))).replace(os.sep, "/")
                self.placed[target] = (node_of_file(rel, layer), self.module_of_file(rel) + [m[2]])
        self.crate_root = "lib.rs" if os.path.exists(os.path.join(self.root, "lib.rs")) else "main.rs"
        self.root_node = _stem(self.crate_root, "rust")
        self.reexports: dict[str, list[str]] = {}
        path = os.path.join(self.root, self.crate_root)
        if os.path.exists(path):
            code = strip_rust(_read(path))
            mods = set(re.findall(rf"\bmod\s+({_IDENT})\s*[;{{]", code))
            for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]*);", code):
                for leaf in parse_use_tree(m[1]):
                    if leaf and leaf[-1] != "*":
                        full = leaf[1:] if leaf[0] == "crate" else leaf
                        if full and full[0] in mods:
                            alias = re.search(rf"\b{re.escape(leaf[-1])}\s+as\s+({_IDENT})", m[1])
                            self.reexports[alias[1] if alias else leaf[-1]] = full

    def is_module(self, *parts: str) -> bool:
        base = os.path.join(self.root, *parts)
        return os.path.isfile(base + ".rs") or os.path.isdir(base)

    def node_of_path(self, path: list[str]) -> str | None:
        """The node of an absolute path of the crate (without `crate`)."""
        if not path or path[0] == "*":
            return self.root_node
        if not self.is_module(path[0]):
            if path[0] in self.reexports:
                return self.node_of_path(self.reexports[path[0]])
            return self.root_node
        if path[0] in self.layer.split and len(path) > 1 and self.is_module(path[0], path[1]):
            return f"{path[0]}/{path[1]}"
        return path[0]

    def node_for(self, rel: str) -> str:
        return self.placed[rel][0] if rel in self.placed else node_of_file(rel, self.layer)

    def module_for(self, rel: str) -> list[str]:
        return self.placed[rel][1] if rel in self.placed else self.module_of_file(rel)

    @staticmethod
    def module_of_file(rel: str) -> list[str]:
        parts = rel[:-3].split("/")
        if parts[-1] == "mod" or (len(parts) == 1 and parts[0] in ("lib", "main")):
            parts = parts[:-1]
        return parts

    def resolve(self, segs: list[str], modpath: list[str], file_mods: set[str], at_file_level: bool, is_bin: bool) -> list[str] | None:
        """The absolute path (without `crate`) of a path written in module `modpath`, or None
        for an outside crate's."""
        head = segs[0]
        if head == "crate":
            return None if is_bin else segs[1:]
        if self.layer.crate and head == self.layer.crate and is_bin:
            return segs[1:]
        if head in ("super", "self"):
            base = list(modpath)
            i = 0
            if head == "self":
                i = 1
            while i < len(segs) and segs[i] == "super":
                if not base:
                    return None
                base.pop()
                i += 1
            return None if is_bin else base + segs[i:]
        if at_file_level and head in file_mods:
            return None if is_bin else modpath + segs
        return None

    def scan(self, files: list[str], g: Graph) -> None:
        has_lib = os.path.exists(os.path.join(self.root, "lib.rs"))
        for rel in files:
            src = _read(os.path.join(self.root, rel))
            code = strip_rust(src)
            node = self.node_for(rel)
            file_mod = self.module_for(rel)
            is_bin = rel == "main.rs" and has_lib
            file_mods = set(re.findall(rf"\bmod\s+({_IDENT})\s*;", code))
            scopes = _inline_modules(code)
            site_file = f"{self.layer.root}/{rel}"

            def where(pos: int) -> tuple[list[str], bool]:
                inner = [name for (name, a, b) in scopes if a <= pos < b]
                return file_mod + inner, not inner

            def add(segs: list[str], pos: int) -> None:
                modpath, top = where(pos)
                path = self.resolve(segs, modpath, file_mods, top, is_bin)
                if path is None:
                    return
                target = self.node_of_path(path)
                if target:
                    g.add(node, target, Site(site_file, code.count("\n", 0, pos) + 1))

            blanked = list(code)
            for m in re.finditer(r"(?<![\w$])use\s+([^;{}]*(?:\{[^;]*)?);", code):
                for leaf, offset in use_leaves(m[1]):
                    add(leaf, m.start(1) + offset)
                for k in range(m.start(), m.end()):
                    if blanked[k] != "\n":
                        blanked[k] = " "
            rest = "".join(blanked)
            for m in re.finditer(rf"(?<![\w$:.])({_IDENT}(?:\s*::\s*{_IDENT})+)", rest):
                segs = re.split(r"\s*::\s*", m[1])
                if segs[0] in ("crate", "super", "self") or segs[0] in file_mods or segs[0] == self.layer.crate:
                    add(segs, m.start())


def _inline_modules(code: str) -> list[tuple[str, int, int]]:
    """The inline `mod name { ... }` blocks of stripped code: (name, start, end)."""
    out = []
    for m in re.finditer(rf"\bmod\s+({_IDENT})\s*\{{", code):
        depth, j = 1, m.end()
        while j < len(code) and depth:
            if code[j] == "{":
                depth += 1
            elif code[j] == "}":
                depth -= 1
            j += 1
        out.append((m[1], m.start(), j))
    return out


# ---------------------------------------------------------------------------------------------
# TypeScript


def strip_ts(src: str) -> str:
    """The source with comments blanked (strings kept: they hold the specifiers)."""
    out = list(src)
    n = len(src)
    i = 0
    prev = ""  # the last significant character, to tell a regex literal from a division

    def blank(a: int, b: int) -> None:
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c in "'\"`":
            j = i + 1
            while j < n and src[j] != c:
                if src[j] == "\\":
                    j += 1
                elif c != "`" and src[j] == "\n":
                    break
                j += 1
            i, prev = j + 1, c
        elif c == "/" and (prev == "" or prev in "(,=:[!&|?{};+-*%<>~^" or re.search(r"\b(return|typeof|case|in|of)\s*$", src[max(0, i - 10) : i])):
            j = i + 1
            in_class = False
            while j < n and src[j] != "\n":
                if src[j] == "\\":
                    j += 1
                elif src[j] == "[":
                    in_class = True
                elif src[j] == "]":
                    in_class = False
                elif src[j] == "/" and not in_class:
                    break
                j += 1
            i, prev = j + 1, "/"
        else:
            if not c.isspace():
                prev = c
            i += 1
    return "".join(out)


_TS_IMPORTS = [
    re.compile(r"(?<![\w$.])(?:import|export)\s+(?:type\s+)?[\w\s{},*$]*?\bfrom\s*(['\"])([^'\"\n]+)\1"),
    re.compile(r"(?<![\w$.])import\s*(['\"])([^'\"\n]+)\1"),
    re.compile(r"(?<![\w$.])import\s*\(\s*(['\"])([^'\"\n]+)\1\s*[,)]"),
]


class TsLayer:
    def __init__(self, repo: str, layer: Layer):
        self.repo = repo
        self.layer = layer
        self.root = os.path.join(repo, layer.root)

    def node_for(self, rel: str) -> str:
        return node_of_file(rel, self.layer)

    def resolve(self, spec: str, file_dir: str) -> str | None:
        """The file (relative to the layer's root) a specifier names, or None (a package, or
        outside the layer)."""
        if spec.startswith("."):
            base = os.path.normpath(os.path.join(file_dir, spec))
        else:
            for prefix, target in self.layer.aliases.items():
                if spec.startswith(prefix):
                    base = os.path.normpath(os.path.join(self.repo, target, spec[len(prefix) :]))
                    break
            else:
                return None
        candidates = [base] + [base + e for e in TS_EXT + (".d.ts",)] + [os.path.join(base, "index" + e) for e in TS_EXT]
        if base.endswith((".js", ".jsx", ".mjs")):  # TypeScript's `./x.js` naming `./x.ts`
            stem = base.rsplit(".", 1)[0]
            candidates += [stem + ".ts", stem + ".tsx", stem + ".mts"]
        for c in candidates:
            if os.path.isfile(c):
                rel = os.path.relpath(c, self.root).replace(os.sep, "/")
                return None if rel.startswith("../") else rel
        rel = os.path.relpath(base, self.root).replace(os.sep, "/")
        return None if rel.startswith("../") else rel  # unresolved: still a node by its path

    def scan(self, files: list[str], g: Graph) -> None:
        for rel in files:
            path = os.path.join(self.root, rel)
            code = strip_ts(_read(path))
            node = node_of_file(rel, self.layer)
            seen = set()
            for rx in _TS_IMPORTS:
                for m in rx.finditer(code):
                    pos = m.start(2)
                    if pos in seen:
                        continue
                    seen.add(pos)
                    target = self.resolve(m[2], os.path.dirname(path))
                    if target is None:
                        continue
                    g.add(node, node_of_file(target, self.layer), Site(f"{self.layer.root}/{rel}", code.count("\n", 0, pos) + 1))


def _read(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


# ---------------------------------------------------------------------------------------------
# The check


def find_cycle(edges: set[tuple[str, str]]) -> list[str] | None:
    """One cycle of a directed graph, as [a, b, ..., a], or None."""
    adj: dict[str, list[str]] = {}
    for a, b in sorted(edges):
        adj.setdefault(a, []).append(b)
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(v: str) -> list[str] | None:
        state[v] = 1
        stack.append(v)
        for w in adj.get(v, []):
            if state.get(w) == 1:
                return stack[stack.index(w) :] + [w]
            if w not in state:
                found = visit(w)
                if found:
                    return found
        stack.pop()
        state[v] = 2
        return None

    for v in sorted(adj):
        if v not in state:
            found = visit(v)
            if found:
                return found
    return None


def cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan), each sorted."""
    adj: dict[str, list[str]] = {}
    nodes = set()
    for a, b in edges:
        adj.setdefault(a, []).append(b)
        nodes |= {a, b}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in adj.get(v, []):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))
    for v in sorted(nodes):
        if v not in index:
            strong(v)
    return sorted(out)


def _sites(sites: list[Site], limit: int = 0) -> str:
    shown = sites if not limit or len(sites) <= limit else sites[:limit]
    more = f", and {len(sites) - len(shown)} more" if len(shown) < len(sites) else ""
    return ", ".join(map(str, shown)) + more


def problems(g: Graph, config_path: str) -> tuple[list[str], list[str]]:
    """A layer's problems, one line each: those of its configuration (they fail the check even
    when the layer is not enforced) and those of its tree."""
    layer = g.layer
    cfg = os.path.relpath(config_path, REPO) if config_path.startswith(REPO + os.sep) else config_path
    conf, tree = [], []
    allowed = set()
    for a, b, line in layer.allow:
        for end in (a, b):
            if layer.category(end) != "feature":
                conf.append(f"{layer.name}: {cfg}:{line}: the allowed arrow {a} -> {b} names {end}, which is not a feature")
        allowed.add((a, b))
    loop = find_cycle(allowed)
    if loop:
        steps = set(zip(loop, loop[1:]))
        lines = sorted({line for a, b, line in layer.allow if (a, b) in steps})
        conf.append(f"{layer.name}: {cfg}:{','.join(map(str, lines))}: the allowed arrows form a cycle: {' -> '.join(loop)}")
    cat = {n: layer.category(n) for n in g.nodes}
    for n in sorted(g.nodes):
        if cat[n] is None:
            files = ", ".join(f"{layer.root}/{f}" for f in g.nodes[n][:3]) + (", ..." if len(g.nodes[n]) > 3 else "")
            tree.append(f"{layer.name}: {n} ({files}) is neither a feature, shared nor a root: place it in {cfg} [layer.{layer.name}]")
    for (a, b), sites in sorted(g.edges.items()):
        ca, cb = cat.get(a), cat.get(b) or layer.category(b)
        if ca == "feature" and cb == "feature" and (a, b) not in allowed:
            tree.append(f"{layer.name}: the arrow {a} -> {b} is not allowed ({_sites(sites)})")
        elif ca == "shared" and cb == "feature":
            tree.append(f"{layer.name}: the shared {a} imports the feature {b} ({_sites(sites)})")
        elif ca in ("feature", "shared") and cb == "root":
            tree.append(f"{layer.name}: the {ca} {a} imports the root {b} ({_sites(sites)})")
        elif b not in g.nodes and cb is None and ca is not None:
            tree.append(f"{layer.name}: {a} imports {b}, which has no files under {layer.root}: place it ({_sites(sites)})")
    return conf, tree


def report(g: Graph, probs: list[str], sites: bool = False) -> str:
    layer = g.layer
    allowed = {(a, b) for a, b, _ in layer.allow}
    lines = [f"== {layer.name} ({layer.root}, {'enforced' if layer.enforce else 'not enforced'}): "
             f"{len(g.nodes)} nodes, {len(g.edges)} arrows, {sum(len(s) for s in g.edges.values())} import lines"]
    groups: dict[str, list[str]] = {}
    for n in sorted(g.nodes):
        groups.setdefault(layer.category(n) or "unplaced", []).append(n)
    for c in ("feature", "shared", "root", "unplaced"):
        if c in groups:
            lines.append(f"  {c}: {' '.join(groups[c])}")
    lines.append("  arrows (import lines):")
    for (a, b), where in sorted(g.edges.items()):
        ca, cb = layer.category(a), layer.category(b)
        mark = ""
        if ca == "feature" and cb == "feature":
            mark = "allowed" if (a, b) in allowed else "NOT ALLOWED"
        elif ca == "shared" and cb == "feature":
            mark = "SHARED IMPORTS A FEATURE"
        elif ca in ("feature", "shared") and cb == "root":
            mark = "IMPORTS A ROOT"
        lines.append(f"    {a} -> {b}  ({len(where)}){'  ' + mark if mark else ''}")
        if sites:
            lines.extend(f"        {s}" for s in where)
    unused = sorted(allowed - set(g.edges))
    if unused:
        lines.append("  allowed but absent: " + ", ".join(f"{a} -> {b}" for a, b in unused))
    loops = cycles(set(g.edges))
    lines.append(f"  cycles: {len(loops) or 'none'}")
    for comp in loops:
        members = set(comp)
        inner = sum(1 for a, b in g.edges if a in members and b in members)
        lines.append(f"    {len(comp)} nodes, {inner} arrows among them: {' '.join(comp)}")
    lines.append(f"  problems: {len(probs) or 'none'}")
    return "\n".join(lines)


def dot(graphs: list[Graph]) -> str:
    out = ["digraph arrows {", "  rankdir=LR;", "  node [shape=box, fontname=Helvetica, fontsize=10];"]
    colour = {"feature": "#dbe9ff", "shared": "#e6e6e6", "root": "#fff1c2", None: "#ffd0d0"}
    for g in graphs:
        layer = g.layer
        allowed = {(a, b) for a, b, _ in layer.allow}
        out.append(f'  subgraph "cluster_{layer.name}" {{')
        out.append(f'    label="{layer.name} ({layer.root})";')
        for n in sorted(g.nodes):
            out.append(f'    "{layer.name}:{n}" [label="{n}", style=filled, fillcolor="{colour[layer.category(n)]}"];')
        for (a, b), sites in sorted(g.edges.items()):
            ca, cb = layer.category(a), layer.category(b)
            bad = (ca == "feature" and cb == "feature" and (a, b) not in allowed) or (ca == "shared" and cb == "feature")
            style = ', color=red, penwidth=2' if bad else ""
            out.append(f'    "{layer.name}:{a}" -> "{layer.name}:{b}" [label="{len(sites)}"{style}];')
        out.append("  }")
    out.append("}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="The arrows between feature folders, checked against ops/arrows.toml.")
    p.add_argument("--config", default=CONFIG, help="the configuration (default ops/arrows.toml)")
    p.add_argument("--repo", default=REPO, help="the repository the layers' roots are in (default: this one)")
    p.add_argument("--layer", action="append", help="only this layer (repeatable)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--report", action="store_true", help="print the actual arrows of every layer, with counts")
    out.add_argument("--dot", action="store_true", help="print the graph for Graphviz")
    p.add_argument("--sites", action="store_true", help="with --report: every import's file and line under its arrow")
    args = p.parse_args(argv)
    try:
        layers = load_config(args.config)
        if args.layer:
            missing = set(args.layer) - {layer.name for layer in layers}
            if missing:
                raise ConfigError(f"no layer {', '.join(sorted(missing))} in {args.config}")
            layers = [layer for layer in layers if layer.name in args.layer]
        graphs = [build(args.repo, layer) for layer in layers]
    except ConfigError as e:
        print(f"arrows: {e}", file=sys.stderr)
        return 2
    failed = False
    for g in graphs:
        conf, tree = problems(g, args.config)
        failed |= bool(conf) or (g.layer.enforce and bool(tree))
        if args.report:
            print(report(g, conf + tree, args.sites))
            for line in conf + tree:
                print(f"    {line}")
        elif not args.dot:
            for line in conf + (tree if g.layer.enforce else []):
                print(line)
            if tree and not g.layer.enforce:
                print(f"{g.layer.name}: not enforced, {len(tree)} problems (python3 ops/arrows.py --report --layer {g.layer.name})")
    if args.dot:
        print(dot(graphs))
    elif not args.report:
        enforced = [g.layer.name for g in graphs if g.layer.enforce]
        print(f"arrows: {'FAILED' if failed else 'ok'} ({', '.join(enforced) or 'no layer'} enforced)", file=sys.stderr if failed else sys.stdout)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
