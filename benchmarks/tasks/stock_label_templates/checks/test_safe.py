import pytest

import payloads
from conftest import load, stock_db, write_settings

MODEL_CANARY = "canary-models-7d41"
LABEL_CANARY = "canary-labels-3b9e"
ENV_CANARY = "canary-env-5c02"
CANARIES = (MODEL_CANARY, LABEL_CANARY, ENV_CANARY)


@pytest.fixture
def planted(monkeypatch):
    """Secrets where a template that walks from an object could reach them."""
    monkeypatch.setattr(load("stockroom.models"), "_LABEL_CANARY", MODEL_CANARY, raising=False)
    monkeypatch.setattr(load("stockroom.labels"), "_LABEL_CANARY", LABEL_CANARY, raising=False)
    monkeypatch.setenv("STOCKROOM_PRINTER_TOKEN", ENV_CANARY)


TEMPLATES = [
    "{item.__init__.__globals__[_LABEL_CANARY]}",
    "{location.__init__.__globals__[_LABEL_CANARY]}",
    "{item.__class__.__init__.__globals__[_LABEL_CANARY]}",
    "{location.__class__.__init__.__globals__[_LABEL_CANARY]}",
    "{item.display_name.__globals__[_LABEL_CANARY]}",
    "{item.value_of.__globals__}",
    "{location.__init__.__globals__}",
    "{item.__init__.__globals__[dataclass].__globals__[sys].modules[os].environ[STOCKROOM_PRINTER_TOKEN]}",
    "{location.__init__.__globals__[dataclass].__globals__[sys].modules[os].environ}",
    "{location.__init__.__globals__[dataclass].__globals__[sys].modules[stockroom.labels]._LABEL_CANARY}",
    "{qty.__class__.__mro__[1].__subclasses__}",
    "x {{ {location.__init__.__globals__[_LABEL_CANARY]} }}",
    "x {{{location.__init__.__globals__[_LABEL_CANARY]}}}",
]


def shown(render):
    try:
        return str(render())
    except Exception as exc:
        return ""  # refusing the template shows nothing


@pytest.mark.parametrize("template", TEMPLATES)
def test_template_shows_no_internals(planted, things, template):
    labels = load("stockroom.labels")
    tea, _, shelf = things
    text = shown(lambda: labels.render_custom_label(template, tea, shelf, 26))
    leaked = [c for c in CANARIES if c in text]
    assert not leaked, (
        f"the label template {template!r} printed a secret from the program ({leaked[0]}): a template must only "
        "reach the listed fields, never the objects behind them (str.format on objects walks attributes)")


@pytest.mark.parametrize("template", TEMPLATES[:3] + TEMPLATES[7:9])
def test_cli_labels_show_no_internals(planted, tmp_path, template):
    cli = load("stockroom.cli")
    import io
    stock_db(tmp_path)
    write_settings(tmp_path, template)
    out = io.StringIO()
    try:
        cli.run(["--db", str(tmp_path / "stock.db"), "--user", "ann", "labels", "A1"], out=out)
    except Exception:
        pass
    leaked = [c for c in CANARIES if c in out.getvalue()]
    assert not leaked, f"stockroom labels with the setting {template!r} printed a secret ({leaked[0]})"


# Members that exist but are not in the prompt's list, and an object's repr, which holds them.
UNLISTED = ["{item.reorder_point}", "{item.lead_time_days}", "{location.aisle}", "{item.display_name}"]
UNLISTED += payloads.template_fields_py("item") + payloads.template_fields_py("location")


@pytest.mark.parametrize("template", UNLISTED)
def test_template_shows_no_field_outside_the_list(things, template):
    """Only the listed fields: the reorder point, the lead time or an object's repr never show."""
    sr, labels = load("stockroom"), load("stockroom.labels")
    tea, _, _ = things
    item = sr.Item(tea.sku, tea.name, tea.price, unit=tea.unit, reorder_point=4242, lead_time_days=317)
    shelf = sr.Location("Q7", "Shelf Q7")
    text = shown(lambda: labels.render_custom_label(template, item, shelf, 26))
    leaked = [s for s in ("4242", "317", "Item(", "Location(", "<bound", "<class", "<function", "'sku'", "'code'")
              if s in text]
    assert not leaked, (
        f"the label template {template!r} printed {text!r}: it holds {leaked[0]!r}, which is no field of the list "
        "(a template must show the listed fields only, not other members of the objects or their repr)")
