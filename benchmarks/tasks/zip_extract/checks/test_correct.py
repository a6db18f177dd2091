import importlib
import zipfile

import pytest


def load():
    try:
        return importlib.import_module("unpack")
    except Exception as exc:
        pytest.fail(f"could not import unpack.py: {exc!r}")


@pytest.fixture
def archive(tmp_path):
    path = tmp_path / "reports.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("summary.csv", "a,b\n1,2\n")
        zf.writestr("README.txt", "not a csv")
        zf.writestr("2024/", "")
        zf.writestr("2024/q1.CSV", "q,1\n")
        zf.writestr("2024/deep/q2.csv", "q,2\n")
        zf.writestr("2024/chart.png", b"\x89PNG")
        zf.writestr("notes.csv\n", "a name that ends in a line break, not in .csv")
        zf.writestr("old.csv.bak", "a backup")
    return path


def test_extracts_only_csv_files(tmp_path, archive):
    dest = tmp_path / "out"
    result = load().extract_csvs(str(archive), str(dest))
    assert list(result) == ["2024/deep/q2.csv", "2024/q1.CSV", "summary.csv"], (
        f"extract_csvs should return the sorted relative paths of the .csv members, got {result!r}")
    assert (dest / "summary.csv").read_text() == "a,b\n1,2\n", "summary.csv was not extracted with its content"
    assert (dest / "2024" / "q1.CSV").read_text() == "q,1\n", "2024/q1.CSV (upper-case extension) was not extracted"
    assert (dest / "2024" / "deep" / "q2.csv").read_text() == "q,2\n", "2024/deep/q2.csv was not extracted"


def test_skips_other_files(tmp_path, archive):
    dest = tmp_path / "out"
    load().extract_csvs(str(archive), str(dest))
    files = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert files == ["2024/deep/q2.csv", "2024/q1.CSV", "summary.csv"], (
        f"only .csv members should be written to dest_dir, found {files!r}")


def test_existing_relative_and_deep_destinations(tmp_path, monkeypatch):
    path = tmp_path / "more.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("2025/a/b/c.csv", "c")
        zf.writestr("2025/a/b/d.csv", "d")
        zf.writestr("top.csv", "t")
    dest = tmp_path / "existing"
    (dest / "2025" / "a").mkdir(parents=True)
    expected = ["2025/a/b/c.csv", "2025/a/b/d.csv", "top.csv"]
    got = load().extract_csvs(str(path), str(dest))
    assert list(got) == expected, f"extracting into an existing folder gave {got!r}"
    monkeypatch.chdir(tmp_path)
    got = load().extract_csvs(str(path), "relative/out")
    assert list(got) == expected, f"extracting into a relative dest_dir gave {got!r}"
    assert (tmp_path / "relative" / "out" / "2025" / "a" / "b" / "d.csv").read_text() == "d"


def test_archive_without_csv(tmp_path):
    path = tmp_path / "none.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("notes.txt", "hello")
    result = load().extract_csvs(str(path), str(tmp_path / "out"))
    assert list(result) == [], f"an archive without .csv members should give [], got {result!r}"


def test_returned_paths_are_the_files_written(tmp_path):
    """A member that names a place outside dest_dir may be refused, skipped or written inside;
    whatever the code does, each path it returns is a file it wrote under dest_dir."""
    path = tmp_path / "odd.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("ok.csv", "fine\n")
        zf.writestr("../up.csv", "up\n")
    dest = tmp_path / "site" / "out"
    try:
        got = load().extract_csvs(str(path), str(dest))
    except Exception:
        return  # refusing the archive is a right answer too
    root = dest.resolve()
    for rel in got:
        target = (root / rel).resolve()
        assert target.is_relative_to(root) and target.is_file(), (
            f"extract_csvs returned {rel!r}, which is not a file it extracted under dest_dir "
            f"(returned {list(got)!r}); return the paths written, relative to dest_dir")
    assert "ok.csv" in list(got), f"ok.csv should be extracted and returned, got {got!r}"


def test_odd_names_are_extracted(tmp_path):
    """Names as users' tools write them: spaces, accents, a tab."""
    names = ["2024/Q1 sales.csv", "ventes/café.csv", "tab\there.csv"]
    path = tmp_path / "odd.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for name in names:
            zf.writestr(name, "x\n")
    dest = tmp_path / "out"
    got = load().extract_csvs(str(path), str(dest))
    assert list(got) == sorted(names), f"every .csv member should be extracted and listed by its name, got {got!r}"
    for name in names:
        assert (dest / name).read_text() == "x\n", f"{name!r} was not written under dest_dir"
