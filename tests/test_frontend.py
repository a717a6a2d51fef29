"""The kit's page front end (frontend/, built into the "rummy" template's
static/kit.js, kit.css and kit-math.js): the committed files are what its sources build to,
and its kernel connection frames messages as Jupyter's server reads and writes
them.  Needs Node.js and the packages of package-lock.json (``npm ci``, which
``make unit`` and ``make test`` run first)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from jupyter_server.services.kernels.connection.base import (
    deserialize_binary_message,
    serialize_binary_message,
)

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "share" / "jupyter" / "voila" / "templates" / "rummy" / "static"
KERNEL_JS = ROOT / "frontend" / "src" / "kernel.js"


def node(*args: str, stdin: bytes = b"") -> bytes:
    """What Node.js prints, run with ``args`` in the checkout."""
    exe = shutil.which("node")
    assert exe, "Node.js is missing: `make unit` installs it with the test tools (npm ci)"
    done = subprocess.run([exe, *args], input=stdin, capture_output=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout


def run_js(script: str, stdin: bytes = b"") -> bytes:
    """What the ES module ``script`` prints."""
    return node("--input-type=module", "-e", script, stdin=stdin)


def test_the_committed_front_end_is_what_its_sources_build_to(tmp_path: Path) -> None:
    assert (ROOT / "node_modules" / "esbuild").is_dir(), \
        "esbuild is missing: run `npm ci` (make unit does)"
    node("frontend/build.mjs", str(tmp_path))
    built_names = sorted(p.name for p in tmp_path.iterdir())
    assert built_names == ["kit-math.js", "kit.css", "kit.js"], built_names
    for name in built_names:
        built = (tmp_path / name).read_bytes()
        assert built == (STATIC / name).read_bytes(), \
            f"{name} is out of date with frontend/src: run `make frontend` and commit it"


MESSAGE = {
    "header": {"msg_id": "m1", "msg_type": "comm_msg", "username": "", "session": "s",
               "date": "2026-12-04T00:00:00Z", "version": "5.3"},
    "parent_header": {}, "metadata": {}, "channel": "shell",
    "content": {"comm_id": "c1", "data": {"method": "update", "state": {"value": "♣ 7"},
                                          "buffer_paths": [["value"], ["other"]]}},
}


def test_a_message_with_buffers_from_the_page_is_read_by_the_server() -> None:
    script = (f"import {{encodeBinary}} from {json.dumps(KERNEL_JS.as_uri())};\n"
              f"const msg = {json.dumps(MESSAGE)};\n"
              "const frame = encodeBinary(msg, [new Uint8Array([1, 2, 3]), "
              "new DataView(new Uint8Array([9, 8, 7, 6, 5]).buffer, 1, 3)]);\n"
              "process.stdout.write(Buffer.from(frame));\n")
    msg = deserialize_binary_message(run_js(script))
    assert [bytes(b) for b in msg.pop("buffers")] == [b"\x01\x02\x03", b"\x08\x07\x06"]
    # the server reads the header's date as a datetime
    assert msg["header"].pop("date").isoformat().startswith("2026-12-04T00:00:00")
    assert msg == {**MESSAGE, "header": {k: v for k, v in MESSAGE["header"].items() if k != "date"}}


@pytest.mark.parametrize("buffers", [[b"\x00\xff", b"", b"abc"], []])
def test_a_message_with_buffers_from_the_server_is_read_by_the_page(buffers: list[bytes]) -> None:
    frame = serialize_binary_message({**MESSAGE, "channel": "iopub", "buffers": buffers})
    script = (f"import {{decodeBinary}} from {json.dumps(KERNEL_JS.as_uri())};\n"
              "const chunks = []; for await (const c of process.stdin) chunks.push(c);\n"
              "const all = Buffer.concat(chunks);\n"
              "const msg = decodeBinary(all.buffer.slice(all.byteOffset, all.byteOffset + all.length));\n"
              "msg.buffers = msg.buffers.map((b) => Array.from(new Uint8Array(b.buffer, b.byteOffset, b.byteLength)));\n"
              "process.stdout.write(JSON.stringify(msg));\n")
    msg = json.loads(run_js(script, frame))
    assert msg.pop("buffers") == [list(b) for b in buffers]
    assert msg == {**MESSAGE, "channel": "iopub"}


LOST_JS = ROOT / "frontend" / "src" / "lost.js"


@pytest.mark.parametrize(("present", "want", "not_want"), [
    # an app whose game is kept after every move: a reload offers it back
    ([".rummy-game-keeper", ".rummy-game-save-out [data-save]"],
     "reload the page and press \u201cContinue this game\u201d", "start"),
    # an app with no unfinished game kept (no move made yet, or the game ended)
    ([".rummy-game-keeper"], "no unfinished game of yours to keep", "Continue"),
    # a lesson page, or an app with no table to keep: nothing of it is kept
    ([], "What was on this page is not kept: reload it to start it again from the top",
     "Continue"),
])
def test_the_lost_kernel_notice_says_what_a_reload_does(present: list[str], want: str,
                                                        not_want: str) -> None:
    script = (f"import {{lostWords}} from {json.dumps(LOST_JS.as_uri())};\n"
              f"const present = new Set({json.dumps(present)});\n"
              "const doc = {querySelector: (sel) => (present.has(sel) ? {} : null)};\n"
              "process.stdout.write(lostWords(doc));\n")
    words = run_js(script).decode()
    assert want in words and not_want not in words, words
    assert "lost its connection" in words
