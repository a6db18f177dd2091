"""The wheel carries the shipped suite: its task folders, fixture repositories and examples.

They are kept once, as top-level folders of the source tree (this repository's own tests,
scripts and README commands use them there). Building a wheel copies them into the package,
where `pytest_ponybench/_util/paths.py` finds them: `benchmarks/tasks` -> `suite/tasks`,
`fixtures` -> `suite/fixtures`, `examples` -> `examples`. An editable install copies nothing
and reads them in place. MANIFEST.in puts the same folders in the sdist, so a wheel built from
it carries them too. Everything else is declared in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

# source folder (relative to this file) -> folder inside the installed package
SHIPPED = {
    "benchmarks/tasks": "suite/tasks",
    "fixtures": "suite/fixtures",
    "examples": "examples",
}
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", ".mypy_cache", ".ruff_cache")


class BuildWithSuite(build_py):
    """build_py, then the shipped data laid into the built package (not in editable mode)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        here = Path(__file__).resolve().parent
        for source, dest in SHIPPED.items():
            src = here / source
            if not src.is_dir():
                raise SystemExit(f"setup.py: {src} is missing; the wheel would not carry the suite")
            target = Path(self.build_lib) / "pytest_ponybench" / dest
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(src, target, ignore=SKIP, symlinks=False)


setup(cmdclass={"build_py": BuildWithSuite})
