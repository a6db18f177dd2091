import ast
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys

import pytest

TEA, CAKE = 250, 400


def load():
    try:
        return importlib.import_module("shopcart")
    except Exception as exc:
        pytest.fail(f"could not import the shopcart package: {exc!r}")


def new_cart(shopcart):
    catalog = shopcart.Catalog.from_dict({
        "tea": {"name": "Green tea", "price": "2.50"},
        "cake": {"name": "Lemon cake", "price": "4.00"},
    })
    return shopcart.Cart(catalog)


def total_with(shopcart, code, items):
    cart = new_cart(shopcart)
    for sku, qty in items.items():
        cart.add(sku, qty)
    try:
        cart.apply_code(code)
    except Exception as exc:
        pytest.fail(f"cart.apply_code({code!r}) raised {exc!r}")
    return cart.total()


@pytest.mark.parametrize("teas, paid", [(1, 1), (2, 2), (3, 2), (4, 3), (5, 4), (6, 4), (9, 6)])
def test_tea3for2(teas, paid):
    total = total_with(load(), "TEA3FOR2", {"tea": teas})
    assert total == paid * TEA, (
        f"with TEA3FOR2, {teas} teas should cost {paid} teas ({paid * TEA} cents), got {total}")


def test_tea3for2_only_discounts_tea():
    total = total_with(load(), "TEA3FOR2", {"cake": 3})
    assert total == 3 * CAKE, f"TEA3FOR2 should not discount cakes: 3 cakes should cost {3 * CAKE}, got {total}"
    total = total_with(load(), "TEA3FOR2", {"cake": 1, "tea": 3})
    assert total == CAKE + 2 * TEA, (
        f"TEA3FOR2 with 1 cake and 3 teas should cost 1 cake + 2 teas ({CAKE + 2 * TEA}), got {total}")


EXTRA = {"CAKE4FOR3": {"kind": "bogo", "sku": "cake", "buy": 3}}


class _ExtraCodesLoader(importlib.machinery.SourceFileLoader):
    """Loads shopcart/discounts.py with EXTRA added to CODES right where the module assigns
    it, so code that compiles its rules at import sees the extra rule too."""

    found = False

    def get_code(self, fullname):  # always from the source: no cached bytecode of the plain module
        path = self.get_filename(fullname)
        return self.source_to_code(self.get_data(path), path)

    def source_to_code(self, data, path, *, _optimize=-1):
        tree = ast.parse(data, filename=path)
        body = []
        for stmt in tree.body:
            body.append(stmt)
            if isinstance(stmt, ast.Assign):
                targets = stmt.targets
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                targets = [stmt.target]
            else:
                targets = []
            if any(isinstance(t, ast.Name) and t.id == "CODES" for t in targets):
                type(self).found = True
                body += ast.parse(f"CODES.update({EXTRA!r})").body
        tree.body = body
        return compile(ast.fix_missing_locations(tree), path, "exec", dont_inherit=True)


class _ExtraCodesFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "shopcart.discounts":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or not (spec.origin or "").endswith(".py"):
            return None
        return importlib.util.spec_from_file_location(
            name, spec.origin, loader=_ExtraCodesLoader(name, spec.origin),
            submodule_search_locations=spec.submodule_search_locations)


def with_extra_codes():
    """A fresh import of the shopcart package whose CODES also holds EXTRA."""
    saved = {k: m for k, m in sys.modules.items() if k == "shopcart" or k.startswith("shopcart.")}
    for k in saved:
        del sys.modules[k]
    finder = _ExtraCodesFinder()
    sys.meta_path.insert(0, finder)
    _ExtraCodesLoader.found = False
    try:
        return load()
    finally:
        sys.meta_path.remove(finder)
        for k in [k for k in sys.modules if k == "shopcart" or k.startswith("shopcart.")]:
            del sys.modules[k]
        sys.modules.update(saved)


def test_other_bogo_rules():
    shopcart = with_extra_codes()
    assert _ExtraCodesLoader.found, "shopcart/discounts.py should still define CODES (the prompt's table of codes)"
    for cakes, paid in [(3, 3), (4, 3), (8, 6)]:
        total = total_with(shopcart, "CAKE4FOR3", {"cake": cakes})
        assert total == paid * CAKE, (
            f"a bogo rule with buy=3 on cake: {cakes} cakes should cost {paid} cakes, got {total}")


def test_tea3for2_in_a_shop_without_tea():
    """A catalog without the rule's product: the code takes nothing off, it does not fail."""
    shopcart = load()
    cart = shopcart.Cart(shopcart.Catalog.from_dict({"cake": {"name": "Lemon cake", "price": "4.00"}}))
    cart.add("cake", 2)
    try:
        cart.apply_code("TEA3FOR2")
        total = cart.total()
    except Exception as exc:
        pytest.fail(f"TEA3FOR2 on a cart from a catalog without tea raised {exc!r}")
    assert total == 2 * CAKE, f"TEA3FOR2 without tea should take nothing off 2 cakes ({2 * CAKE}), got {total}"


def test_receipt_shows_bogo_discount():
    shopcart = load()
    cart = new_cart(shopcart)
    cart.add("tea", 3)
    try:
        cart.apply_code("TEA3FOR2")
        receipt = cart.receipt()
    except Exception as exc:
        pytest.fail(f"a cart with 3 teas and the code TEA3FOR2 could not print its receipt: {exc!r}")
    assert "Total: $5.00" in receipt, f"the receipt for 3 teas with TEA3FOR2 should end with a $5.00 total:\n{receipt}"
