"""Arms: what differs between runs. The baseline adds nothing; every other arm adds one or more
parts (`armparts`): a plugin, a prompt, settings, an MCP config, a CLAUDE.md, skills, agents, an
output style.

Arms come from `[tool.ponybench.arms]` and from `--arm NAME=KIND:VALUE`; parts compose with `+`
(`--arm x=plugin:a+settings:b.json`) or as several keys of one table (`x = { plugin = "a",
settings = "b.json" }`, a list for a kind given twice). Every arm is validated before any cell
runs and hashed by content, and the hash goes into every record, so a result always says
exactly what produced it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pytest_ponybench.core.armparts import (
    PART_KINDS,
    REPEATABLE,
    SPEC_KINDS,
    Part,
    Placement,
    arm_error,
    copy_problems,
    make_part,
)
from pytest_ponybench.core.names import name_problem
from pytest_ponybench.errors import PonybenchError, excerpt

__all__ = [
    "Arm",
    "BASELINE",
    "KINDS",
    "NAME_RE",
    "SPEC_KINDS",
    "TABLE_KEYS",
    "apart_from",
    "compose",
    "from_table",
    "make_arm",
    "parse_spec",
    "resolve",
]

KINDS = ("baseline", *PART_KINDS)
NAME_RE = re.compile(r"^[A-Za-z0-9_.]+$")
# [tool.ponybench.arms] keys: the spec kinds with `_` for `-`.
TABLE_KEYS = tuple(k.replace("-", "_") for k in SPEC_KINDS)
# A part of a composed spec starts at `+KIND:` (a `+` elsewhere belongs to the value).
_PART_START = re.compile(r"\+(?=(?:" + "|".join(re.escape(k) for k in SPEC_KINDS) + r"):)")
_SPEC_HELP = (
    "expected NAME=KIND:VALUE with KIND one of " + ", ".join(SPEC_KINDS) + " (parts joined with +, "
    "e.g. NAME=plugin:PATH+settings:FILE), or NAME=baseline for an A/A twin"
)


@dataclass(frozen=True)
class Arm:
    name: str
    parts: tuple[Part, ...] = ()

    @property
    def kind(self) -> str:
        """`baseline`, the kind of its one part, or the kinds of its parts joined with `+`."""
        return "+".join(p.kind for p in self.parts) if self.parts else "baseline"

    def has(self, kind: str) -> bool:
        return any(p.kind == kind for p in self.parts)

    def of(self, kind: str) -> list[Part]:
        return [p for p in self.parts if p.kind == kind]

    @property
    def prompt(self) -> str | None:
        """The text appended to the system prompt, or None."""
        texts = [p.text.rstrip() for p in self.of("prompt") if p.text]
        return "\n\n".join(texts) if texts else None

    @property
    def settings(self) -> str | None:
        """The session's --settings JSON: a settings part and an output style's selection."""
        merged: dict[str, Any] = {}
        for part in self.parts:
            merged.update(part.settings())
        return json.dumps(merged, sort_keys=True) if merged else None

    @property
    def plugin_dirs(self) -> tuple[Path, ...]:
        return tuple(p.path for p in self.of("plugin") if p.path is not None)

    @property
    def plugin_dir(self) -> Path | None:
        """The first plugin folder (provenance records its git state)."""
        return self.plugin_dirs[0] if self.plugin_dirs else None

    @property
    def mcp_config(self) -> str | None:
        """Every MCP part's servers as one config, or None."""
        servers: dict[str, Any] = {}
        for part in self.of("mcp"):
            servers.update(json.loads(part.text or "{}").get("mcpServers", {}))
        return json.dumps({"mcpServers": servers}, sort_keys=True) if servers else None

    @property
    def reads_memory(self) -> bool:
        """Whether the session must read CLAUDE.md files (off for every other arm)."""
        return self.has("claude-md")

    @property
    def setting_sources(self) -> str:
        """--setting-sources: the user source only where the arm placed files in ~/.claude."""
        return "user,project,local" if any(p.user_source for p in self.parts) else "project,local"

    def cli_args(self) -> list[str]:
        """The claude flags that make this arm (its prompt is appended by the caller)."""
        args: list[str] = []
        for path in self.plugin_dirs:
            args += ["--plugin-dir", str(path)]
        if (mcp := self.mcp_config) is not None:
            args += ["--mcp-config", mcp]
        if (settings := self.settings) is not None:
            args += ["--settings", settings]
        return args

    def readable(self) -> list[Path]:
        """What of the host a confined session must be able to read for this arm."""
        return [path.resolve() for part in self.parts for path in part.readable()]

    def placements(self) -> list[Placement]:
        """Files copied into the cell (workspace or HOME) before the session starts."""
        return [p for part in self.parts for p in part.placements()]

    def content_hash(self) -> str:
        if not self.parts:
            return hashlib.sha256(b"baseline\0").hexdigest()[:16]
        if len(self.parts) == 1:
            return self.parts[0].content_hash()
        h = hashlib.sha256(b"composed\0")
        for part in self.parts:
            h.update(part.content_hash().encode() + b"\0")
        return h.hexdigest()[:16]

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "hash": self.content_hash(),
            "plugin_dir": str(self.plugin_dir) if self.plugin_dir else None,
            "prompt": self.prompt,
            "settings": self.settings,
            "parts": [p.describe() for p in self.parts],
        }


