"""``docgen release-notes``: one release as plain Markdown for a release body, exactly."""

from __future__ import annotations

import pytest
from conftest import MINIMAL_REGISTRY

HEADER = (
    "{/*\n * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.\n"
    " * SPDX-License-Identifier: Apache-2.0\n */}\n"
)
ENTRY = (
    f"{HEADER}\n"
    "## v0.2.0\n\n"
    "Acme v0.2.0 adds a profile.\n\n"
    "- A new profile. {/* a comment\n   over two lines */}\n"
    "  For more information, refer to [Models](/guide/alpha/models).\n"
    "  See also [the FAQ](/guide/alpha/faq).\n\n"
    "## v0.1.0\n\n"
    "Acme v0.1.0 is the first release.\n"
)
NOTES_020 = (
    "## v0.2.0\n\n"
    "Acme v0.2.0 adds a profile.\n\n"
    "- A new profile.\n"
    "  For more information, refer to [Models]({base}/guide/alpha/models).\n"
    "  See also [the FAQ]({base}/guide/alpha/faq).\n"
)


@pytest.fixture
def released(make_project, run):
    project = make_project(files={"changelog/2026-02-01.mdx": ENTRY})
    project.write(
        "templates/faq.mdx.j2", '---\ntitle: "FAQ"\n---\n\nQuestions about {{ product.name }}.\n'
    )
    assert run(project, "build").exit_code == 0
    return project


@pytest.mark.parametrize("site_url", ["https://docs.example.com", "https://docs.example.com/"])
def test_links_get_the_site_url_and_comments_go(released, run, site_url):
    result = run(released, "release-notes", "v0.2.0", "--site-url", site_url)
    assert result.exit_code == 0, result.output
    assert result.stdout == NOTES_020.replace("{base}", "https://docs.example.com")
    assert result.stderr == ""


def test_without_a_site_url_links_stay_relative_with_a_warning(released, run):
    result = run(released, "release-notes", "v0.2.0")
    assert result.exit_code == 0
    assert result.stdout == NOTES_020.replace("{base}", "")
    assert result.stderr == (
        "release-notes: warning: neither product.site_url nor --site-url is set, so 2 "
        "root-absolute links, such as '/guide/alpha/models', stay relative\n"
    )
    quiet = run(released, "-q", "release-notes", "v0.2.0")
    assert quiet.stderr == ""


def test_a_site_url_of_only_a_slash_is_no_site_url(released, run):
    result = run(released, "release-notes", "v0.2.0", "--site-url", "/")
    assert result.stdout == NOTES_020.replace("{base}", "")
    assert "stay relative" in result.stderr


def test_one_relative_link_is_named(released, run):
    result = run(released, "release-notes", "v0.1.0")
    assert result.stdout == "## v0.1.0\n\nAcme v0.1.0 is the first release.\n"
    assert result.stderr == ""
    released.write(
        "changelog/2026-03-01.mdx",
        f"{HEADER}\n## v0.3.0\n\nAcme v0.3.0 links [once](/guide/alpha/models).\n",
    )
    result = run(released, "release-notes", "v0.3.0")
    assert result.stderr == (
        "release-notes: warning: neither product.site_url nor --site-url is set, so the "
        "root-absolute link '/guide/alpha/models' stays relative\n"
    )


def test_an_unknown_version_lists_the_known_ones(released, run, make_project, tmp_path):
    result = run(released, "release-notes", "v9.9.9")
    assert result.exit_code == 2
    assert result.stderr == (
        "release-notes: error: no release v9.9.9 in changelog/ (known: v0.1.0, v0.2.0)\n"
    )


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("vx", "malformed version 'vx'; expected vX.Y.Z, e.g. v0.0.102"),
        ("0.2", "malformed version '0.2'; expected vX.Y.Z, e.g. v0.0.102"),
        ("v01.2.0", "version 'v01.2.0' has a leading zero; write v1.2.0"),
        ("0.2.00", "version 'v0.2.00' has a leading zero; write v0.2.0"),
    ],
)
def test_a_malformed_version_is_said_so_as_changelog_says_it(released, run, asked, said):
    result = run(released, "release-notes", asked)
    assert (result.exit_code, result.stderr) == (2, f"release-notes: error: {said}\n")


def test_an_unknown_version_without_any_release(make_project, run):
    project = make_project(registry=MINIMAL_REGISTRY)
    result = run(project, "release-notes", "v0.1.0")
    assert result.exit_code == 2
    assert result.stderr == "release-notes: error: no release v0.1.0 in changelog/ (known: none)\n"


