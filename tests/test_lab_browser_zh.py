"""The Chinese edition in real JupyterLab (headless Chromium), issue 22: a notebook opened from the
edition's folder runs with Chinese chrome, and its self-check widget answers in Chinese when clicked.

The notebook is ``notebooks/zh/00_start_here.ipynb`` when it is built; until the translations are
merged, the English notebook copied into a ``zh`` folder carrying the edition marker (the chrome
comes from the marker, not from the translated Markdown), so the test proves the same thing either
way. Both are copied without outputs (:func:`tests.test_lab_browser._copy_without_outputs`).
"""

from __future__ import annotations

import contextlib
import re
import shutil
from pathlib import Path

from helpers.i18n import write_marker
from tests.test_lab_browser import _copy_without_outputs, _lab_server, _run_notebook_in_lab

NAME = "00_start_here.ipynb"


def _copy_with_chinese_edition(source: Path, target: Path) -> None:
    _copy_without_outputs(source, target)
    built = source / "zh" / NAME
    staging = target.parent / "zh-source"
    staging.mkdir()
    shutil.copy2(built if built.is_file() else source / NAME, staging / NAME)
    _copy_without_outputs(staging, target / "zh")
    write_marker(target / "zh", "zh-CN")


def test_the_chinese_self_check_and_exercise_chrome_in_jupyterlab(tmp_path):
    from playwright.sync_api import expect

    with contextlib.ExitStack() as stack:
        base = stack.enter_context(_lab_server(tmp_path, _copy_with_chinese_edition))
        _page, notebook = stack.enter_context(_run_notebook_in_lab(base, f"zh/{NAME}"))
        expect(notebook.locator(".jp-OutputArea-output", has_text="全部 4 项检查通过")).to_be_visible(timeout=60_000)
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
