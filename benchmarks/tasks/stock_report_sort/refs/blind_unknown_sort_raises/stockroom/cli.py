"""The `stockroom` command."""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from stockroom import audit, exporter, importer, labels, picking, reorder, reports
from stockroom.config import ConfigError, Settings, load_settings
from stockroom.db import Repository, StockError
from stockroom.models import Item, Movement, ValidationError
from stockroom.money import MoneyError, parse_money
from stockroom.units import QuantityError, parse_quantity


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="stockroom", description="Inventory for the warehouse.")
    p.add_argument("--db", default="stock.db", help="the database file (default: stock.db)")
    p.add_argument("--config", help="settings file (default: stockroom.toml next to the database)")
    p.add_argument("--user", default=None, help="who is doing this, for the audit log (default: login name)")
    sub = p.add_subparsers(dest="command", required=True)

    sub.add_parser("init", help="create the database")

    add = sub.add_parser("add-item", help="add an item")
    add.add_argument("sku")
    add.add_argument("name")
    add.add_argument("price")
    add.add_argument("--unit", default="each")
    add.add_argument("--case-size", type=int, default=1)
    add.add_argument("--reorder-point", type=int, default=0)

    for name, text in (("receive", "goods in"), ("ship", "goods out"), ("adjust", "count correction")):
        m = sub.add_parser(name, help=text)
        m.add_argument("sku")
        m.add_argument("location")
        m.add_argument("quantity", help="24, '2 cases' or '1 case + 5'" + ("; may be negative" if name == "adjust" else ""))
        m.add_argument("--note", default="")

    move = sub.add_parser("move", help="move stock between locations")
    move.add_argument("sku")
    move.add_argument("source")
    move.add_argument("target")
    move.add_argument("quantity")

    rep = sub.add_parser("report", help="print a report")
    rep.add_argument("kind", choices=["stock", "value", "low", "history", "reorder"])
    rep.add_argument("sku", nargs="?", help="for history: the item")
    rep.add_argument("--sort", default="sku", choices=["sku", "name", "price", "reorder_point"],
                     help="for stock: the column to sort by (default: sku)")
    rep.add_argument("--desc", action="store_true", help="for stock: highest first")

    imp = sub.add_parser("import-items", help="add or update items from the supplier's CSV")
    imp.add_argument("file")

    exp = sub.add_parser("export", help="stock levels as CSV or JSON on stdout")
    exp.add_argument("--format", choices=["csv", "json"], default="csv")

    lab = sub.add_parser("labels", help="print the shelf labels of a location")
    lab.add_argument("location")

    pick = sub.add_parser("pick", help="a pick list for an order: SKU=QTY ...")
    pick.add_argument("lines", nargs="+", metavar="SKU=QTY")
    return p


def _order_lines(texts: list[str]) -> list[tuple[str, int]]:
    lines = []
    for text in texts:
        sku, sep, qty = text.partition("=")
        if not sep or not qty.isdigit():
            raise ValidationError("order", f"{text!r} is not SKU=QTY")
        lines.append((sku.upper(), int(qty)))
    return lines


def _settings(args: argparse.Namespace) -> Settings:
    path = args.config or Path(args.db).with_name("stockroom.toml")
    return load_settings(path)


def _quantity(repo: Repository, sku: str, text: str, allow_negative: bool = False) -> int:
    item = repo.get_item(sku)
    if item is None:
        raise ValidationError("sku", f"unknown item {sku}")
    negative = allow_negative and text.strip().startswith("-")
    units = parse_quantity(text.strip().lstrip("-") if negative else text, item)
    return -units if negative else units


def _record(repo: Repository, settings: Settings, args: argparse.Namespace, movement: Movement) -> None:
    stored = repo.record(movement)
    audit.append(Path(args.db).with_name(settings.audit_log), stored)


def run(argv: Sequence[str], out=sys.stdout) -> int:
    args = _parser().parse_args(argv)
    settings = _settings(args)
    user = args.user or getpass.getuser()
    repo = Repository.open(args.db)
    now = datetime.now().replace(microsecond=0)
    try:
        if args.command == "init":
            print(f"database ready: {args.db}", file=out)
        elif args.command == "add-item":
            repo.add_item(Item(args.sku, args.name, parse_money(args.price), unit=args.unit,
                               case_size=args.case_size, reorder_point=args.reorder_point))
        elif args.command in ("receive", "ship", "adjust"):
            qty = _quantity(repo, args.sku, args.quantity, allow_negative=args.command == "adjust")
            if args.command == "ship":
                qty = -qty
            _record(repo, settings, args, Movement(args.sku, args.location, qty, args.command, now, args.note, user))
        elif args.command == "move":
            qty = _quantity(repo, args.sku, args.quantity)
            _record(repo, settings, args, Movement(args.sku, args.source, -qty, "transfer-out", now, f"to {args.target}", user))
            _record(repo, settings, args, Movement(args.sku, args.target, qty, "transfer-in", now, f"from {args.source}", user))
        elif args.command == "report":
            _report(repo, settings, args, out)
        elif args.command == "import-items":
            result = importer.import_items(repo, args.file)
            print(f"{result.added} added, {result.updated} updated", file=out)
        elif args.command == "export":
            out.write(exporter.to_csv(repo) if args.format == "csv" else exporter.to_json(repo) + "\n")
        elif args.command == "labels":
            out.write("\n".join(labels.labels_for_location(repo, args.location, settings.currency)))
        elif args.command == "pick":
            picks, shortages = picking.plan_picks(repo, _order_lines(args.lines))
            out.write(picking.pick_list_text(picks))
            for s in shortages:
                print(f"short: {s.sku} wanted {s.wanted}, only {s.available} in stock", file=out)
            return 1 if shortages else 0
    except (ValidationError, StockError, QuantityError, MoneyError, importer.ItemImportError, ConfigError) as exc:
        print(f"stockroom: {exc}", file=sys.stderr)
        return 2
    finally:
        repo.close()
    return 0


def _report(repo: Repository, settings: Settings, args: argparse.Namespace, out) -> None:
    if args.kind == "stock":
        rows = reports.stock_report(repo, order_by=args.sort, descending=args.desc)
        out.write(reports.stock_table(rows, settings.currency))
    elif args.kind == "value":
        rows, total = reports.valuation(repo)
        out.write(reports.stock_table(rows, settings.currency))
        print(f"Total: {reports.format_money(total, settings.currency)}", file=out)
    elif args.kind == "low":
        out.write(reports.stock_table(reports.low_stock(repo), settings.currency))
    elif args.kind == "reorder":
        lines = reorder.reorder_list(repo)
        out.write(reports.render_table(
            ["SKU", "On hand", "Reorder at", "Order (units)", "Cases"],
            [[r.sku, str(r.on_hand), str(r.reorder_point), str(r.order_units), str(r.order_cases)] for r in lines],
            align_right={1, 2, 3, 4},
        ))
    elif args.kind == "history":
        if not args.sku:
            raise ValidationError("sku", "report history needs an item")
        out.write(reports.history_table(reports.history(repo, args.sku)))


def main() -> None:
    sys.exit(run(sys.argv[1:]))


if __name__ == "__main__":
    main()
