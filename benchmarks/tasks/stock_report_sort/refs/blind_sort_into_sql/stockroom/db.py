"""SQLite storage. One Repository per connection; every write is its own transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path

from stockroom.models import Item, Location, Movement, PurchaseOrder, ValidationError, check_location_code, check_sku
from stockroom.money import from_cents, to_cents

SCHEMA_VERSION = 3

MIGRATIONS = {
    1: """
        CREATE TABLE items(
            sku TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            unit TEXT NOT NULL DEFAULT 'each',
            case_size INTEGER NOT NULL DEFAULT 1,
            price_cents INTEGER NOT NULL,
            reorder_point INTEGER NOT NULL DEFAULT 0,
            active INTEGER NOT NULL DEFAULT 1
        );
        CREATE TABLE locations(code TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '');
        CREATE TABLE movements(
            id INTEGER PRIMARY KEY,
            sku TEXT NOT NULL REFERENCES items(sku),
            location TEXT NOT NULL REFERENCES locations(code),
            qty INTEGER NOT NULL,
            kind TEXT NOT NULL,
            at TEXT NOT NULL,
            note TEXT NOT NULL DEFAULT '',
            user TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX movements_sku ON movements(sku, at);
    """,
    2: """
        ALTER TABLE items ADD COLUMN lead_time_days INTEGER NOT NULL DEFAULT 7;
        ALTER TABLE items ADD COLUMN barcode TEXT;
    """,
    3: """
        CREATE TABLE purchase_orders(
            id INTEGER PRIMARY KEY,
            sku TEXT NOT NULL REFERENCES items(sku),
            qty INTEGER NOT NULL,
            ordered_on TEXT NOT NULL,
            expected_on TEXT,
            received_on TEXT
        );
    """,
}


class StockError(Exception):
    """A movement the stock cannot allow (more out than there is)."""


def _item(row: sqlite3.Row) -> Item:
    return Item(
        sku=row["sku"],
        name=row["name"],
        price=from_cents(row["price_cents"]),
        unit=row["unit"],
        case_size=row["case_size"],
        reorder_point=row["reorder_point"],
        lead_time_days=row["lead_time_days"],
        barcode=row["barcode"],
        active=bool(row["active"]),
    )


def _movement(row: sqlite3.Row) -> Movement:
    return Movement(
        id=row["id"],
        sku=row["sku"],
        location=row["location"],
        qty=row["qty"],
        kind=row["kind"],
        at=datetime.fromisoformat(row["at"]),
        note=row["note"],
        user=row["user"],
    )


def _po(row: sqlite3.Row) -> PurchaseOrder:
    day = lambda v: date.fromisoformat(v) if v else None  # noqa: E731
    return PurchaseOrder(
        id=row["id"],
        sku=row["sku"],
        qty=row["qty"],
        ordered_on=date.fromisoformat(row["ordered_on"]),
        expected_on=day(row["expected_on"]),
        received_on=day(row["received_on"]),
    )


class Repository:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("PRAGMA foreign_keys = ON")
        self.migrate()

    @classmethod
    def open(cls, path: str | Path) -> Repository:
        return cls(sqlite3.connect(str(path)))

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        with self.conn:
            yield self.conn

    # --- schema ----------------------------------------------------------------------------

    def schema_version(self) -> int:
        self.conn.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT)")
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return int(row["value"]) if row else 0

    def migrate(self) -> None:
        current = self.schema_version()
        for version in range(current + 1, SCHEMA_VERSION + 1):
            with self.transaction() as conn:
                for statement in MIGRATIONS[version].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(
                    "INSERT INTO meta(key, value) VALUES ('schema_version', ?) "
                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (str(version),),
                )

    # --- items -----------------------------------------------------------------------------

    def add_item(self, item: Item) -> None:
        try:
            with self.transaction() as conn:
                conn.execute(
                    "INSERT INTO items(sku, name, unit, case_size, price_cents, reorder_point, lead_time_days, barcode, active)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (item.sku, item.name, item.unit, item.case_size, to_cents(item.price), item.reorder_point,
                     item.lead_time_days, item.barcode, int(item.active)),
                )
        except sqlite3.IntegrityError as exc:
            raise ValidationError("sku", f"{item.sku} already exists") from exc

    def save_item(self, item: Item) -> None:
        """Insert or replace every field of the item."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO items(sku, name, unit, case_size, price_cents, reorder_point, lead_time_days, barcode, active)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(sku) DO UPDATE SET name = excluded.name,"
                " unit = excluded.unit, case_size = excluded.case_size, price_cents = excluded.price_cents,"
                " reorder_point = excluded.reorder_point, lead_time_days = excluded.lead_time_days,"
                " barcode = excluded.barcode, active = excluded.active",
                (item.sku, item.name, item.unit, item.case_size, to_cents(item.price), item.reorder_point,
                 item.lead_time_days, item.barcode, int(item.active)),
            )

    def get_item(self, sku: str) -> Item | None:
        row = self.conn.execute("SELECT * FROM items WHERE sku = ?", (sku,)).fetchone()
        return _item(row) if row else None

    def list_items(self, include_inactive: bool = False, order_by: str = "sku", descending: bool = False) -> list[Item]:
        """Items in `order_by` order (ties by SKU); inactive (discontinued) ones only when asked."""
        column = "price_cents" if order_by == "price" else order_by
        where = "" if include_inactive else "WHERE active = 1"
        direction = "DESC" if descending else "ASC"
        try:
            rows = self.conn.execute(f"SELECT * FROM items {where} ORDER BY {column} {direction}, sku ASC").fetchall()
        except sqlite3.OperationalError as exc:  # no such column
            raise ValueError(f"cannot sort items by {order_by!r}") from exc
        return [_item(r) for r in rows]

    def deactivate(self, sku: str) -> None:
        with self.transaction() as conn:
            conn.execute("UPDATE items SET active = 0 WHERE sku = ?", (sku,))

    # --- locations -------------------------------------------------------------------------

    def add_location(self, location: Location) -> None:
        with self.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO locations(code, name) VALUES (?, ?)", (location.code, location.name))

    def list_locations(self) -> list[Location]:
        return [Location(r["code"], r["name"]) for r in self.conn.execute("SELECT * FROM locations ORDER BY code")]

    # --- movements and stock ---------------------------------------------------------------

    def stock_on_hand(self, sku: str, location: str | None = None) -> int:
        sql = "SELECT COALESCE(SUM(qty), 0) AS n FROM movements WHERE sku = ?"
        args: tuple[str, ...] = (sku,)
        if location is not None:
            sql += " AND location = ?"
            args += (location,)
        return int(self.conn.execute(sql, args).fetchone()["n"])

    def stock_by_location(self, sku: str) -> dict[str, int]:
        rows = self.conn.execute(
            "SELECT location, SUM(qty) AS n FROM movements WHERE sku = ? GROUP BY location HAVING n != 0 ORDER BY location",
            (sku,),
        )
        return {r["location"]: int(r["n"]) for r in rows}

    def stock_levels(self) -> dict[str, int]:
        """sku -> units on hand over all locations, for every active item (0 included)."""
        rows = self.conn.execute(
            "SELECT items.sku, COALESCE(SUM(movements.qty), 0) AS n FROM items"
            " LEFT JOIN movements ON movements.sku = items.sku WHERE items.active = 1 GROUP BY items.sku"
        )
        return {r["sku"]: int(r["n"]) for r in rows}

    def record(self, movement: Movement) -> Movement:
        """Store a movement; refuse one that would take a location's stock below zero."""
        check_sku(movement.sku)
        check_location_code(movement.location)
        if self.get_item(movement.sku) is None:
            raise ValidationError("sku", f"unknown item {movement.sku}")
        self.add_location(Location(movement.location))
        with self.transaction() as conn:
            if movement.qty < 0:
                have = self.stock_on_hand(movement.sku, movement.location)
                if have + movement.qty < 0:
                    raise StockError(f"only {have} of {movement.sku} at {movement.location}, cannot take {-movement.qty}")
            cur = conn.execute(
                "INSERT INTO movements(sku, location, qty, kind, at, note, user) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (movement.sku, movement.location, movement.qty, movement.kind, movement.at.isoformat(),
                 movement.note, movement.user),
            )
        return Movement(**{**movement.__dict__, "id": cur.lastrowid})

    def movements(self, sku: str | None = None, since: datetime | None = None) -> list[Movement]:
        sql, args = "SELECT * FROM movements WHERE 1 = 1", []
        if sku is not None:
            sql += " AND sku = ?"
            args.append(sku)
        if since is not None:
            sql += " AND at >= ?"
            args.append(since.isoformat())
        return [_movement(r) for r in self.conn.execute(sql + " ORDER BY at, id", args)]

    # --- purchase orders -------------------------------------------------------------------

    def add_purchase_order(self, po: PurchaseOrder) -> PurchaseOrder:
        if po.qty <= 0:
            raise ValidationError("qty", "must be positive")
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO purchase_orders(sku, qty, ordered_on, expected_on) VALUES (?, ?, ?, ?)",
                (po.sku, po.qty, po.ordered_on.isoformat(), po.expected_on.isoformat() if po.expected_on else None),
            )
        return PurchaseOrder(po.sku, po.qty, po.ordered_on, po.expected_on, None, cur.lastrowid)

    def purchase_orders(self, sku: str | None = None, open_only: bool = True) -> list[PurchaseOrder]:
        sql, args = "SELECT * FROM purchase_orders WHERE 1 = 1", []
        if sku is not None:
            sql += " AND sku = ?"
            args.append(sku)
        if open_only:
            sql += " AND received_on IS NULL"
        return [_po(r) for r in self.conn.execute(sql + " ORDER BY id", args)]

    def mark_received(self, po_id: int, on: date) -> None:
        with self.transaction() as conn:
            conn.execute("UPDATE purchase_orders SET received_on = ? WHERE id = ?", (on.isoformat(), po_id))
