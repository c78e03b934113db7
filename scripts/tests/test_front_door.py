"""A newcomer's first look: the README is a front door (short, the two commands on top, exactly as
CI and the quick start run them) and no relative link in the README or docs/ leads nowhere.

Anchors are checked as both GitHub and MkDocs name a heading, so a link works on either; the
docs site itself is also built with `mkdocs build --strict` by scripts/test.
"""

import re
import unicodedata
from pathlib import Path

import pytest
from ycsbpack.core.paths import REPO_ROOT

README = REPO_ROOT / "README.md"
FENCE = re.compile(r"^\s*(```|~~~)")
# [text](target) and ![alt](target); the target ends at whitespace or the closing parenthesis
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE_SPAN = re.compile(r"`[^`]*`")


def prose_lines(text: str):
    """(line number, line) outside fenced code blocks."""
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield n, line


def code_lines(text: str) -> list[str]:
    """The lines inside fenced code blocks."""
    fenced, out = False, []
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif fenced:
            out.append(line)
    return out


def command(line: str) -> str:
    """A shell line without its comment and surrounding blanks."""
    return line.split(" #", 1)[0].strip()


def heading_texts(path: Path) -> list[str]:
    """The headings of a Markdown file as plain text (code marks, emphasis, link targets gone)."""
    out = []
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if m:
            text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(2))
            out.append(text.replace("`", "").replace("*", ""))
    return out


def github_slug(text: str) -> str:
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def mkdocs_slug(text: str) -> str:
    # Python-Markdown's toc.slugify, which MkDocs uses
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(path: Path, slug) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for text in heading_texts(path):
        s = slug(text)
        if s in seen:
            seen[s] += 1
            continue  # a duplicate heading's anchor differs between the two: never link to one
        seen[s] = 0
        out.add(s)
    return out


def markdown_files() -> list[Path]:
    return [README] + sorted((REPO_ROOT / "docs").rglob("*.md"))


def relative_links(path: Path):
    for n, line in prose_lines(path.read_text(encoding="utf-8")):
        for target in LINK.findall(CODE_SPAN.sub("", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
                continue
            yield n, target


def test_the_readme_is_at_most_150_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines: move detail to a page of docs/"


def test_the_two_commands_open_the_readme_as_ci_and_the_quick_start_run_them():
    ci = (REPO_ROOT / ".ci/run").read_text(encoding="utf-8")
    ci_test = re.search(r"^exec (\S+)\s*$", ci, re.M)
    assert ci_test, ".ci/run ends by exec-ing the test command"
    quick = (REPO_ROOT / "docs/quickstart.md").read_text(encoding="utf-8")
    quick_cmds = [command(line) for line in code_lines(quick)]
    assert "scripts/quickstart" in quick_cmds, "the quick start page runs scripts/quickstart"
    assert ci_test.group(1) in quick_cmds, "the quick start page runs the test command as CI"
    first40 = "\n".join(README.read_text(encoding="utf-8").splitlines()[:40])
    readme_cmds = [command(line) for line in code_lines(first40)]
    for cmd in ("scripts/quickstart", ci_test.group(1)):
        assert cmd in readme_cmds, f"`{cmd}` is a command line of the README's first 40 lines"


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_every_relative_link_resolves(path):
    broken = []
    for n, target in relative_links(path):
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.exists():
            broken.append(f"line {n}: {target}: no such file")
            continue
        if anchor and dest.suffix == ".md":
            gh, mk = anchors(dest, github_slug), anchors(dest, mkdocs_slug)
            if anchor not in gh or anchor not in mk:
                broken.append(f"line {n}: {target}: no heading with that anchor on GitHub "
                              f"({anchor in gh}) and MkDocs ({anchor in mk})")
    assert not broken, f"{path}:\n" + "\n".join(broken)


def test_slugs_follow_github_and_mkdocs():
    heading = "Client fleet: YCSB clients on several loader hosts (Ray)"
    assert github_slug(heading) == "client-fleet-ycsb-clients-on-several-loader-hosts-ray"
    assert mkdocs_slug(heading) == github_slug(heading)
    assert github_slug("S1 – S4") == "s1--s4" and mkdocs_slug("S1 – S4") == "s1-s4"
