"""The Chinese edition in real JupyterLab (headless Chromium), issue 22: a notebook opened from the
edition's folder runs with Chinese chrome, and its self-check widget answers in Chinese when clicked.

The notebook is ``notebooks/zh/00_start_here.ipynb`` when it is built; until the translations are
merged, the English notebook copied into a ``zh`` folder carrying the edition marker (the chrome
comes from the marker, not from the translated Markdown), so the test proves the same thing either
way. Both are copied without outputs (:func:`tests.lab_server._strip_outputs`), in a folder of
this test's own on the test process's JupyterLab (``tests/lab_server.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers.i18n import write_marker
from tests.lab_server import _run_notebook_in_lab, _strip_outputs

NAME = "00_start_here.ipynb"


def _copy_with_chinese_edition(source: Path, target: Path) -> None:
    """Only what the test opens: the Chinese notebook without outputs, in a ``zh`` folder with the edition marker."""
    built = source / "zh" / NAME
    (target / "zh").mkdir(parents=True)
    _strip_outputs(built if built.is_file() else source / NAME, target / "zh" / NAME)
    write_marker(target / "zh", "zh-CN")


@pytest.mark.notebook("00")
def test_the_chinese_self_check_and_exercise_chrome_in_jupyterlab(jupyterlab, tmp_path):
    from playwright.sync_api import expect

    with jupyterlab.folder(_copy_with_chinese_edition) as lab, _run_notebook_in_lab(lab, f"zh/{NAME}") as (
            _page, notebook):
        expect(notebook.locator(".jp-OutputArea-output", has_text="全部 5 项检查通过")).to_be_visible(timeout=60_000)
        expect(notebook.locator(".jp-OutputArea-output", has_text="尚未完成")).to_have_count(1)
        assert notebook.locator(".jp-OutputArea-output", has_text="checks passed").count() == 0

        check = notebook.locator(".course-self-check")
        check.scroll_into_view_if_needed()
        expect(check).to_contain_text("自测")
        expect(check.locator("button", has_text="清除选择")).to_be_visible()
        first = check.locator(".course-question").nth(0)
        first.locator(".course-choices label.widget-label-basic").first.click()
        first.locator("button", has_text="检查").click()
        verdict = first.locator(".course-verdict")
        expect(verdict).to_have_attribute("data-verdict", re.compile("^(right|wrong)$"), timeout=30_000)
        word = {"right": "正确", "wrong": "错误"}[verdict.get_attribute("data-verdict")]
        expect(first.locator(".course-badge")).to_have_text(word)
        expect(first).to_contain_text("以你的第一次回答为准")
        expect(check.locator(".course-score")).to_contain_text("题中首次答对")
        check.screenshot(path=str(tmp_path / "self_check_zh.png"))
