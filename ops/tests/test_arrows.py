"""ops/arrows.py on small trees written to a temporary directory.

Run: python3 -m unittest discover -s ops/tests
"""

import contextlib
import io
import os
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
import arrows  # noqa: E402


class Tree(unittest.TestCase):
    """A repository in a temporary directory: files, an arrows.toml, and runs of the check."""

    def setUp(self):
        self._dir = tempfile.TemporaryDirectory()
        self.repo = self._dir.name
        self.config = os.path.join(self.repo, "arrows.toml")

    def tearDown(self):
        self._dir.cleanup()

    def write(self, files: dict[str, str], config: str) -> None:
        for rel, text in files.items():
            path = os.path.join(self.repo, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(textwrap.dedent(text))
        with open(self.config, "w") as f:
            f.write(textwrap.dedent(config))

    def run_check(self, *args: str) -> tuple[int, list[str]]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = arrows.main(["--repo", self.repo, "--config", self.config, *args])
        return code, out.getvalue().splitlines()

    def edges(self, layer: str = "x") -> dict[tuple[str, str], list[str]]:
        (lay,) = [la for la in arrows.load_config(self.config) if la.name == layer]
        g = arrows.build(self.repo, lay)
        return {k: [str(s) for s in v] for k, v in g.edges.items()}


RUST = """
[layer.x]
lang = "rust"
root = "src"
enforce = true
roots = ["lib"]
shared = ["ctx"]
features = ["a", "b", "c"]
allow = [{allow}]
"""


class RustTest(Tree):
    def test_cycle_through_a_use_group(self):
        # A cycle a -> b -> a, one side written `use crate::{a::x, b}`: the arrow not allowed fails, naming file and line.
        self.write(
            {
                "src/lib.rs": "pub mod a;\npub mod b;\n",
                "src/a.rs": "pub fn x() {}\n",
                "src/b/mod.rs": "mod inner;\n",
                "src/b/inner.rs": "use std::fmt;\nuse crate::{a::x, b};\n",
                # a.rs and a/more.rs are both the node a
                "src/a/more.rs": "use crate::b::inner;\n",
            },
            RUST.format(allow='"a -> b"'),
        )
        self.assertEqual(self.edges(), {("b", "a"): ["src/b/inner.rs:2"], ("a", "b"): ["src/a/more.rs:1"]})
        code, out = self.run_check()
        self.assertEqual(code, 1)
        self.assertIn("x: the arrow b -> a is not allowed (src/b/inner.rs:2)", out)
        self.assertFalse(any("a -> b" in line for line in out))
        code, out = self.run_check("--report")
        self.assertIn("    a -> b  (1)  allowed", out)
        self.assertIn("    b -> a  (1)  NOT ALLOWED", out)
        self.assertIn("    2 nodes, 2 arrows among them: a b", out)

    def test_nested_groups_each_leaf_on_its_line(self):
        # `use crate::{a::{self, x}, c::{y::{z}}}` over several lines: every leaf is an arrow at its own line.
        self.write(
            {
                "src/b.rs": "use crate::{\n    a::{self, x},\n    c::{y::{z}},\n};\n",
                "src/a.rs": "",
                "src/c.rs": "",
            },
            RUST.format(allow='"b -> a", "b -> c"'),
        )
        self.assertEqual(self.edges(), {("b", "a"): ["src/b.rs:2"], ("b", "c"): ["src/b.rs:3"]})
        self.assertEqual(self.run_check()[0], 0)

    def test_comments_and_strings_are_not_imports(self):
        # Line, block (nested) and doc comments, strings, raw strings and `$crate` name no arrow; code after them does.
        self.write(
            {
                "src/a.rs": """\
                    //! See [`crate::b::x`].
                    // use crate::b::x;
                    /* crate::b::y /* nested crate::b::z */ still a comment crate::b::w */
                    /// crate::c::doc
                    const S: &str = "crate::b::in_a_string";
                    const R: &str = r#"use crate::b::raw;"#;
                    const C: char = '"'; const L: &'static str = "x";
                    macro_rules! m { () => { $crate::b::f() } }
                    fn f() -> u8 { crate::c::g() }
                """,
                "src/b.rs": "",
                "src/c.rs": "",
            },
            RUST.format(allow='"a -> c"'),
        )
        self.assertEqual(self.edges(), {("a", "c"): ["src/a.rs:9"]})

    def test_super_resolves_to_the_parent_module(self):
        # `super` counts from the module the code is in: a file's, a mod.rs's, an inline `mod tests`'s; `self` too.
        self.write(
            {
                "src/lib.rs": "mod a;\nmod b;\nmod c;\n",
                "src/a/mod.rs": "mod deep;\nuse self::deep::f;\n",
                # in crate::a::deep: super is crate::a (the same feature), super::super is the crate
                "src/a/deep.rs": "use super::helper;\nuse super::super::b::x;\nfn g() { super::super::c::y(); }\n",
                # in crate::b: super is the crate; inside `mod tests`, super is b itself
                "src/b.rs": "mod tests {\n    use super::x;\n    use super::super::c;\n}\n",
                "src/c.rs": "",
            },
            RUST.format(allow='"a -> b", "a -> c", "b -> c"'),
        )
        self.assertEqual(
            self.edges(),
            {("a", "b"): ["src/a/deep.rs:2"], ("a", "c"): ["src/a/deep.rs:3"], ("b", "c"): ["src/b.rs:3"]},
        )

    def test_mod_declarations_are_not_imports_but_paths_through_them_are(self):
        # `mod b;` in lib.rs is no arrow lib -> b; lib.rs's `b::run()` through it is; a feature importing the root fails.
        self.write(
            {
                "src/lib.rs": "pub mod a;\npub mod b;\npub struct State;\npub fn start() { b::run(); }\n",
                "src/a.rs": "use crate::State;\n",
                "src/b.rs": "pub fn run() {}\n",
            },
            RUST.format(allow=""),
        )
        self.assertEqual(self.edges(), {("lib", "b"): ["src/lib.rs:4"], ("a", "lib"): ["src/a.rs:1"]})
        code, out = self.run_check()
        self.assertEqual((code, out[0]), (1, "x: the feature a imports the root lib (src/a.rs:1)"))

    def test_reexports_and_path_attributes(self):
        # `crate::Name` re-exported by lib.rs (`pub use c::Name`) is c; a `#[path]` file belongs to its declaring module.
        self.write(
            {
                "src/lib.rs": "pub mod a;\npub mod c;\npub use c::{Name, Other as Renamed};\n",
                "src/a.rs": "use crate::Name;\nuse crate::Renamed;\n#[cfg(test)]\n#[path = \"a_tests.rs\"]\nmod tests;\n",
                "src/a_tests.rs": "use super::*;\nuse super::super::c::Thing;\n",
                "src/c.rs": "",
            },
            RUST.format(allow='"a -> c"'),
        )
        self.assertEqual(
            self.edges(),
            {("a", "c"): ["src/a.rs:1", "src/a.rs:2", "src/a_tests.rs:2"], ("lib", "c"): ["src/lib.rs:3"]},
        )


class SharedTest(Tree):
    def test_shared_importing_a_feature(self):
        # The kernel (shared) may be imported by everyone but may import no feature, even when allowed arrows exist.
        self.write(
            {
                "src/ctx.rs": "use crate::a::Actor;\n",
                "src/a.rs": "use crate::ctx::Ctx;\n",
            },
            RUST.format(allow=""),
        )
        code, out = self.run_check()
        self.assertEqual(code, 1)
        self.assertEqual(out[:1], ["x: the shared ctx imports the feature a (src/ctx.rs:1)"])

    def test_unplaced_node(self):
        # A folder the configuration does not name is a problem, so a new feature cannot slip past the allowed arrows.
        self.write({"src/d/mod.rs": "", "src/a.rs": "use crate::d::x;\n"}, RUST.format(allow=""))
        code, out = self.run_check()
        self.assertEqual(code, 1)
        self.assertTrue(out[0].startswith("x: d (src/d/mod.rs) is neither a feature, shared nor a root"), out)


class ConfigTest(Tree):
    def test_allowed_arrows_forming_a_cycle(self):
        # Allowed arrows a -> b -> c -> a are refused (with their lines in arrows.toml), even in a layer not enforced.
        self.write(
            {"src/a.rs": "", "src/b.rs": "", "src/c.rs": ""},
            RUST.format(allow='\n  "a -> b",\n  "b -> c",\n  "c -> a",\n').replace("enforce = true", "enforce = false"),
        )
        code, out = self.run_check()
        self.assertEqual(code, 1)
        self.assertIn(f"x: {self.config}:10,11,12: the allowed arrows form a cycle: a -> b -> c -> a", out)

    def test_not_enforced_layer_reports_but_passes(self):
        # enforce = false: a cycle is counted and shown by --report, and the check passes.
        self.write(
            {"src/a.rs": "use crate::b::x;\n", "src/b.rs": "use crate::a::y;\n"},
            RUST.format(allow="").replace("enforce = true", "enforce = false"),
        )
        code, out = self.run_check()
        self.assertEqual(code, 0)
        self.assertIn("x: not enforced, 2 problems (python3 ops/arrows.py --report --layer x)", out)
        code, out = self.run_check("--report")
        self.assertIn("  cycles: 1", out)

    def test_malformed_configuration(self):
        # An allow entry that is not "a -> b" is a usage error (exit 2), not a pass.
        self.write({"src/a.rs": ""}, RUST.format(allow='"a => b"'))
        code, out = self.run_check()
        self.assertEqual(code, 2)
        self.assertIn('is not "a -> b"', out[0])


TS = """
[layer.x]
lang = "ts"
root = "web/src"
split = ["features"]
enforce = true
roots = ["app"]
shared = ["lib", "stores"]
features = ["features/*"]
aliases = {{ "@/" = "web/src/" }}
allow = [{allow}]
"""


class TsTest(Tree):
    def test_cycle_between_feature_folders(self):
        # A cycle rooms -> play -> rooms through static, `export from` and dynamic imports fails on the arrow not allowed.
        self.write(
            {
                "web/src/features/rooms/RoomPage.tsx": "import { Player } from '../play/Player';\nimport React from 'react';\n",
                "web/src/features/play/Player.tsx": "export const Player = 1;\nexport { roomName } from '../rooms/names';\n",
                "web/src/features/play/lazy.ts": "const page = () => import('../rooms/RoomPage');\n",
                "web/src/features/rooms/names.ts": "export const roomName = '';\n",
            },
            TS.format(allow='"features/rooms -> features/play"'),
        )
        self.assertEqual(
            self.edges(),
            {
                ("features/rooms", "features/play"): ["web/src/features/rooms/RoomPage.tsx:1"],
                ("features/play", "features/rooms"): ["web/src/features/play/Player.tsx:2", "web/src/features/play/lazy.ts:1"],
            },
        )
        code, out = self.run_check()
        self.assertEqual(code, 1)
        self.assertEqual(
            out[0],
            "x: the arrow features/play -> features/rooms is not allowed "
            "(web/src/features/play/Player.tsx:2, web/src/features/play/lazy.ts:1)",
        )

    def test_forms_of_import_aliases_and_comments(self):
        # Multi-line, type-only, side-effect and aliased imports count; commented ones, packages and regexes do not.
        self.write(
            {
                "web/src/features/a/index.ts": """\
                    import {
                      one,
                      two,
                    } from '../b/values';
                    import type { T } from '@/stores/types';
                    import './a.css';
                    // import { x } from '../c/x';
                    /* import('../c/y') */
                    const re = /from '..\\/c\\/z'/;
                    import { observer } from 'mobx-react-lite';
                    export * from '@/lib/util';
                """,
                "web/src/features/a/a.css": "",
                "web/src/features/b/values.ts": "",
                "web/src/features/c/x.ts": "",
                "web/src/stores/types.ts": "",
                "web/src/lib/util/index.ts": "",
            },
            TS.format(allow='"features/a -> features/b"'),
        )
        self.assertEqual(
            self.edges(),
            {
                ("features/a", "features/b"): ["web/src/features/a/index.ts:4"],
                ("features/a", "stores"): ["web/src/features/a/index.ts:5"],
                ("features/a", "lib"): ["web/src/features/a/index.ts:11"],
            },
        )
        self.assertEqual(self.run_check()[0], 0)

    def test_shared_store_importing_a_feature(self):
        # stores (shared) importing a feature folder fails; the feature importing stores is fine.
        self.write(
            {
                "web/src/stores/rootStore.ts": "import { CouponStore } from '../features/coupon/couponStore';\n",
                "web/src/features/coupon/couponStore.ts": "import { root } from '../../stores/rootStore';\n",
            },
            TS.format(allow=""),
        )
        code, out = self.run_check()
        self.assertEqual(code, 1)
        self.assertEqual(out[0], "x: the shared stores imports the feature features/coupon (web/src/stores/rootStore.ts:1)")


class RepositoryTest(unittest.TestCase):
    def test_the_repository_configuration_loads(self):
        # ops/arrows.toml is well formed and its allowed arrows are sound (what `make test` runs).
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = arrows.main([])
        self.assertEqual(code, 0, out.getvalue())


if __name__ == "__main__":
    unittest.main()
