import io

import pytest
from conftest import load, stock_db, write_settings


def render(template, item, location, qty):
    return load("stockroom.labels").render_custom_label(template, item, location, qty)


def test_every_placeholder(things):
    tea, mug, shelf = things
    template = ("{item.sku}|{item.name}|{item.unit}|{item.case_size}|{item.price}|{item.barcode}|"
                "{location.code}|{location.name}|{qty}")
    assert render(template, tea, shelf, 26) == "TEA-001|Green tea|box|12|4.50|4006381333931|A1|Shelf A1|26"
    assert render(template, mug, shelf, 3) == "MUG-003|Mug|each|1|1234.50||A1|Shelf A1|3"


@pytest.mark.parametrize("template, expected", [
    ("{item.name}\n{item.sku} @ {location.code}\nqty {qty}", "Green tea\nTEA-001 @ A1\nqty 26"),
    ("Price: {item.price} EUR / {item.unit}", "Price: 4.50 EUR / box"),
    ("{{qty}} is {qty}", "{qty} is 26"),
    ("a }} b {{ c", "a } b { c"),
    ("{{{qty}}}", "{26}"),
    ("no placeholders at all", "no placeholders at all"),
    ("", ""),
    ("{qty}{qty}", "2626"),
    ("100% {item.sku} $x \\n", "100% TEA-001 $x \\n"),
])
def test_layouts(things, template, expected):
    tea, _, shelf = things
    assert render(template, tea, shelf, 26) == expected, f"render_custom_label({template!r}, ...)"


@pytest.mark.parametrize("template", [
    "{foo}", "{item.colour}", "{location.aisle_name}", "{qty:>5}", "{qty!r}", "{item.sku!s}", "{item.price:.3f}",
    "{}", "{0}", "{ qty }", "{item}", "{location}", "{ITEM.SKU}", "{qty", "qty}", "{", "}",
    "text { more", "text } more", "{{qty}", "{qty}}",
    # members that exist on the objects but are not in the list
    "{item.reorder_point}", "{item.lead_time_days}", "{item.active}", "{location.aisle}", "{item.display_name}",
    "{item.price.real}", "{item.sku.upper}",
])
def test_anything_else_raises(things, template):
    labels = load("stockroom.labels")
    tea, _, shelf = things
    assert issubclass(labels.LabelTemplateError, ValueError), "LabelTemplateError should subclass ValueError"
    with pytest.raises(labels.LabelTemplateError):
        labels.render_custom_label(template, tea, shelf, 26)


def test_setting_is_read(tmp_path):
    config = load("stockroom.config")
    write_settings(tmp_path, "{item.sku}")
    assert config.load_settings(tmp_path / "stockroom.toml").label_template == "{item.sku}"
    write_settings(tmp_path, None)
    assert config.load_settings(tmp_path / "stockroom.toml").label_template is None
    assert config.load_settings(None).label_template is None
    for bad in ("label_template = 5\n", "label_template = [\"{qty}\"]\n"):
        (tmp_path / "stockroom.toml").write_text("[stockroom]\n" + bad, encoding="utf-8")
        with pytest.raises(config.ConfigError):
            config.load_settings(tmp_path / "stockroom.toml")


def test_labels_for_location_uses_the_template(tmp_path):
    sr, labels = load("stockroom"), load("stockroom.labels")
    repo = sr.Repository.open(stock_db(tmp_path))
    try:
        got = labels.labels_for_location(repo, "A1", template="{item.sku}:{qty}")
        default = labels.labels_for_location(repo, "A1", "EUR")
        plain = labels.labels_for_location(repo, "A1")
    finally:
        repo.close()
    assert got == ["MUG-003:3", "TEA-001:26"], got
    assert default[1].splitlines()[2] == "EUR 4.50 / box   qty 26", f"without a template labels stay as before: {default}"
    assert plain[1].splitlines()[2] == "4.50 / box   qty 26", f"no currency by default, as before: {plain}"


def run_cli(tmp_path, *args):
    cli = load("stockroom.cli")
    out = io.StringIO()
    code = cli.run(["--db", str(tmp_path / "stock.db"), "--user", "ann", *args], out=out)
    return code, out.getvalue()


def test_cli_labels_with_the_setting(tmp_path):
    stock_db(tmp_path)
    write_settings(tmp_path, "[{item.sku}] {item.name}\n{location.code} x{qty}")
    code, text = run_cli(tmp_path, "labels", "A1")
    assert code == 0 and text.split("\n")[:2] == ["[MUG-003] Mug", "A1 x3"], f"stockroom labels A1: {code} {text!r}"
    assert "[TEA-001] Green tea" in text, text


def test_cli_bad_template_is_a_one_line_error(tmp_path, capsys):
    stock_db(tmp_path)
    write_settings(tmp_path, "{item.sku} {oops}")
    code, _ = run_cli(tmp_path, "labels", "A1")
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("stockroom: ") and err.count("\n") == 1, (
        f"a bad template: exit 2 and one error line, got {code} and {err!r}")


def test_cli_without_a_template(tmp_path):
    stock_db(tmp_path)
    code, text = run_cli(tmp_path, "labels", "A1")
    assert code == 0 and "TEA-001  @ A1" in text, text
