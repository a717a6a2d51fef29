"""The README's Binder badges: made from one setting, well formed, opening notebooks that exist."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import binder_links  # noqa: E402

BADGE_RE = re.compile(r"\]\((https://mybinder\.org/v2/gh/[^)\s]+)\)")


def badges(text: str) -> list[str]:
    return BADGE_RE.findall(text)


def test_doctests() -> None:
    assert doctest.testmod(binder_links).failed == 0


def test_readme_badges_are_made_by_the_script() -> None:
    text = (ROOT / "README.md").read_text()
    urls = badges(text)
    assert len(urls) == len(binder_links.LINKS)
    repos = {"/".join(urlsplit(u).path.split("/")[3:5]) for u in urls}
    assert len(repos) == 1, repos
    (repo,) = repos
    # the setting wins; with no setting, the README may name the placeholder or origin
    setting = binder_links.repository(ROOT)
    if binder_links.tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
            "rummy-kit"]["repository"]:
        assert repo == setting, "README.md is out of date: run make binder-links"
    else:
        assert repo in {binder_links.PLACEHOLDER, setting}
    assert binder_links.rewrite(text, repo) == text, "run make binder-links"


@pytest.mark.parametrize("url", badges((ROOT / "README.md").read_text()))
def test_badge_is_well_formed_and_opens_an_existing_notebook(url: str) -> None:
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc) == ("https", "mybinder.org")
    _, v2, gh, owner, name, ref = parts.path.split("/")
    assert (v2, gh, ref) == ("v2", "gh", "HEAD")
    assert binder_links.REPO_RE.match(f"{owner}/{name}")
    query = parse_qs(parts.query, strict_parsing=True)
    assert len(query) == 1 and set(query) <= {"labpath", "urlpath"}, query
    ((key, (value,)),) = query.items()
    path = unquote(value)
    if key == "urlpath":
        assert path.startswith("voila/render/"), path
        path = path.removeprefix("voila/render/")
    assert path.endswith(".ipynb") and (ROOT / path).is_file(), f"{url} opens {path}: missing"


def _project(tmp_path: Path, setting: str) -> Path:
    tmp_path.mkdir()
    (tmp_path / "pyproject.toml").write_text(
        f'[project]\nname = "x"\n\n[tool.rummy-kit]\nrepository = "{setting}"\n')
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    return tmp_path


def test_repository_comes_from_the_setting_then_origin(tmp_path: Path) -> None:
    assert binder_links.repository(_project(tmp_path / "a", "ana/rummy-kit")) == "ana/rummy-kit"
    plain = _project(tmp_path / "b", "")
    assert binder_links.repository(plain) == binder_links.PLACEHOLDER
    subprocess.run(["git", "-C", str(plain), "remote", "add", "origin",
                    "git@github.com:bo/kit.git"], check=True)
    assert binder_links.repository(plain) == "bo/kit"
    with pytest.raises(SystemExit, match="owner/name"):
        binder_links.repository(_project(tmp_path / "c", "not a repo"))


def test_section_names_the_repository_everywhere() -> None:
    text = binder_links.section("ana/rummy-kit")
    assert len(badges(text)) == len(binder_links.LINKS)
    assert all("/gh/ana/rummy-kit/HEAD?" in u for u in badges(text))
    assert binder_links.PLACEHOLDER not in text


def test_play_in_your_browser_link_comes_from_the_same_setting() -> None:
    text = (ROOT / "README.md").read_text()
    (repo,) = {"/".join(urlsplit(u).path.split("/")[3:5]) for u in badges(text)}
    owner, name = repo.split("/")
    links = re.findall(r"\[Play in your browser\]\((https://[^)\s]+)\)", text)
    assert links == [f"https://{owner.lower()}.github.io/{name}/"], links
    section = text.split(binder_links.START)[1].split(binder_links.END)[0]
    assert links[0] in section, "the link is written by make binder-links"
