"""MkDocs hook (mkdocs.yml `hooks:`): the site shows the repository's other Markdown files too.

The pages live in docs/, but the README is the front door and the binding READMEs hold the
property tables their tests generate. So the site gets
README.md as its home page (index.md) and every other Markdown file outside docs/ under repo/
(cassandra4-binding/README.md -> repo/cassandra4-binding/README.md), and each page's relative
links, written between the repository's real files so that they work on GitHub too, are
rewritten into links between the site's pages. A link to a file that is not part of the site
(a script, a source file) is left as it is, and `mkdocs build --strict` fails on it.
"""

from __future__ import annotations

import os
import posixpath
import re
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
DOCS = "docs"
# never pages: build output, local servers and results, the venv, version control
SKIP_DIRS = {"target", "run", "results", "site", "node_modules", "__pycache__"}
LINK = re.compile(r"(\]\()([^)\s]+)(\))")


def outside_pages() -> list[str]:
    """Repository paths (posix) of the Markdown files outside docs/."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        rel = Path(folder).relative_to(ROOT)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS
                         and not (rel == Path(".") and d == DOCS))
        found += [(rel / f).as_posix() for f in sorted(files) if f.endswith(".md")]
    return found


def site_path(repo_path: str, pages: set[str]) -> str | None:
    """Where a repository file is in the site's docs namespace, or None if it is not there."""
    if repo_path.startswith(DOCS + "/"):
        return repo_path[len(DOCS) + 1:]
    if repo_path == "README.md":
        return "index.md"
    if repo_path in pages:
        return "repo/" + repo_path
    return None


def on_files(files, config):
    for repo_path in outside_pages():
        uri = site_path(repo_path, {repo_path})
        files.append(File.generated(config, uri, abs_src_path=str(ROOT / repo_path)))
    return files


def _rewrite(markdown: str, page_repo_path: str, page_uri: str, pages: set[str]) -> str:
    def one(m: re.Match) -> str:
        target = m.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
            return m.group(0)
        path, _, anchor = target.partition("#")
        real = posixpath.normpath(posixpath.join(posixpath.dirname(page_repo_path), path))
        uri = site_path(real, pages)
        if uri is None or not (ROOT / real).exists():
            return m.group(0)
        new = posixpath.relpath(uri, posixpath.dirname(page_uri) or ".")
        return m.group(1) + new + ("#" + anchor if anchor else "") + m.group(3)

    out, fenced = [], False
    for line in markdown.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        out.append(line if fenced else LINK.sub(one, line))
    return "\n".join(out)


def on_page_markdown(markdown, page, config, files):
    repo_path = Path(page.file.abs_src_path).resolve().relative_to(ROOT).as_posix()
    pages = set(outside_pages())
    return _rewrite(markdown, repo_path, page.file.src_uri, pages)
