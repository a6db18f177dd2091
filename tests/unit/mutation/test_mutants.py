"""Which files a mutation run mutates: never a test file, JavaScript files by their suffix. The
operators are test_python's and test_javascript's, mutants.toml test_mutantsfile's, the run
test_runner's and the command _cli/test_mutate's."""

from __future__ import annotations

from pytest_ponybench import mutation


def test_test_files_are_not_mutated() -> None:
    is_test = mutation.is_test_file
    assert is_test("tests/test_cart.py") and is_test("test_x.py") and is_test("pkg/conftest.py")
    assert not is_test("shopcart/discounts.py") and not is_test("audit.py")


# --- JavaScript ----------------------------------------------------------------------------


def test_javascript_files_are_chosen_by_suffix_and_tests_left_out() -> None:
    assert (
        mutation.is_mutated("src/export.js")
        and mutation.is_mutated("lib/a.mjs")
        and mutation.is_mutated("b.cjs")
    )
    assert not mutation.is_mutated("test/export-quoting.test.js") and not mutation.is_mutated(
        "src/a.spec.mjs"
    )
    assert not mutation.is_mutated("README.md") and not mutation.is_mutated("src/__tests__/a.js")


# --- the command ------------------------------------------------------------------------------


def test_typescript_files_are_chosen_by_suffix_and_tests_left_out() -> None:
    assert mutation.is_mutated("src/app.ts") and mutation.is_mutated("a.mts") and mutation.is_mutated("b.cts")
    assert mutation.is_typescript("src/app.ts") and mutation.is_javascript("src/app.ts")
    assert not mutation.is_mutated("types/node.d.ts") and not mutation.is_mutated("src/x.test.ts")
    assert not mutation.is_mutated("test/helpers.ts") and not mutation.is_mutated("src/a.spec.ts")
