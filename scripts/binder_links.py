"""Write the Binder badges of the README, and its "play in your browser" link to the static
site on GitHub Pages, from one setting: where the kit is published.

The repository is ``[tool.rummy-kit] repository = "owner/name"`` in pyproject.toml;
when that is empty, the ``origin`` remote if it is a GitHub repository; otherwise the
badges say ``OWNER/NAME`` and the README tells what to set.  The section between
``<!-- binder-links:start -->`` and ``<!-- binder-links:end -->`` is rewritten.

    .venv/bin/python scripts/binder_links.py           # rewrite the README section
    .venv/bin/python scripts/binder_links.py --check   # exit 1 if it is out of date

>>> badge_url("ana/rummy", "lab", "notebooks/00_start_here.ipynb")
'https://mybinder.org/v2/gh/ana/rummy/HEAD?labpath=notebooks%2F00_start_here.ipynb'
>>> badge_url("ana/rummy", "voila", "notebooks/apps/index.ipynb")
'https://mybinder.org/v2/gh/ana/rummy/HEAD?urlpath=voila%2Frender%2Fnotebooks%2Fapps%2Findex.ipynb'
>>> pages_url("ana/rummy-kit"), pages_url("ana/ana.github.io")
('https://ana.github.io/rummy-kit/', 'https://ana.github.io/')
>>> github_repository("git@github.com:ana/rummy-kit.git"), github_repository("https://github.com/ana/rummy")
('ana/rummy-kit', 'ana/rummy')
>>> github_repository("https://gitlab.com/ana/rummy") is None
True
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
START, END = "<!-- binder-links:start -->", "<!-- binder-links:end -->"
PLACEHOLDER = "OWNER/NAME"
#: ``owner/name`` as GitHub allows it.
REPO_RE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")

#: (badge label, how Binder opens it, notebook path, what the reader gets)
LINKS = (
    ("Start here in JupyterLab", "lab", "notebooks/00_start_here.ipynb",
     "the lessons, starting with *Start here*, in JupyterLab"),
    ("all apps", "voila", "notebooks/apps/index.ipynb", "the landing page of the apps, in Voilà"),
    ("Three Thirteen", "voila", "notebooks/apps/three_thirteen.ipynb",
     "Three Thirteen (and Tre-tretton, and with jokers)"),
    ("Big Table", "voila", "notebooks/apps/big_table.ipynb", "Big Table"),
    ("Gin for three", "voila", "notebooks/apps/gin_three.ipynb", "Gin for three"),
    ("Melds and odds", "voila", "notebooks/apps/meld_odds.ipynb", "Melds and odds"),
)


def github_repository(url: str) -> str | None:
    """``owner/name`` of a GitHub remote URL (https or ssh), else None."""
    m = re.match(r"^(?:https?://(?:[^@/]+@)?github\.com/|git@github\.com:|ssh://git@github\.com/)"
                 r"([^/]+/[^/]+?)(?:\.git)?/?$", url.strip())
    return m.group(1) if m and REPO_RE.match(m.group(1)) else None


def repository(root: Path = ROOT) -> str:
    """Where the kit is published: the pyproject setting, else GitHub ``origin``, else a
    placeholder.  A setting that is not ``owner/name`` is an error."""
    setting = tomllib.loads((root / "pyproject.toml").read_text()).get("tool", {}).get(
        "rummy-kit", {}).get("repository", "")
    if setting:
        if not REPO_RE.match(setting):
            raise SystemExit(f"[tool.rummy-kit] repository = {setting!r} in pyproject.toml is "
                             "not of the form 'owner/name' (a GitHub repository)")
        return str(setting)
    remote = subprocess.run(["git", "remote", "get-url", "origin"], cwd=root,
                            capture_output=True, text=True)
    found = github_repository(remote.stdout) if remote.returncode == 0 else None
    return found or PLACEHOLDER


def badge_url(repo: str, kind: str, path: str, ref: str = "HEAD") -> str:
    """The mybinder.org address that opens ``path`` of ``repo`` in JupyterLab or Voilà."""
    if kind == "lab":
        query = "labpath=" + quote(path, safe="")
    elif kind == "voila":
        query = "urlpath=" + quote(f"voila/render/{path}", safe="")
    else:
        raise ValueError(f"unknown kind {kind!r}: 'lab' or 'voila'")
    return f"https://mybinder.org/v2/gh/{repo}/{ref}?{query}"


def pages_url(repo: str) -> str:
    """Where GitHub Pages serves ``repo``'s static site (.github/workflows/site.yml
    publishes ``make site``'s build/site/ there)."""
    owner, name = repo.split("/")
    if name.lower() == f"{owner.lower()}.github.io":
        return f"https://{owner.lower()}.github.io/"
    return f"https://{owner.lower()}.github.io/{name}/"


def section(repo: str) -> str:
    """The README's "play in your browser" link and Binder badges for ``repo``,
    between the markers."""
    lines = [START]
    if repo == PLACEHOLDER:
        lines += ["", f"(`{PLACEHOLDER}` stands for the GitHub repository of the kit: set "
                      "`[tool.rummy-kit] repository` in pyproject.toml, or an `origin` remote, "
                      "and run `make binder-links`.)"]
    lines += ["", f"**[Play in your browser]({pages_url(repo)})**: the apps and the lessons as a "
                  "static site on GitHub Pages, Python running in the page (no server, nothing to "
                  "install; `make site` builds it, `.github/workflows/site.yml` publishes it)."]
    lines.append("")
    for label, kind, path, what in LINKS:
        lines.append(f"- [![Binder: {label}](https://mybinder.org/badge_logo.svg)]"
                     f"({badge_url(repo, kind, path)}) {what}")
    lines += ["", END]
    return "\n".join(lines)


def rewrite(text: str, repo: str) -> str:
    """``text`` (the README) with its Binder section made for ``repo``."""
    if START not in text or END not in text:
        raise SystemExit(f"README.md lacks the markers {START} and {END}")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return head + section(repo) + tail


def main(argv: list[str]) -> int:
    repo = repository()
    text = README.read_text()
    new = rewrite(text, repo)
    if "--check" in argv:
        if new != text:
            print("README.md's Binder badges are out of date: run make binder-links",
                  file=sys.stderr)
            return 1
        return 0
    README.write_text(new)
    print(f"README.md: Binder badges for {repo}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