BASELINE = Arm("baseline")


def apart_from(arms: Iterable[Arm], folders: Iterable[Path]) -> list[Arm]:
    """The arms, each plugin and skills part told which of folders (the benchmark's own: tasks,
    fixtures, the out folder) lie inside its folder, so that neither its hash nor the copy a cell
    gets holds them; a plugin that cannot be copied (a link out of it, over the caps) and an MCP
    folder among the benchmark's own are refused here, before any cell."""
    real = [Path(os.path.realpath(f)) for f in folders]

    def told(arm: Arm, part: Part) -> Part:
        label = repr(arm.name)
        if part.kind == "mcp" and part.path is not None:
            folder = Path(os.path.realpath(part.path.parent))
            for f in real:
                if folder == f or f in folder.parents or folder in f.parents:
                    raise arm_error(
                        label,
                        f"{part.path}: the folder of an MCP config is copied into the cell, and {folder} "
                        f"is, holds or lies in the benchmark's own {f}; give the config a folder of its own",
                    )
        if part.kind not in ("plugin", "skills") or part.path is None:
            return part
        folder = Path(os.path.realpath(part.path))
        out = replace(part, apart=tuple(f for f in real if folder in f.parents))
        # A skills folder that is the repository (a skill at its root) holds the tasks too.
        if part.kind == "plugin" and (problem := copy_problems(folder, out.apart)):
            raise arm_error(label, f"plugin {folder}: {problem}")
        return out

    return [replace(arm, parts=tuple(told(arm, p) for p in arm.parts)) for arm in arms]


def compose(name: str, parts: Sequence[Part], label: str) -> Arm:
    """An arm of these parts: a kind at most once (a plugin and an MCP config may repeat), MCP
    server names distinct, and one outputStyle at most."""
    seen: dict[str, int] = {}
    for part in parts:
        seen[part.kind] = seen.get(part.kind, 0) + 1
    twice = [k for k, n in seen.items() if n > 1 and k not in REPEATABLE]
    if twice:
        raise arm_error(
            label,
            f"gives {', '.join(twice)} more than once; only {' and '.join(REPEATABLE)} may repeat",
        )
    servers = [n for p in parts if p.kind == "mcp" for n in p.names]
    dup = sorted({n for n in servers if servers.count(n) > 1})
    if dup:
        raise arm_error(label, f"MCP server name(s) {', '.join(dup)} in more than one config")
    styles = [p for p in parts if "outputStyle" in p.settings()]
    if len(styles) > 1:
        raise arm_error(label, "selects an output style twice (its settings set outputStyle too)")
    return Arm(name, tuple(parts))


def make_arm(name: str, parts: Sequence[tuple[str, Any]], base: Path, where: str) -> Arm:
    """An arm from (kind, value) pairs as --arm and the table spell them; none: a baseline."""
    label = f"{excerpt(name)} ({where})"
    if not NAME_RE.fullmatch(name):
        raise arm_error(label, "names may use letters, digits, '_' and '.' (they appear in test ids)")
    if (problem := name_problem(name)) is not None:
        raise arm_error(label, f"the name {problem}")
    return compose(name, [make_part(kind, value, base, label) for kind, value in parts], label)


