"""Storage figures are computed from registry numbers, never typed: the worked example's
setup page reproduces the real NemoClaw page's estimate from the registry values behind it."""

from __future__ import annotations

from conftest import REPO

from docgen.registry.load import load_bytes
from docgen.registry.storage import estimate

REAL_PAGE = REPO / "tests/fixtures/nemoclaw-docs/docs/inference/set-up-vllm.mdx"
STATION = "vllm.dgx-station-gb300.single.deepseek-v4-flash"
#: The real page's DGX Station default at the time: the Nemotron 3 Ultra model files on the
#: NGC 26.05 image (the figures the page adds up).
ULTRA = """\
  nemotron-3-ultra-550b-a55b:
    hf: nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-NVFP4
    label: NVIDIA Nemotron 3 Ultra 550B-A55B NVFP4
    download_bytes: 352381000000
"""


def station_ultra(text: str) -> str:
    text = text.replace("\nprofiles:\n", ULTRA + "\nprofiles:\n", 1)
    head, _, tail = text.partition(f"  {STATION}:\n    model: deepseek-v4-flash\n")
    assert tail, "the worked example's DGX Station default moved"
    return (
        f"{head}  {STATION}:\n    model: nemotron-3-ultra-550b-a55b\n"
        f"    image: ngc-vllm-26.05-arm64\n{tail}"
    )


def test_the_real_pages_393_68_gb_line_is_generated_from_registry_values(example, run):
    line = (
        "For the DGX Station default, that is approximately `393.68 GB`: `9.603 GB` compressed "
        "image layers, `27.659 GB` unpacked image layers, `352.381 GB` model files, `3.221 GB` "
        "model-download staging, and `0.816 GB` writable allowance."
    )
    assert line in REAL_PAGE.read_text("utf-8").splitlines()
    example.write("profiles.yaml", station_ultra(example.read("profiles.yaml")))
    assert run(example, "build").exit_code == 0
    assert line in example.read("docs/inference/set-up-vllm.mdx").splitlines()


def test_each_figure_follows_its_registry_value(example, run):
    """Change each number behind the estimate: the page's figure and total change with it."""
    text = station_ultra(example.read("profiles.yaml"))
    edits = [
        ("compressed_bytes: 9603085145", "compressed_bytes: 9703085145", "`9.703 GB` compressed"),
        ("unpacked_bytes: 27658526720", "unpacked_bytes: 27758526720", "`27.759 GB` unpacked"),
        ("download_bytes: 352381000000", "download_bytes: 352481000000", "`352.481 GB` model"),
        ("staging_reserve_bytes: 3221225472", "staging_reserve_bytes: 3321225472", "`3.321 GB`"),
        (
            "writable_allowance_bytes: 816000000",
            "writable_allowance_bytes: 916000000",
            "`0.916 GB`",
        ),
    ]
    for old, new, figure in edits:
        assert text.count(old) == 1, old
        example.write("profiles.yaml", text.replace(old, new))
        assert run(example, "build").exit_code == 0
        page = example.read("docs/inference/set-up-vllm.mdx")
        assert figure in page and "approximately `393.78 GB`" in page, (old, figure)


def test_no_estimate_without_the_sizes_it_adds():
    reg = load_bytes((REPO / "profiles.yaml").read_bytes(), "profiles.yaml")
    station = reg.profiles[STATION]  # no image: the platform's default, size unknown
    assert estimate(station, reg.launcher) is None
    spark = reg.profiles["vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4"]
    found = estimate(spark, reg.launcher)
    assert found is not None
    assert [what for what, _ in found.parts] == [
        "compressed image layers",
        "unpacked image layers",
        "model files",
        "model-download staging",
        "writable allowance",
    ]
    assert found.total == 9603085145 + 27658526720 + 23500000000 + 3221225472 + 816000000
