"""``without_comments``: the text a release body holds (MDX comments gone, those in code
kept), and the same text with every line kept where it stood, for locating what the body
would hold."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from docgen.changelog.comments import without_comments

PIECES = ["a", "[x]", "(javascript:1)", "{/* c */}", "{/* c\n d */}", "\n", "`{/* k */}`", " "]


def test_a_comment_over_lines_joins_them_and_later_lines_keep_their_numbers():
    text = "- See [x]{/* c\n  */}(javascript:1) now.\n{/* alone */}\n- b [y](/z)\n"
    assert without_comments(text) == "- See [x](javascript:1) now.\n- b [y](/z)\n"
    kept = without_comments(text, keep_lines=True)
    assert kept.split("\n") == ["- See [x](javascript:1) now.", "", "", "- b [y](/z)", ""]


@given(st.lists(st.sampled_from(PIECES), max_size=12))
def test_kept_lines_are_the_body_with_blank_lines_where_comments_held_line_ends(pieces):
    text = "".join(pieces)
    kept, body = without_comments(text, keep_lines=True), without_comments(text)
    assert kept.count("\n") == text.count("\n")
    assert [line for line in kept.split("\n") if line.strip()] == [
        line for line in body.split("\n") if line.strip()
    ]
