"""Root-confined reading and the one walk of a folder per command (``docgen.io.files``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docgen import config
from docgen.errors import PageError
from docgen.io import files


@pytest.fixture
def project(tmp_path: Path) -> config.Project:
    root = tmp_path / "proj"
    root.mkdir()
    return config.Project(root.resolve(), config.Config())


def write(project: config.Project, relative: str, data: str | bytes = "x\n") -> Path:
    path = project.root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


# -- inside the root -------------------------------------------------------------------------


def test_inside_means_the_real_path_lies_under_the_root(project, tmp_path):
    evil = tmp_path / "proj-evil"  # starts with the root's name, but is beside it
    evil.mkdir()
    (project.root / "out").symlink_to(evil, target_is_directory=True)
    (project.root / "in").symlink_to("docs", target_is_directory=True)
    (project.root / "docs").mkdir()
    (project.root / "leak.mdx").symlink_to(evil / "x.mdx")
    inside = files.Inside(project.root)
    assert inside.contains(str(project.root))
    assert inside.contains(str(project.root / "docs/new.mdx"))
    assert inside.contains(str(project.root / "in/new.mdx"))
    assert not inside.contains(str(project.root / "out/new.mdx"))
    assert not inside.contains(str(project.root / "leak.mdx"))
    assert not inside.contains(str(evil / "x.mdx"))
    assert inside.real(str(project.root / "in/a.mdx"), link=False) == str(
        project.root / "docs/a.mdx"
    )


def test_only_regular_files_inside_the_root_are_readable(project, tmp_path):
    page = write(project, "docs/a.mdx")
    outside = tmp_path / "secret.mdx"
    outside.write_text("secret\n", "utf-8")
    (project.root / "docs/out.mdx").symlink_to(outside)
    (project.root / "docs/in.mdx").symlink_to("a.mdx")
    (project.root / "docs/zero.mdx").symlink_to("/dev/zero")
    os.mkfifo(project.root / "docs/pipe.mdx")
    inside = files.Inside(project.root)
    assert files.readable(page, inside) == str(page)
    assert files.readable(project.root / "docs/in.mdx", inside) == str(page)
    assert files.readable(project.root / "docs/out.mdx", inside) is None
    unconfined = files.readable(project.root / "docs/out.mdx", None)  # read through the link
    assert unconfined == str(project.root / "docs/out.mdx")
    assert files.readable(project.root / "docs/zero.mdx", None) is None
    assert files.readable(project.root / "docs/pipe.mdx", inside) is None
    assert files.readable(project.root / "docs/missing.mdx", inside) is None


def test_reads_say_none_where_there_is_no_file(project):
    page = write(project, "docs/a.mdx", "0123456789")
    assert files.read_bytes(page) == b"0123456789"
    assert files.read_head(page, 4) == b"0123"
    assert files.read_bytes(project.root / "docs") is None
    assert files.read_bytes(project.root / "docs/missing.mdx") is None
    assert files.read_bytes(page / "below") is None
    assert files.read_head(project.root / "docs/missing.mdx", 4) is None


def test_invalid_utf8_in_a_page_is_located(project):
    page = write(project, "docs/p.mdx", b"fine\nbroken \xff here\n")
    assert files.read_page(project, write(project, "docs/ok.mdx", "\u00e9\n"))[0] == "\u00e9\n"
    with pytest.raises(PageError) as info:
        files.read_page(project, page)
    assert str(info.value) == "docs/p.mdx:2:8: error: invalid UTF-8 byte 0xff in the page"


# -- one walk ------------------------------------------------------------------------------


def test_a_walk_lists_each_folder_sorted_before_the_folders_below_it(project, tmp_path):
    for name in ("docs/b.mdx", "docs/a/z.mdx", "docs/a/b/y.mdx", "docs/c/x.md", "docs/a.png"):
        write(project, name)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "hidden.mdx").write_text("x\n", "utf-8")
    (project.root / "docs/linked").symlink_to(outside, target_is_directory=True)
    (project.root / "docs/link.mdx").symlink_to("b.mdx")
    os.mkfifo(project.root / "docs/pipe.mdx")
    listed = files.listing(project, "docs")
    assert listed.folder == project.root / "docs" and listed.inside
    assert [(f.rel, f.kind) for f in listed.files] == [
        ("docs/a.png", files.FILE),
        ("docs/b.mdx", files.FILE),
        ("docs/link.mdx", files.LINK),
        ("docs/pipe.mdx", files.OTHER),
        ("docs/a/z.mdx", files.FILE),
        ("docs/a/b/y.mdx", files.FILE),
        ("docs/c/x.md", files.FILE),
    ]
    assert [f.path for f in listed.files][1] == str(project.root / "docs/b.mdx")
    assert files.listing(project, "missing").files == ()


def test_a_folder_is_walked_once_per_project_until_files_are_written(project, monkeypatch):
    write(project, "docs/a.mdx")
    walked: list[str] = []
    walk = files._walk
    monkeypatch.setattr(files, "_walk", lambda p, top: walked.append(top) or walk(p, top))
    first = files.listing(project, "docs")
    write(project, "docs/b.mdx")
    assert files.listing(project, "docs") is first  # this command's view of the tree
    assert len(walked) == 1
    files.forget(project)
    assert [f.rel for f in files.listing(project, "docs").files] == ["docs/a.mdx", "docs/b.mdx"]
    again = config.Project(project.root, project.config)  # the next command's project
    assert files.listing(again, "docs") is not first
    assert len(walked) == 3


def test_pages_are_the_mdx_files_outside_the_variants_folder(project):
    for name in (
        "docs/a.mdx",
        "docs/b.md",
        "docs/_build/agent-variants/a.x.mdx",
        "docs/_build/c.mdx",
    ):
        write(project, name)
    assert [f.rel for f in files.pages(project)] == ["docs/a.mdx", "docs/_build/c.mdx"]


def test_a_docs_folder_that_leads_outside_the_root_has_no_pages(project, tmp_path):
    outside = tmp_path / "site"
    outside.mkdir()
    (outside / "page.mdx").write_text("x\n", "utf-8")
    (project.root / "docs").symlink_to(outside, target_is_directory=True)
    assert not files.listing(project, "docs").inside
    assert files.listing(project, "docs").files == ()  # not even its names are read
    assert files.pages(project) == []


@pytest.mark.parametrize(
    ("text", "crlf"),
    [
        ("a\r\nb\r\n", True),
        ("a\r\nb", True),
        ("a\r\nb\n", False),  # mixed: not every line ends with CRLF
        ("a\nb\r\n", False),
        ("a\nb\n", False),
        ("no line end", False),
    ],
)
def test_a_page_is_written_back_with_crlf_only_when_every_line_had_it(text, crlf):
    from docgen.io.files import all_crlf

    assert all_crlf(text) is crlf


LINES = st.lists(st.text(st.sampled_from("ab #\r\t"), max_size=4), min_size=1, max_size=12)


@given(LINES, st.lists(st.booleans(), min_size=12, max_size=12), st.booleans())
def test_a_page_is_written_back_with_the_line_ends_it_was_read_with(lines, crlf, bom):
    """Whatever mix of CRLF and LF a file holds, its text written back unchanged is the
    file again, byte for byte."""
    raw = (
        "".join(line + ("\r\n" if end else "\n") for line, end in zip(lines, crlf, strict=False))
        + "z"
    )
    text = raw.replace("\r\n", "\n")
    assert files.form_of(raw, bom).written(text) == ("\ufeff" if bom else "") + raw


def test_lines_a_region_adds_to_a_mixed_file_end_as_its_begin_marker():
    raw = "a\r\n# docgen:begin p\r\nold\n# docgen:end\nz\r\n"
    form = files.form_of(raw, False)
    assert form.written("a\n# docgen:begin p\nnew 1\nnew 2\n# docgen:end\nz\n") == (
        "a\r\n# docgen:begin p\r\nnew 1\r\nnew 2\r\n# docgen:end\nz\r\n"
    )
    assert files.form_of("a\r\nb\r\n", False).written("a\nx\nb\n") == "a\r\nx\r\nb\r\n"
    assert files.form_of("a\nb\n", False).written("a\nx\nb\n") == "a\nx\nb\n"
    # no region, as many CRLF ends as LF ends: LF, the default, wins the tie
    assert files.form_of("a\r\nb\nc", False).written("x\ny\nz\nw") == "x\ny\nz\nw"


def test_lines_outside_the_regions_keep_their_ends_where_their_text_repeats():
    """Matched by text (difflib), a line outside the region could pair with a like line
    inside it and take another's end, and repeated lines made it quadratic."""
    raw = "a\na\r\n{/* docgen:begin p */}\nb\n{/* docgen:end */}\na\r\nb\n" + "#\r\n#\n" * 20_000
    new = raw.replace("\r\n", "\n").replace("\nb\n{/* docgen:end", "\na\na\nb\n{/* docgen:end", 1)
    out = files.form_of(raw, False).written(new)
    assert out.startswith("a\na\r\n{/* docgen:begin p */}\na\na\nb\n{/* docgen:end */}\na\r\nb\n")
    assert out.endswith("#\r\n#\n" * 20_000)


def test_a_mixed_file_without_regions_ends_its_lines_as_most_of_it_did():
    form = files.form_of("a\r\nb\r\nc\n", False)
    assert form.written("a\nb\nc\nd\n") == "a\r\nb\r\nc\r\nd\r\n"
