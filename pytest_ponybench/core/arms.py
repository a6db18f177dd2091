"""Arms: what differs between runs (nothing, a plugin, an appended prompt, settings).

Arms come from `[tool.ponybench.arms]` and from `--arm NAME=KIND:VALUE`. Every arm is validated
before any cell runs and hashed by content, and the hash goes into every record, so a result
always says exactly which plugin, prompt or settings produced it.
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

from pytest_ponybench.errors import PonybenchError

__all__ = [
    "Arm",
    "BASELINE",
    "KINDS",
    "NAME_RE",
    "SPEC_KINDS",
    "apart_from",
    "from_table",
    "make_arm",
    "parse_spec",
    "resolve",
    "validate_plugin",
]

KINDS = ("baseline", "plugin", "prompt", "settings")
NAME_RE = re.compile(r"^[A-Za-z0-9_.]+$")
SPEC_KINDS = ("plugin", "prompt", "prompt-file", "settings")


@dataclass(frozen=True)
class Arm:
    name: str
    kind: str  # baseline | plugin | prompt | settings
    prompt: str | None = None
    settings: str | None = None  # JSON text
    plugin_dir: Path | None = None
    # Folders inside plugin_dir that are the benchmark's, not the plugin's (its tasks, fixtures
    # and run dirs, when the plugin is the repository ponybench runs in): left out of the hash,
    # so a run writing its records there does not change the arm it measures.
    apart: tuple[Path, ...] = ()

    def cli_args(self) -> list[str]:
        """The claude flags that make this arm (the shared instruction is added by the caller)."""
        if self.kind == "plugin" and self.plugin_dir is not None:
            return ["--plugin-dir", str(self.plugin_dir)]
        if self.kind == "settings" and self.settings is not None:
            return ["--settings", self.settings]
        return []

    def content_hash(self) -> str:
        h = hashlib.sha256(f"{self.kind}\0".encode())
        if self.prompt is not None:
            h.update(self.prompt.encode())
        if self.settings is not None:
            h.update(json.dumps(json.loads(self.settings), sort_keys=True).encode())
        if self.plugin_dir is not None:
            for p in sorted(_plugin_files(self.plugin_dir, self.apart)):
                h.update(p.relative_to(self.plugin_dir).as_posix().encode() + b"\0")
                h.update(hashlib.sha256(p.read_bytes()).digest())
        return h.hexdigest()[:16]

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "hash": self.content_hash(),
            "plugin_dir": str(self.plugin_dir) if self.plugin_dir else None,
            "prompt": self.prompt,
            "settings": self.settings,
        }


BASELINE = Arm("baseline", "baseline")


def _plugin_files(root: Path, apart: Sequence[Path]) -> Iterable[Path]:
    """The files that make the plugin: not the folders apart, and nothing a tool writes beside
    its content: .git, bytecode (__pycache__), a cache (a folder tagged by CACHEDIR.TAG, as
    .pytest_cache is, which pytest writes during the very run that hashes the arm) or a virtual
    environment (a folder holding pyvenv.cfg)."""
    skip = {os.path.realpath(a) for a in apart}

    def kept(top: str, name: str) -> bool:
        path = os.path.join(top, name)
        return (
            name not in (".git", "__pycache__")
            and os.path.realpath(path) not in skip
            and not any(os.path.isfile(os.path.join(path, tag)) for tag in ("pyvenv.cfg", "CACHEDIR.TAG"))
        )

    for top, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if kept(top, d)]
        for name in files:
            path = Path(top, name)
            if name != ".git" and path.is_file():  # .git is a file in a worktree or submodule
                yield path


def apart_from(arms: Iterable[Arm], folders: Iterable[Path]) -> list[Arm]:
    """The arms, each plugin arm told which of folders lie inside its plugin dir (and so are
    not hashed as part of it)."""
    folders = [Path(os.path.realpath(f)) for f in folders]
    out = []
    for arm in arms:
        if arm.plugin_dir is not None:
            plugin = Path(os.path.realpath(arm.plugin_dir))
            inside = tuple(f for f in folders if plugin in f.parents)
            arm = replace(arm, apart=inside)
        out.append(arm)
    return out


def _fail(where: str, msg: str) -> PonybenchError:
    return PonybenchError(f"arm {where}: {msg}")


def validate_plugin(name: str, path: Path) -> Path:
    """A plugin dir must exist and hold a .claude-plugin/plugin.json with a name."""
    path = path.expanduser().resolve()
    if not path.is_dir():
        raise _fail(name, f"plugin dir {path} does not exist")
    manifest = path / ".claude-plugin" / "plugin.json"
    if not manifest.is_file():
        raise _fail(name, f"{path} is not a plugin dir: {manifest} is missing")
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise _fail(name, f"{manifest} is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("name"), str) or not data["name"]:
        raise _fail(name, f'{manifest} has no "name"')
    return path


def _read_text(label: str, path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise _fail(label, f"{path} is not UTF-8 text: {exc}") from None
    except OSError as exc:
        raise _fail(label, f"{path} cannot be read: {exc}") from None


def _settings_text(name: str, value: str, base: Path) -> str:
    text = value.strip()
    if not text.startswith("{"):
        path = (base / text).expanduser()
        if not path.is_file():
            raise _fail(name, f"settings {value!r} is neither a JSON object nor an existing file")
        text = _read_text(name, path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(name, f"settings are not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise _fail(name, "settings must be a JSON object")
    return json.dumps(data, sort_keys=True)


def make_arm(name: str, kind: str, value: Any, base: Path, where: str) -> Arm:
    label = f"{name!r} ({where})"
    if not NAME_RE.match(name):
        raise _fail(label, "names may use letters, digits, '_' and '.' (they appear in test ids)")
    if kind == "baseline":
        return Arm(name, "baseline")
    if kind == "plugin":
        return Arm(name, "plugin", plugin_dir=validate_plugin(label, base / str(value)))
    if kind == "prompt":
        if not str(value).strip():
            raise _fail(label, "the prompt is empty")
        return Arm(name, "prompt", prompt=str(value))
    if kind == "prompt-file":
        path = (base / str(value)).expanduser()
        if not path.is_file():
            raise _fail(label, f"prompt file {path} does not exist")
        return Arm(name, "prompt", prompt=_read_text(label, path))
    if kind == "settings":
        text = json.dumps(value, sort_keys=True) if isinstance(value, dict) else str(value)
        return Arm(name, "settings", settings=_settings_text(label, text, base))
    raise _fail(label, f"unknown kind {kind!r}; expected one of {', '.join(SPEC_KINDS)}")


def parse_spec(spec: str, base: Path, source: str = "--arm") -> Arm:
    """--arm NAME=plugin:PATH | prompt:TEXT | prompt-file:PATH | settings:JSON_OR_PATH"""
    name, sep, rest = spec.partition("=")
    kind, sep2, value = rest.partition(":")
    if not sep or not sep2 or not name:
        raise PonybenchError(
            f"{source} {spec!r}: expected NAME=plugin:PATH, NAME=prompt:TEXT, NAME=prompt-file:PATH "
            "or NAME=settings:JSON_OR_PATH"
        )
    return make_arm(name.strip(), kind.strip(), value, base, source)


def from_table(table: Mapping[str, Any], base: Path, where: str) -> list[Arm]:
    """[tool.ponybench.arms]: name = {} (baseline) or {plugin|prompt|prompt_file|settings = ...}."""
    arms = []
    for name, body in table.items():
        if not isinstance(body, dict):
            raise _fail(f"{name!r} ({where})", 'must be a table, e.g. { plugin = "path" }')
        keys = [k for k in body if k in ("plugin", "prompt", "prompt_file", "settings")]
        unknown = sorted(set(body) - {"plugin", "prompt", "prompt_file", "settings"})
        if unknown or len(keys) > 1:
            raise _fail(
                f"{name!r} ({where})",
                "give at most one of plugin, prompt, prompt_file, settings"
                + (f" (unknown: {', '.join(unknown)})" if unknown else ""),
            )
        if not keys:
            arms.append(make_arm(name, "baseline", None, base, where))
        else:
            key = keys[0]
            arms.append(make_arm(name, key.replace("_", "-"), body[key], base, where))
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
        if arm.name == "baseline" and arm.kind != "baseline":
            raise _fail(
                f"'baseline' ({source})", "the name is reserved for the arm with nothing added; name yours"
            )
        if arm.name in origin:
            raise _fail(f"{arm.name!r} ({source})", f"declared twice (also in {origin[arm.name]})")
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
