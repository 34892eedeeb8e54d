"""Where a changelog bullet's link leads: the route at which the navigation lists the page
for the default agent's readers, even when another agent's variant lists it first."""

from __future__ import annotations

from conftest import REPO, Project

SEED = str(REPO / "tests/fixtures/profiles-v0.0.101.yaml")
ENTRY = "changelog/2026-08-04.mdx"
SHARED = "docs/inference/choose-local-inference-server.mdx"


def hermes_first(example: Project) -> None:
    """Put the Hermes variant before the default OpenClaw one in the navigation."""
    lines = example.read("docs/index.yml").split("\n")
    start = next(i for i, line in enumerate(lines) if "title: NemoClaw for OpenClaw" in line)
    end = next(i for i, line in enumerate(lines) if "title: NemoClaw for Hermes" in line)
    stop = next(i for i, line in enumerate(lines) if "title: NemoClaw for Deep Agents" in line)
    lines[start:stop] = lines[end:stop] + lines[start:end]
    example.write("docs/index.yml", "\n".join(lines))


def test_the_link_goes_to_the_default_agents_listing_of_a_page_every_variant_lists(example, run):
    hermes_first(example)
    example.edit("pyproject.toml", 'changelog_link = "docs/inference/set-up-vllm.mdx"',
                 f'changelog_link = "{SHARED}"')  # fmt: skip
    (example.root / ENTRY).unlink()
    result = run(
        example, "changelog", "--version", "v0.0.102", "--since-file", SEED,
        "--date", "2026-08-04", "--summary", "tunes the Spark profile.",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    link = [line for line in example.read(ENTRY).splitlines() if "refer to" in line]
    assert link == [
        "  For more information, refer to [Choose a Local Inference Server]"
        "(/user-guide/openclaw/inference/local-inference/choose-local-inference-server)."
    ]
