"""Every course mermaid diagram reads at 1280 px: label sizes measured in real JupyterLab (issue 10).

A diagram whose labels render below about 9 CSS px at a 1280 px wide window is split or
simplified. This file proves it for every diagram the course shows, as a learner first sees it:
each notebook that holds a mermaid diagram (in a Markdown cell or a committed output) is opened,
*not run*, in a 1280 x 900 JupyterLab window with the default layout (the file browser open on the
left), so the committed outputs are what renders.

How a label is measured. JupyterLab 4.6 draws a mermaid diagram as ``<img src="data:image/svg+xml,…">``
(see ``/work/shared/reference/notebook-testing.md``), so the labels are not in the page's DOM.
For each image the test decodes the SVG, puts a copy (same width and height as the image is drawn,
hidden, its own ``<style>`` applies) into the page, and for every element that holds label text
(SVG ``<text>``/``<tspan>``, or HTML inside a ``<foreignObject>``) takes the computed font size in
the SVG's user units times the element's scale to the screen (``getScreenCTM()``; for the outer
``<svg>`` it includes the viewBox mapping). That is the label's font size in CSS px on the page.
The SVG's overall scale (drawn width / viewBox width) is printed next to it.

The test process's one JupyterLab (``tests/lab_server.py``), a folder of this module's own holding
the notebooks as committed, and one browser page serve every notebook (module-scoped fixtures); the
notebooks are opened one after another in the same page through JupyterLab's ``docmanager:open``
command and closed (their kernels shut down) after measuring. Every wait has a condition: the
notebook's context is ready and every cell is in the DOM (the readiness check of
``test_lab_browser.py``, without its kernel condition, since nothing runs), then each diagram cell is
scrolled into view and the test waits until all its diagram images are decoded and laid out.

``pytest -s`` prints a table of the measured sizes. Needs Debian's ``chromium`` and playwright, like
``test_lab_browser.py``; ``COURSE_REQUIRE_BROWSER=1`` turns the skip into a failure.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.lab_server import CHROMIUM, CHROMIUM_ARGS, READY_TIMEOUT_MS, ROOT, TOKEN, LabFolder, _api, _require_browser

#: The smallest label size (CSS px) a diagram may render at in a 1280 px window (issue 10).
MIN_LABEL_PX = 9.0
WINDOW = {"width": 1280, "height": 900}
_FENCE = re.compile(r"^\s*```+\s*mermaid\b", re.MULTILINE)
_RENDERED = 'img[src^="data:image/svg+xml"]'


@dataclass(frozen=True)
class DiagramCell:
    """A notebook cell that shows mermaid diagrams: its 0-based index and how many diagrams it draws."""

    notebook: str
    cell: int
    where: str  # "markdown" (the cell's source) or "output" (a committed text/markdown output)
    diagrams: int


def _diagram_cells(notebook: Path) -> list[DiagramCell]:
    """The cells of ``notebook`` that JupyterLab draws mermaid diagrams in, without running it.

    A Markdown cell draws one diagram per fenced ``mermaid`` block in its source; a code cell draws
    one per fenced block in its committed ``text/markdown`` outputs (JupyterLab renders Markdown
    over ``text/plain``) and one per ``text/vnd.mermaid`` output (JupyterLab 4.6's mermaid mimetype;
    none yet). A code cell's *source* is code, never rendered.
    """
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    found = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "markdown":
            count, where = len(_FENCE.findall("".join(cell["source"]))), "markdown"
        elif cell["cell_type"] == "code":
            count, where = 0, "output"
            for data in (out.get("data", {}) for out in cell.get("outputs", [])):
                if "text/vnd.mermaid" in data:
                    count += 1
                elif "text/markdown" in data:
                    count += len(_FENCE.findall("".join(data["text/markdown"])))
        else:
            continue
        if count:
            found.append(DiagramCell(notebook.name, index, where, count))
    return found


NOTEBOOKS = sorted(path.name for path in (ROOT / "notebooks").glob("*.ipynb") if _diagram_cells(path))


def test_the_diagram_notebooks_are_found():
    """The collection above is not empty by accident: 02's sequence diagram and 05's two flowcharts are in it."""
    cells = {(c.notebook, c.where): c.diagrams for name in NOTEBOOKS for c in _diagram_cells(ROOT / "notebooks" / name)}
    assert cells[("02_tool_calls_are_requests.ipynb", "output")] == 1
    assert cells[("05_return_values_and_tooloutputmixin.ipynb", "markdown")] == 2


def _copy_with_outputs(source: Path, target: Path) -> None:
    """Copy the course notebooks as committed, outputs included (the originals are never opened)."""
    target.mkdir(parents=True)
    for path in source.iterdir():
        if path.is_file():
            shutil.copy2(path, target / path.name)


# The notebook opened from `path`: ready when its context is loaded, every cell exists and is in the
# DOM and there is an active cell (test_lab_browser's _NOTEBOOK_STATE without the kernel: nothing runs).
_NOTEBOOK_READY = """(path) => {
    const app = window.jupyterapp;
    if (!app || !app.shell) return false;
    const panel = [...app.shell.widgets("main")].find(w => w.context && w.context.path === path);
    if (!panel || !panel.context.isReady) return false;
    const notebook = panel.content;
    const cells = notebook.widgets.length;
    return cells > 0 && cells === notebook.model.cells.length && !!notebook.activeCell
           && notebook.node.querySelectorAll(".jp-Cell").length === cells
           && !panel.node.classList.contains("lm-mod-hidden");
}"""

_CELL = """const panel = [...window.jupyterapp.shell.widgets("main")].find(w => w.context && w.context.path === path);
    const cell = panel.content.widgets[index];"""

# Scroll the cell into view; true once it has `count` diagram images, each decoded and laid out.
_CELL_DRAWN = f"""([path, index, count]) => {{
    {_CELL}
    cell.node.scrollIntoView({{block: "start"}});
    const images = [...cell.node.querySelectorAll('.jp-RenderedMermaid {_RENDERED}')];
    return images.length === count && images.every(
        img => img.complete && img.naturalWidth > 0 && img.getBoundingClientRect().width > 0);
}}"""

# Measure diagram `nth` of the cell (see the module docstring). Returns plain data, sizes in CSS px.
_MEASURE = f"""async ([path, index, nth]) => {{
    {_CELL}
    const img = cell.node.querySelectorAll('.jp-RenderedMermaid {_RENDERED}')[nth];
    img.scrollIntoView({{block: "center"}});
    await img.decode();
    const box = img.getBoundingClientRect();
    const text = decodeURIComponent(img.getAttribute("src").slice("data:image/svg+xml,".length));
    const parsed = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    if (parsed.nodeName !== "svg") return {{error: "the image is not an SVG: " + parsed.nodeName}};
    const host = document.createElement("div");
    host.style.cssText = "all: initial; position: absolute; left: 0; top: 0; opacity: 0; pointer-events: none;";
    const svg = document.importNode(parsed, true);
    svg.removeAttribute("style");  // mermaid's max-width; the copy gets the image's drawn size instead
    svg.setAttribute("width", String(box.width));
    svg.setAttribute("height", String(box.height));
    host.appendChild(svg);
    document.body.appendChild(host);
    try {{
        const viewBox = svg.viewBox.baseVal;
        const labels = [];
        const walker = document.createTreeWalker(svg, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {{
            const words = node.textContent.replace(/\\s+/g, " ").trim();
            const element = node.parentElement;
            if (!words || !element || element.closest("style, title, desc, script")) continue;
            const style = getComputedStyle(element);
            if (style.display === "none" || style.visibility === "hidden" || element.getClientRects().length === 0) continue;
            const anchor = element instanceof SVGGraphicsElement ? element : element.closest("foreignObject");
            if (!anchor) continue;
            const m = anchor.getScreenCTM();
            const scale = Math.hypot(m.a, m.b);
            const rect = element.getBoundingClientRect();
            labels.push({{text: words, fontPx: parseFloat(style.fontSize) * scale, top: rect.top, left: rect.left}});
        }}
        return {{width: box.width, viewBoxWidth: viewBox ? viewBox.width : null,
                 scale: viewBox && viewBox.width ? box.width / viewBox.width : null, labels}};
    }} finally {{
        host.remove();
    }}
}}"""


@dataclass(frozen=True)
class Measured:
    """One diagram as drawn: where it is, its first label (reading order), its scale and smallest label (CSS px)."""

    cell: DiagramCell
    nth: int
    first_label: str
    labels: int
    scale: float
    width_px: float
    min_px: float
    smallest: str


_RESULTS: list[Measured] = []


@pytest.fixture(scope="module")
def lab_with_outputs(jupyterlab):
    """A folder for the module on the test process's JupyterLab, holding the notebooks *with* their committed outputs."""
    with jupyterlab.folder(_copy_with_outputs) as lab:
        yield lab


@pytest.fixture(scope="module")
def lab_page(lab_with_outputs):
    """One 1280 x 900 page on JupyterLab's default layout (file browser open); prints the table at the end."""
    _require_browser()
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport=WINDOW)
            page.set_default_timeout(60_000)
            page.goto(f"{lab_with_outputs.base}/lab?reset&token={TOKEN}", timeout=READY_TIMEOUT_MS)
            page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell", timeout=READY_TIMEOUT_MS)
            page.evaluate("() => window.jupyterapp.restored")
            expect(page.locator(".jp-FileBrowser")).to_be_visible(timeout=READY_TIMEOUT_MS)
            yield lab_with_outputs, page
        finally:
            browser.close()
    _print_table(_RESULTS)


