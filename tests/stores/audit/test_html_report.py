"""`cupcake audit report -o FILE.html` through the installed executable, opened in a real headless
browser (Debian's chromium): the page loads nothing from anywhere, shows its content in the DOM, and
its screenshot is a real picture of the charts."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import time
import zlib
from pathlib import Path

import pytest

from tests.conftest import cupcake_executable

IN_CI = os.environ.get("CI", "").lower() == "true"
BLOCK_RGB = (0xD1, 0x49, 0x5B)  # the report's colour for "block"
HOSTILE_RULE = "<script>alert(1)</script><img src=http://example.invalid/x>"

POLICY = """
[settings]
audit_logging = true
audit_allows = true

[[policy]]
name = "no-force-push"
matcher = "Bash"
conditions = [{ type = "command_regex", value = "git push --force" }]
action = { type = "block_with_feedback", feedback_message = "Push without --force." }

[[policy]]
name = "scripts"
matcher = "Bash"
conditions = [{ type = "command_regex", value = "^sh " }]
action = { type = "provide_feedback", message = "Prefer make." }
"""


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if IN_CI:
            pytest.fail("CI=true: chromium is not installed (.ci/run installs Debian's chromium)", pytrace=False)
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return found


def browse(page: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """Debian's chromium, headless, with nothing of the network available to it."""
    command = [
        chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "--proxy-server=127.0.0.1:9",
        *args,
        page.as_uri(),
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def png_pixels(path: Path) -> tuple[int, int, list[tuple[int, int, int]]]:
    """(width, height, RGB pixels) of an 8-bit RGB or RGBA PNG, decoded with the standard library."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert header is not None
    width, height, depth, colour, *_ = header
    assert depth == 8 and colour in (2, 6), header
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, i = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1 : i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(line)
        previous = line
    pixels = [tuple(row[x : x + 3]) for row in rows for x in range(0, stride, channels)]
    return width, height, pixels  # type: ignore[return-value]


def _trail(project) -> None:
    """A real trail, written by `cupcake run` hook processes, plus a rule name that tries to be HTML."""
    project.write_policy(POLICY)
    for command in ("git push --force", "ls", "sh build.sh", "git status", "git push --force origin x"):
        project.send_process(project.tool_call("Bash", {"command": command}))
    log = project.root / ".cupcake" / "audit.log"
    record = json.loads(log.read_text().splitlines()[0])
    record.update(
        matched=[HOSTILE_RULE], policy=HOSTILE_RULE, agent="gemini", ms=1234.5, time="2026-01-01T00:00:00.000Z"
    )
    with log.open("a") as f:
        f.write(json.dumps(record) + "\n")


def test_the_page_is_self_contained_and_escapes_what_the_trail_holds(project, tmp_path):
    _trail(project)
    page = tmp_path / "report.html"
    done = subprocess.run(
        [cupcake_executable(), "audit", "report", "-o", str(page)],
        cwd=project.root,
        env=project.env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"Wrote {page}: 6 decisions from 1 project."
    html = page.read_text()
    tags, styles = _markup(html)
    assert not {"script", "img", "link", "iframe", "object", "embed", "image", "use", "a"} & {t for t, _a in tags}
    assert not [(t, a) for t, attrs in tags for a, _v in attrs if a in ("src", "href", "srcset", "xlink:href", "style")]
    assert styles and not any("url(" in css or "@import" in css or "@font-face" in css for css in styles)
    assert "default-src 'none'" in html  # and the browser is told to load nothing
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=http://example.invalid/x&gt;" in html


def _markup(html: str):
    """Every tag with its attributes, and the text of every <style>, as a browser's parser reads them."""
    from html.parser import HTMLParser

    class Reader(HTMLParser):
        def __init__(self):
            super().__init__()
            self.tags, self.styles, self.in_style = [], [], False

        def handle_starttag(self, tag, attrs):
            self.tags.append((tag, attrs))
            self.in_style = tag == "style"

        def handle_data(self, data):
            if self.in_style:
                self.styles.append(data)

        def handle_endtag(self, tag):
            self.in_style = False

    reader = Reader()
    reader.feed(html)
    return reader.tags, reader.styles


def test_a_real_browser_shows_the_content(project, tmp_path):
    _trail(project)
    page = tmp_path / "report.html"
    subprocess.run(
        [cupcake_executable(), "audit", "report", "-o", str(page)],
        cwd=project.root,
        env=project.env(),
        check=True,
        timeout=60,
    )
    dom = browse(page, tmp_path, "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    for heading in ("Decisions over time", "Top rules", "Per agent", "Per project", "Slowest hooks"):
        assert f"<h2>{heading}</h2>" in dom.stdout
    assert "no-force-push" in dom.stdout and str(project.root) in dom.stdout
    assert "<title>2026-01-01 00:00: 1 block</title>" in dom.stdout  # the hostile record's bar, and no alert
    assert "alert(1)" in dom.stdout and "<script>" not in dom.stdout.split("<body>", 1)[1]

    shot = tmp_path / "report.png"
    started = time.monotonic()
    done = browse(page, tmp_path, f"--screenshot={shot}", "--window-size=1200,1600", "--hide-scrollbars")
    assert done.returncode == 0 and shot.stat().st_size > 10_000, done.stderr[-2000:]
    width, height, pixels = png_pixels(shot)
    assert (width, height) == (1200, 1600)
    white = sum(1 for p in pixels if p == (255, 255, 255))
    assert white < 0.97 * len(pixels), "the screenshot is (almost) blank"
    block = sum(1 for p in pixels if all(abs(a - b) <= 6 for a, b in zip(p, BLOCK_RGB)))
    assert block > 500, f"the charts' block colour is missing ({block} pixels)"
    assert len(set(pixels[::97])) > 20, "the screenshot has too few colours to be the report"
    assert time.monotonic() - started < 60
