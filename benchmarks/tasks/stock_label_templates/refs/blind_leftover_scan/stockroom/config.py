"""Settings from stockroom.toml (next to the database, or given with --config)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class Settings:
    currency: str = "EUR"
    warehouse: str = "Main"
    default_location: str = "A1"
    low_stock_days: int = 28
    audit_log: str = "audit.log"
    label_template: str | None = None


def load_settings(path: str | Path | None) -> Settings:
    if path is None or not Path(path).exists():
        return Settings()
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from exc
    section = data.get("stockroom", {})
    known = set(Settings.__dataclass_fields__)
    unknown = sorted(set(section) - known)
    if unknown:
        raise ConfigError(f"{path}: unknown setting(s) {', '.join(unknown)} in [stockroom]")
    settings = Settings(**section)
    if not (len(settings.currency) == 3 and settings.currency.isalpha() and settings.currency.isupper()):
        raise ConfigError(f"{path}: currency must be a code like EUR")
    if settings.label_template is not None and not isinstance(settings.label_template, str):
        raise ConfigError(f"{path}: label_template must be a string")
    if not isinstance(settings.low_stock_days, int) or settings.low_stock_days < 1:
        raise ConfigError(f"{path}: low_stock_days must be a positive whole number")
    return settings