def _print_table(results: list[Measured]) -> None:
    if not results:
        return
    print(f"\nmermaid label sizes at {WINDOW['width']} px, file browser open (smallest label font size, CSS px):")
    print(f"{'notebook':<44} {'cell':>4} {'#':>2} {'labels':>6} {'scale':>5} {'width':>6} {'min px':>6}  "
          "first label / smallest label")
    for r in results:
        print(f"{r.cell.notebook:<44} {r.cell.cell:>4} {r.nth + 1:>2} {r.labels:>6} {r.scale:>5.2f} {r.width_px:>6.0f} "
              f"{r.min_px:>6.2f}  {r.first_label[:24]!r} / {r.smallest[:24]!r}")


@contextlib.contextmanager
def _opened(page, lab: LabFolder, name: str):
    """Open ``notebooks/<name>`` in the page (not run) and yield once it is ready; close it and its kernel after."""
    path = lab.notebook(name)
    page.evaluate("async (path) => { await window.jupyterapp.commands.execute("
                  "'docmanager:open', {path, factory: 'Notebook'}); }", path)
    page.wait_for_function(_NOTEBOOK_READY, arg=path, timeout=READY_TIMEOUT_MS)
    try:
        yield path
    finally:
        page.evaluate("""(path) => { for (const w of [...window.jupyterapp.shell.widgets("main")])
                                         if (w.context && w.context.path === path) w.dispose(); }""", path)
        for session in _api(lab.base, "GET", "/api/sessions") or []:  # the kernel JupyterLab started on open
            if session.get("path") == path:
                _api(lab.base, "DELETE", f"/api/sessions/{session['id']}")


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_mermaid_label_reads_at_1280px(lab_page, name, tmp_path):
    """Each diagram of the notebook is drawn, and its smallest label is at least MIN_LABEL_PX CSS px."""
    lab, page = lab_page
    cells = _diagram_cells(ROOT / "notebooks" / name)
    too_small, errors = [], []
    with _opened(page, lab, name) as path:
        for cell in cells:
            page.wait_for_function(_CELL_DRAWN, arg=[path, cell.cell, cell.diagrams], timeout=READY_TIMEOUT_MS)
            for nth in range(cell.diagrams):
                m = page.evaluate(_MEASURE, [path, cell.cell, nth])
                if m.get("error") or not m["labels"] or not m["scale"]:
                    errors.append(f"{name} cell {cell.cell} diagram {nth + 1}: nothing to measure ({m.get('error')})")
                    continue
                smallest = min(m["labels"], key=lambda label: label["fontPx"])
                first = min(m["labels"], key=lambda label: (round(label["top"]), label["left"]))  # reading order
                result = Measured(cell, nth, first["text"], len(m["labels"]), m["scale"], m["width"],
                                  smallest["fontPx"], smallest["text"])
                _RESULTS.append(result)
                image = page.locator(f".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell >> nth={cell.cell}").locator(
                    f".jp-RenderedMermaid {_RENDERED}").nth(nth)
                shot = tmp_path / f"{name}-cell{cell.cell}-{nth + 1}.png"
                image.screenshot(path=str(shot))  # as drawn, for a human to look at
                if result.min_px < MIN_LABEL_PX:
                    too_small.append(
                        f"{name} cell {cell.cell} ({cell.where}) diagram {nth + 1}, first label "
                        f"{result.first_label!r}: smallest label {result.smallest!r} renders at "
                        f"{result.min_px:.2f} px (< {MIN_LABEL_PX} px; scale {result.scale:.2f}, "
                        f"drawn {result.width_px:.0f} px wide); screenshot {shot}")
    assert not errors, "\n".join(errors)
    assert not too_small, "labels below the readable size at 1280 px:\n" + "\n".join(too_small)
