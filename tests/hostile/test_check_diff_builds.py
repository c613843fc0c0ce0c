"""Reading a build back: `check` holds the output folder to its manifest (truncated, edited, deleted, added files,
by file); `diff` across schema versions says so and what it means."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from checkdiff_helpers import build, copy_sources
from warscribe.cli import main


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    root = tmp_path_factory.mktemp("manifest")
    return build(copy_sources(root), root / "out")


@pytest.fixture
def out(clean, tmp_path):
    folder = tmp_path / "out"
    shutil.copytree(clean, folder, symlinks=True)
    return folder


def _check(folder, capsys, *flags) -> tuple[int, dict]:
    status = main(["check", str(folder), "--json", *flags])
    return status, json.loads(capsys.readouterr().out or "{}")


def _files_findings(report: dict) -> list[tuple[str, str]]:
    return [(f["code"], f["file"].split("/out/", 1)[-1]) for f in report.get("findings", [])
            if f["code"].startswith("output-")]


def test_a_clean_build_matches_its_manifest(out, capsys):
    status, report = _check(out, capsys, "--only", "files")
    assert status == 0 and report["findings"] == []
    assert json.loads((out / "manifest.json").read_text())["files"]["json/datasheet.json"]["size"] > 0


def test_a_truncated_kind_file_is_reported_though_the_bundle_is_intact(out, capsys):
    path = out / "json" / "datasheet.json"
    size = path.stat().st_size
    path.write_bytes(path.read_bytes()[: size // 2])
    status, report = _check(out, capsys)
    assert status == 1 and _files_findings(report) == [("output-changed", "json/datasheet.json")]
    [finding] = [f for f in report["findings"] if f["code"] == "output-changed"]
    assert f"{size // 2:,} bytes, the manifest says {size:,}: truncated" in finding["message"]


def test_deleted_added_and_edited_files_are_each_reported_by_file(out, capsys):
    record = next((out / "records" / "weapon").rglob("*.yaml"))
    record.unlink()
    (out / "site-notes.txt").write_text("mine", encoding="utf-8")
    bundle = out / "json" / "warscribe.json"
    text = bundle.read_text(encoding="utf-8")
    bundle.write_text(text.replace('"ap": 0', '"ap": 9', 1), encoding="utf-8")  # same size, other content
    status, report = _check(out, capsys)
    assert status == 1
    assert sorted(_files_findings(report)) == sorted([
        ("output-missing", record.relative_to(out).as_posix()), ("output-unlisted", "site-notes.txt"),
        ("output-changed", "json/warscribe.json")])
    edited = next(f for f in report["findings"] if f["code"] == "output-changed")
    assert "edited since the build" in edited["message"] and edited["level"] == "error"
    added = next(f for f in report["findings"] if f["code"] == "output-unlisted")
    assert added["level"] == "warning"


def test_an_unreadable_bundle_still_says_which_files_are_damaged(out, capsys):
    bundle = out / "json" / "warscribe.json"
    bundle.write_bytes(bundle.read_bytes()[:1000])
    assert main(["check", str(out)]) == 2
    captured = capsys.readouterr()
    assert "json/warscribe.json" in captured.out and "truncated" in captured.out and "[output-changed]" in captured.out
    assert "found malformed JSON" in captured.err


def test_a_file_replaced_by_a_link_is_not_followed(out, capsys, tmp_path):
    (tmp_path / "elsewhere.json").write_text("{}", encoding="utf-8")
    report_json = out / "report.json"
    report_json.unlink()
    os.symlink(tmp_path / "elsewhere.json", report_json)
    status, report = _check(out, capsys, "--only", "files")
    assert status == 1 and _files_findings(report) == [("output-changed", "report.json")]
    assert "now a link" in report["findings"][0]["message"]


def test_a_manifest_naming_paths_outside_the_folder_is_not_followed(out, capsys):
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["files"]["../../../../etc/passwd"] = {"size": 1, "sha256": "0" * 64}
    manifest["files"]["/etc/hostname"] = "0" * 64
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    status, report = _check(out, capsys, "--only", "files")
    found = [f for f in report["findings"] if f["code"] == "output-unverified"]
    assert status == 0 and len(found) == 2 and all("not checked" in f["message"] for f in found)


def test_a_bundle_without_a_manifest_says_its_files_are_unverified(out, capsys, tmp_path):
    alone = tmp_path / "alone.json"
    shutil.copy(out / "json" / "warscribe.json", alone)
    status, report = _check(alone, capsys, "--only", "files")
    assert status == 0 and [f["code"] for f in report["findings"]] == ["output-unverified"]
    # The bundle inside its build is verified against the build's manifest.
    status, report = _check(out / "json" / "warscribe.json", capsys, "--only", "files")
    assert status == 0 and report["findings"] == []


# -- diff across schema versions ---------------------------------------------------------------


def _other_schema(clean, tmp_path, version: str | None, rename: tuple[str, str] | None = None):
    folder = tmp_path / f"v{version}"
    folder.mkdir()
    bundle = json.loads((clean / "json" / "warscribe.json").read_text(encoding="utf-8"))
    if version is None:
        del bundle["meta"]["schema_version"]
    else:
        bundle["meta"]["schema_version"] = version
    if rename:
        bundle["data"][rename[1]] = bundle["data"].pop(rename[0])
    (folder / "warscribe.json").write_text(json.dumps(bundle), encoding="utf-8")
    return folder


def test_diff_across_schema_versions_says_so_and_what_it_means(clean, tmp_path, capsys):
    newer = _other_schema(clean, tmp_path, "2.0", rename=("keyword", "tag"))
    for fmt in ("text", "markdown"):
        assert main(["diff", str(clean), str(newer), "--format", fmt]) == 1  # 1: there are differences
        shown = capsys.readouterr().out
        assert "different schema versions (old 1.0, new 2.0)" in shown and "build both sides with one Warscribe" in shown
        assert "records of kinds this Warscribe does not know were not compared:" in shown and " tag" in shown
    assert main(["diff", str(clean), str(newer), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["schema_versions"] == {"old": "1.0", "new": "2.0"} and len(data["caveats"]) == 2
    assert data["summary"]["removed"] > 0  # the keywords, under a kind the other schema calls otherwise


def test_diff_of_one_schema_version_has_no_caveat_and_an_unrecorded_version_is_named(clean, tmp_path, capsys):
    assert main(["diff", str(clean), str(clean), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["caveats"] == []
    old = _other_schema(clean, tmp_path, None)
    assert main(["diff", str(old), str(clean)]) == 0
    shown = capsys.readouterr().out
    assert "(old not recorded, new 1.0)" in shown and "0 changed" in shown
