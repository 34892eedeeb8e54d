"""The bad-input corpus as a whole: every input a user can get wrong gives an exact located
error. The cases live in one table per input kind, in the ``test_bad_*.py`` files beside
this one (their shared runner is bad_input_cases.py); this file checks the whole corpus.
"""

from __future__ import annotations

import test_bad_arguments
import test_bad_changelog
import test_bad_ids
import test_bad_pages
import test_bad_registry
import test_bad_settings
import test_bad_templates
import test_bad_vllm_args
import test_bad_yaml

CASES = (
    test_bad_yaml.CASES
    + test_bad_registry.CASES
    + test_bad_ids.CASES
    + test_bad_vllm_args.CASES
    + test_bad_templates.CASES
    + test_bad_pages.CASES
    + test_bad_changelog.CASES
    + test_bad_settings.CASES
    + test_bad_arguments.CASES
)


def test_corpus_is_broad_and_ids_are_unique():
    assert len(CASES) >= 60
    assert len({c.id for c in CASES}) == len(CASES)