def parse_spec(spec: str, base: Path, source: str = "--arm") -> Arm:
    """NAME=KIND:VALUE, parts joined with `+KIND:` (see SPEC_KINDS), or NAME=baseline: an A/A
    twin of the baseline (the run's measured noise floor)."""
    name, sep, rest = spec.partition("=")
    if sep and name.strip() and rest.strip() == "baseline":
        return make_arm(name.strip(), [], base, source)
    pieces = [p.partition(":") for p in _PART_START.split(rest)]
    if not sep or not name.strip() or any(not colon for _, colon, _ in pieces):
        raise PonybenchError(f"{source} {excerpt(spec)}: {_SPEC_HELP}")
    return make_arm(name.strip(), [(kind.strip(), value) for kind, _, value in pieces], base, source)


def from_table(table: Mapping[str, Any], base: Path, where: str) -> list[Arm]:
    """[tool.ponybench.arms]: name = {} (baseline) or a table of parts, e.g. { plugin = "p",
    settings = "s.json" }; a list gives a repeatable kind more than once."""
    arms = []
    for name, body in table.items():
        label = f"{excerpt(name)} ({where})"
        if not isinstance(body, dict):
            raise arm_error(label, 'must be a table, e.g. { plugin = "path" }')
        unknown = sorted(set(body) - set(TABLE_KEYS))
        if unknown:
            shown = ", ".join(k if len(k) <= 40 and k.isprintable() else excerpt(k) for k in unknown[:5])
            raise arm_error(label, f"unknown key(s) {shown} (known: {', '.join(TABLE_KEYS)})")
        parts: list[tuple[str, Any]] = []
        for key, value in body.items():
            kind = key.replace("_", "-")
            values = value if isinstance(value, list) else [value]
            if isinstance(value, list) and (not value or kind not in REPEATABLE):
                raise arm_error(
                    label,
                    f"key {key!r}: a list is for a kind given more than once ({', '.join(REPEATABLE)})"
                    if kind not in REPEATABLE
                    else f"key {key!r}: the list is empty",
                )
            parts += [(kind, v) for v in values]
        arms.append(make_arm(name, parts, base, where))
    return arms


def resolve(
    table: Mapping[str, Any],
    specs: Sequence[str],
    wanted: Sequence[str],
    base: Path,
    where: str,
    added: Sequence[tuple[str, str]] = (),
) -> list[Arm]:
    """All arms, validated, baseline first; --arms selects by name (unknown names are an error).

    `added` holds (spec, source) pairs from pytest_ponybench_arms hook implementations. A name
    may be declared once: `baseline` is the arm with nothing added, and an arm given twice
    (table and --arm, or --arm twice) is refused rather than one silently replacing the other.
    """
    declared: list[tuple[Arm, str]] = [(a, where) for a in from_table(table, base, where)]
    declared += [(parse_spec(s, base), "--arm") for s in specs]
    declared += [(parse_spec(s, base, source), source) for s, source in added]
    arms: dict[str, Arm] = {"baseline": BASELINE}
    origin: dict[str, str] = {}
    for arm, source in declared:
        if arm.name == "baseline" and arm.parts:
            raise arm_error(
                f"'baseline' ({source})", "the name is reserved for the arm with nothing added; name yours"
            )
        if arm.name in origin:
            raise arm_error(f"{arm.name!r} ({source})", f"declared twice (also in {origin[arm.name]})")
        origin[arm.name] = source
        arms[arm.name] = arm
    if wanted:
        unknown = [w for w in wanted if w not in arms]
        if unknown:
            raise PonybenchError(f"--arms: unknown arm(s) {', '.join(unknown)} (known: {', '.join(arms)})")
        chosen = [arms[w] for w in dict.fromkeys(wanted)]
    else:
        chosen = list(arms.values())
    return sorted(chosen, key=lambda a: a.name != "baseline")