def test_a_link_to_another_host_keeps_its_address(make_project, run):
    """``//host/...`` is a host on the site's scheme, not a route: no site URL before it."""
    text = ENTRY.replace("(/guide/alpha/faq)", "(//cdn.example.org/bench.html)")
    project = make_project(files={"changelog/2026-02-01.mdx": text})
    assert run(project, "build").exit_code == 0
    result = run(project, "release-notes", "v0.2.0", "--site-url", "https://docs.example.com")
    assert result.exit_code == 0, result.output
    assert "  See also [the FAQ](//cdn.example.org/bench.html).\n" in result.stdout
    assert "[Models](https://docs.example.com/guide/alpha/models)" in result.stdout


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (  # a script link in the entry itself: check reports it; no release body prints it
            "Acme v0.2.0 [adds](javascript:alert(1)) a profile.",
            "changelog/2026-02-01.mdx:8:20: error: link 'javascript:alert(1)' uses the scheme",
        ),
        (  # a comment between a link's text and its target: a link once comments go
            "Acme v0.2.0 [adds]{/**/}(javascript:alert(1)) a profile.",  # said at its line
            "changelog/2026-02-01.mdx:8: error: link 'javascript:alert(1)' uses the scheme",
        ),
    ],
    ids=["script-link", "joined-by-removing-a-comment"],
)
def test_a_release_body_never_holds_a_link_the_rules_refuse(make_project, run, line, expected):
    _refused(make_project, run, line, expected)


def test_a_release_body_never_holds_raw_markup_once_its_comments_go(make_project, run):
    line = "Acme v0.2.0 adds < {/* c */}img src=x onerror=alert(1)>."  # a tag once it goes
    _refused(make_project, run, line, "changelog/2026-02-01.mdx:")


def test_a_comment_in_code_is_code_the_release_body_keeps(make_project, run):
    """In a fenced block or a code span, ``{/* ... */}`` is code the page shows."""
    code = "\n```js\nconst a = {/* keep */} 1;\n```\n\nKeep `{/* this */}` too.\n"
    spans = "Acme v0.2.0 adds `{/*` and `*/}` ``<img src=x onerror=alert(1)>``."
    text = ENTRY.replace("## v0.1.0\n", code + "\n## v0.1.0\n")
    text = text.replace("Acme v0.2.0 adds a profile.", spans)
    project = make_project(files={"changelog/2026-02-01.mdx": text})
    run(project, "build")
    result = run(project, "release-notes", "v0.2.0")
    assert "const a = {/* keep */} 1;" in result.stdout, result.output
    assert "Keep `{/* this */}` too." in result.stdout
    assert spans in result.stdout  # its code spans as they are: no tag comes out of them
    assert "A new profile.\n" in result.stdout  # a comment in prose still goes


def _refused(make_project, run, line: str, expected: str) -> None:
    text = ENTRY.replace("Acme v0.2.0 adds a profile.", line)
    project = make_project(files={"changelog/2026-02-01.mdx": text})
    run(project, "build")
    result = run(project, "release-notes", "v0.2.0", "--site-url", "https://docs.example.com")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(expected), result.stderr
    overview = project.read("changelog/overview.mdx")
    assert "[adds](javascript:" not in overview  # the overview shows such a summary as text


@pytest.mark.parametrize("ending", ["\n", ""])
def test_raw_markup_on_a_releases_last_line_is_refused_with_or_without_a_final_newline(
    make_project, run, ending
):
    """The last line of the last release (the file's, when no newline ends it) is judged
    as every other line is."""
    text = ENTRY.removesuffix("\n") + "\n\n- A <span>raw</span> note." + ending
    project = make_project(files={"changelog/2026-02-01.mdx": text})
    run(project, "build")
    result = run(project, "release-notes", "v0.1.0", "--site-url", "https://docs.example.com")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("changelog/2026-02-01.mdx:19:5: error: '<s' starts"), (
        result.stderr
    )


def test_a_link_in_code_is_text_for_the_release_body_as_for_check(released, run):
    """The release is judged by the rules ``check`` applies to its lines: in a code span a
    ``[x](javascript:...)`` is literal text, there as in the entry."""
    line = "Acme v0.2.0 adds a profile (`[y](javascript:void(0))` is text)."
    released.write("changelog/2026-02-01.mdx", ENTRY.replace("Acme v0.2.0 adds a profile.", line))
    assert run(released, "build").exit_code == 0
    assert run(released, "check").exit_code == 0
    result = run(released, "release-notes", "v0.2.0", "--site-url", "https://docs.example.com")
    assert result.exit_code == 0, result.output
    assert "`[y](javascript:void(0))`" in result.stdout


def test_code_stays_as_written_and_definitions_get_the_site_url(make_project, run):
    """A link in a code span or a fenced block is code the body shows as written (it got
    the site URL); a reference definition's target is a link like an inline one (it stayed
    relative: a broken link in a release body)."""
    body = (
        "- Put `[docs](/guide/alpha/models)` in your README.\n"
        "- See [the guide][g] and [the FAQ][f], or [this]( /guide/alpha/models).\n\n"
        "```md\n[docs](/guide/alpha/models)\n[c]: /guide/alpha/models\n```\n\n"
        "[g]: /guide/alpha/models\n"
        '[f]:\n  /guide/alpha/faq "FAQ"\n'
    )
    text = ENTRY.replace("## v0.1.0\n", body + "\n## v0.1.0\n")
    project = make_project(files={"changelog/2026-02-01.mdx": text})
    project.write(
        "templates/faq.mdx.j2", '---\ntitle: "FAQ"\n---\n\nQuestions about {{ product.name }}.\n'
    )
    assert run(project, "build").exit_code == 0
    assert run(project, "check").exit_code == 0
    result = run(project, "release-notes", "v0.2.0", "--site-url", "https://docs.example.com")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    site = "https://docs.example.com"
    expected = (
        body.replace("( /guide", f"( {site}/guide")
        .replace("[g]: /", f"[g]: {site}/")
        .replace("  /guide/alpha/faq", f"  {site}/guide/alpha/faq")
    )
    assert result.stdout.endswith(expected)
    bare = run(project, "release-notes", "v0.2.0")
    assert bare.stdout.endswith(body)
    assert bare.stderr == (
        "release-notes: warning: neither product.site_url nor --site-url is set, so 5 "
        "root-absolute links, such as '/guide/alpha/models', stay relative\n"
    )


