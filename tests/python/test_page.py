"""awb.page: the teaching page from Python is the page `awb page` writes, byte for byte, and it
shows inline in a notebook."""

import subprocess

import pytest

np = pytest.importorskip("numpy", reason="this python3 has no NumPy (python3-numpy)")
import awb  # noqa: E402  (after the NumPy check)


def test_page_equals_awb_page(awb_cli, tmp_path):
    out = tmp_path / "river-bank.html"
    subprocess.run([awb_cli, "page", "--exercise", "river-bank", "--variant", "qkv",
                    "--out", str(out)], capture_output=True, text=True, check=True)
    page = awb.page("qkv", "river-bank")
    assert page.html == out.read_text(encoding="utf-8")
    saved = page.save(tmp_path / "again.html")
    assert saved.read_text(encoding="utf-8") == page.html


def test_page_shows_inline_in_a_frame_of_its_own():
    page = awb.page(["parameter-free"], awb.Exercise.load("journey"), reference=False)
    shown = page._repr_html_()
    assert shown.startswith("<iframe") and "srcdoc=" in shown
    # The page's markup travels escaped inside the attribute; nothing of it is live outside.
    assert "<script" not in shown and "&lt;script" in shown
    assert len(page.html) < 200 * 1024


def test_page_errors_carry_the_cli_ids():
    with pytest.raises(awb.PluginError) as e:
        awb.page("no-such-variant", "journey")
    assert e.value.id == "plugin.variant_not_found"
    with pytest.raises(awb.Error) as e:
        awb.page("qkv", "river-bank", case="lake")
    assert e.value.id == "exercise.case_not_found"
