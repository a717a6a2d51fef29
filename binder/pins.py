"""Write binder/requirements.txt: the kit's runtime dependencies pinned to this environment.

The roots are the kit's own dependencies and its ``widgets`` extra (see
pyproject.toml); every package they pull in (on Linux, CPython 3.11) is pinned
to the version installed here, so Binder runs what the tests ran.

    .venv/bin/python binder/pins.py            # rewrite binder/requirements.txt
    .venv/bin/python binder/pins.py --check    # exit 1 if it is out of date
"""

from __future__ import annotations

import sys
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOTS = ("pandas", "sympy", "ipywidgets", "ipykernel", "matplotlib", "voila")
TARGET = Path(__file__).with_name("requirements.txt")
HEADER = """\
# Binder environment of the Rummy teaching kit: the kit's runtime dependencies
# (pandas, sympy, ipywidgets, ipykernel, matplotlib, voila and what they pull in),
# pinned to the versions the tests ran with. Regenerate: python binder/pins.py
"""
#: The platform Binder builds on (repo2docker: Linux, CPython, binder/runtime.txt).
MARKER_ENV = {
    "python_version": "3.11",
    "python_full_version": "3.11.0",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "os_name": "posix",
}


def pins(roots: tuple[str, ...] = ROOTS) -> list[str]:
    """``name==version`` for every package the roots need, sorted by name."""
    seen: dict[str, str] = {}
    stack: list[tuple[str, tuple[str, ...]]] = [(r, ()) for r in roots]
    while stack:
        name, extras = stack.pop()
        key = canonicalize_name(name)
        if key in seen:
            continue
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            raise SystemExit(f"{name} is needed but not installed in {sys.prefix}") from None
        seen[key] = f"{dist.metadata['Name']}=={dist.version}"
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker and not any(
                req.marker.evaluate({**MARKER_ENV, "extra": e}) for e in (extras or ("",))
            ):
                continue
            stack.append((req.name, tuple(req.extras)))
    return [seen[k] for k in sorted(seen)]


def main(argv: list[str]) -> int:
    text = HEADER + "".join(p + "\n" for p in pins())
    if "--check" in argv:
        if TARGET.read_text() != text:
            print(f"{TARGET} is out of date: run python binder/pins.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text)
    print(f"wrote {TARGET} ({text.count('==')} pins)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