def test_a_release_in_two_entries_is_refused_as_check_refuses_it(released, run):
    """One of the two was printed, exit 0, while `check` refused the history."""
    released.write("changelog/2026-03-01.mdx", ENTRY.replace("adds a profile", "is another"))
    assert run(released, "check").exit_code == 1
    result = run(released, "release-notes", "v0.2.0", "--site-url", "https://docs.example.com")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "changelog/2026-03-01.mdx:6: error: version v0.2.0 is already released in "
        "changelog/2026-02-01.mdx\n"
    )


def test_a_release_in_an_entry_check_refuses_by_its_name_is_refused(make_project, run):
    project = make_project(files={"changelog/notes.mdx": ENTRY})
    result = run(project, "release-notes", "v0.2.0", "--site-url", "https://docs.example.com")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "changelog/notes.mdx:1: error: changelog file name 'notes.mdx' is not a real date as "
        "YYYY-MM-DD.mdx\n"
    )


def test_a_control_character_in_an_entry_reaches_the_terminal_as_its_escape(make_project, run):
    """An entry is untrusted text: a bidirectional override or an escape sequence in it is
    printed as its escape, never raw; its line ends and tabs stay as they are."""
    entry = ENTRY.replace("adds a profile.", "adds a \u202eprofile\x1b[2J.\t(tab)")
    project = make_project(files={"changelog/2026-02-01.mdx": entry.replace("\n", "\r\n")})
    result = run(project, "release-notes", "v0.2.0", "--site-url", "https://docs.example.com")
    assert result.exit_code == 0, result.output
    assert "Acme v0.2.0 adds a \\u202eprofile\\x1b[2J.\t(tab)\n" in result.stdout
    assert "\r" not in result.stdout
    assert not {"\u202e", "\x1b"} & set(result.stdout)


def test_a_version_without_its_v_names_the_release(released, run):
    """``release-notes 0.2.0`` prints release v0.2.0, as a tag is often written either way."""
    site = ("--site-url", "https://docs.example.com")
    bare = run(released, "release-notes", "0.2.0", *site)
    assert bare.exit_code == 0, bare.output
    assert bare.stdout == run(released, "release-notes", "v0.2.0", *site).stdout
    assert bare.stdout.startswith("## v0.2.0\n")
    assert run(released, "release-notes", "0.3.0", *site).exit_code == 2


def test_a_version_asked_for_is_quoted_on_one_line(released, run):
    """What the user typed is echoed as one line: a line break in it is its escape."""
    result = run(released, "release-notes", "0.2.0\n")
    assert result.exit_code == 2
    assert result.stderr.startswith("release-notes: error: malformed version '0.2.0\\n'")
    assert result.stderr.count("\n") == 1


def test_the_known_versions_are_listed_in_release_order(make_project, run):
    """v0.0.40 before v0.0.101 (they were listed as text: v0.0.101 first)."""
    entry = ENTRY.replace("v0.2.0", "v0.0.101").replace("v0.1.0", "v0.0.40")
    project = make_project(files={"changelog/2026-02-01.mdx": entry})
    result = run(project, "release-notes", "v9.9.9")
    assert (result.exit_code, result.stderr) == (
        2,
        "release-notes: error: no release v9.9.9 in changelog/ (known: v0.0.40, v0.0.101)\n",
    )


@pytest.mark.parametrize(
    "note", ["<!--\n- hidden [x](https://evil.example)\n-->\n- shown", "- a <!-- c --> b"]
)
def test_a_release_holding_an_html_comment_is_not_printed(make_project, run, note):
    """A release body hides an HTML comment (a hostile round's entry printed one):
    ``check`` refuses it, and so does ``release-notes`` now."""
    text = ENTRY.replace("adds a profile.\n", f"adds a profile.\n\n{note}\n", 1)
    project = make_project(files={"changelog/2026-02-01.mdx": text})
    said = "changelog/2026-02-01.mdx:10: error: HTML comments are not allowed in changelog entries"
    assert said in run(project, "check").output
    result = run(project, "release-notes", "v0.2.0", "--site-url", "https://docs.example.com")
    assert (result.exit_code, result.stdout) == (2, "")
    assert said in result.stderr, result.stderr
