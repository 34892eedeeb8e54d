"""Operator tokens (``--extra-args-json``) at the edges of what vLLM's parser reads: each
case pins one decision a mutation round found untested."""

from __future__ import annotations

import pytest

from docgen.errors import DocgenError
from docgen.registry.serve import parse_extra_args
from docgen.vllm.catalog import Catalog

HUNDRED_DIGITS = "1" + "0" * 99


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.load()


@pytest.mark.parametrize(
    ("given", "tokens"),
    [
        ('[" --port", "8000 "]', ["--port", "8000"]),  # each token is trimmed
        ('["-O", "3"]', ["-O", "3"]),  # vLLM's -O shorthand takes its level apart
        ('["--served-model-name", "-.5"]', ["--served-model-name", "-.5"]),  # a number
        ('["--served-model-name", "-a b"]', ["--served-model-name", "-a b"]),  # a space: text
        (f'["--max-model-len", "{HUNDRED_DIGITS}"]', ["--max-model-len", HUNDRED_DIGITS]),
        # argparse splits at '=' before its space rule: an option, not an argument (was
        # "unexpected argument"; tests/integrations/test_vllm_verify.py asks vLLM)
        ('["--served-model-name=a b"]', ["--served-model-name=a b"]),
        ('["--chat_template=a b"]', ["--chat_template=a b"]),
        # a one-letter option with its value attached, as argparse reads it (was "unknown
        # option '-qawq'")
        ('["-qawq", "-n2", "-q=awq"]', ["-qawq", "-n2", "-q=awq"]),
    ],
)
def test_tokens_vllms_parser_reads_as_given_are_accepted(catalog, given, tokens):
    assert parse_extra_args(given, catalog) == tokens


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ('["--port", 8000]', "must be a JSON array of vLLM serve argument strings"),
        ('["--port", "", "--bogus"]', "token 2 is blank"),  # one kind of problem at a time
        ('["--device-ids", "0,1", "2"]', "token 3 ('2'): unexpected argument '2'"),
        (
            '["--max-num-seqs", "None"]',
            "token 2 ('None'): '--max-num-seqs' expects an integer, got 'None'",
        ),
        (
            f'["--max-model-len", "{HUNDRED_DIGITS}0"]',
            f"token 2 ('{HUNDRED_DIGITS[:40]}...{'0' * 10}' (101 characters)): "
            "'--max-model-len' expects an integer of at most 100 digits, got one of 101",
        ),
        (
            '["--sparse-indexer-topk-backend", "zzzzzz"]',
            "token 2 ('zzzzzz'): invalid value 'zzzzzz' for '--sparse-indexer-topk-backend'; "
            "expected one of: aiter, auto, cooperative, deep_select, flashinfer, per_row, "
            "persistent, torch",
        ),
        # the attached value is judged as the option's own; only one-letter options take one
        ('["-nx"]', "token 1 ('-nx'): '--nnodes' expects an integer, got 'x'"),
        ('["-qfoo"]', "token 1 ('-qfoo'): invalid value 'foo' for '--quantization'"),
        ('["-tp4"]', "token 1 ('-tp4'): unknown option '-tp4'; did you mean '-tp'?"),
    ],
)
def test_tokens_vllms_parser_refuses_are_one_located_error(catalog, given, said):
    with pytest.raises(DocgenError) as info:
        parse_extra_args(given, catalog)
    assert str(info.value) == f"--extra-args-json: error: {said}"
