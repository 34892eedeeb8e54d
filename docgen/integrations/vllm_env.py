"""The isolated Python environment that holds vLLM's real argument parser.

``docgen verify-vllm`` parses commands with the pinned vLLM release, installed in its
own venv so that docgen itself never depends on vLLM. The venv is made reproducibly,
as ``docs``/README and ``../shared/reference/vllm_real_parser.md`` describe:

1. ``python -m venv VENV`` with the interpreter that runs docgen;
2. ``pip install torch==2.13.0`` with the user's pip settings (this repository's CI
   machines keep the CPU wheel in pip's find-links; elsewhere ``PIP_EXTRA_INDEX_URL``
   names PyTorch's CPU index, or PyPI's CUDA build comes);
3. ``pip install --no-deps vllm==0.34.0 -r docgen/data/vllm-parser-lock.txt``: never
   let pip resolve vLLM's own dependencies, which would pull a multi-GB CUDA torch.

A marker file written last records what was installed; a venv with a matching marker
is reused, one without (an interrupted install) is made again.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path

from docgen.errors import DocgenError, Location

VLLM_VERSION = "0.34.0"
TORCH_VERSION = "2.13.0"
LOCK_FILE = "vllm-parser-lock.txt"
ENV_VAR = "DOCGEN_VLLM_VENV"
MARKER = "docgen-vllm-env.json"
SETUP_HINT = "docgen verify-vllm --setup"

Say = Callable[[str], None]


class VllmEnvError(DocgenError):
    """The vLLM environment is missing, broken or cannot be made (exit code 2)."""


def default_venv(root: Path) -> Path:
    """``.cache/vllm-0.34.0`` in the project root."""
    return root / ".cache" / f"vllm-{VLLM_VERSION}"


def venv_path(root: Path, given: Path | None = None) -> Path:
    """``--venv``, else ``$DOCGEN_VLLM_VENV``, else the default in the project root."""
    if given is not None:
        return given.absolute()
    from_env = os.environ.get(ENV_VAR)
    return Path(from_env).absolute() if from_env else default_venv(root)


def python_of(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def lock_text() -> str:
    return (resources.files("docgen") / "data" / LOCK_FILE).read_text(encoding="utf-8")


def wanted() -> dict[str, str]:
    """What a usable venv holds; written to its marker file."""
    digest = hashlib.sha256(lock_text().encode("utf-8")).hexdigest()
    return {"vllm": VLLM_VERSION, "torch": TORCH_VERSION, "lock_sha256": digest}


def ready(venv: Path) -> bool:
    """Whether ``venv`` was fully made by ``create`` from the current lock."""
    try:
        marker = json.loads((venv / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return bool(marker == wanted() and python_of(venv).is_file())


def missing(venv: Path) -> VllmEnvError:
    """The exit-2 error when no usable environment is at ``venv``, saying how to make one."""
    how = (
        f"no vLLM {VLLM_VERSION} environment here; create it (about 3 minutes, 1.9 GB "
        f"with torch's CPU build: see the README) with `{SETUP_HINT}` (choose the folder "
        f"with --venv or ${ENV_VAR})"
    )
    return VllmEnvError.at(Location(str(venv)), how)


def create(venv: Path, say: Say = print) -> Path:
    """Make the environment at ``venv`` (or reuse it) and return its python."""
    if ready(venv):
        say(f"reusing the vLLM {VLLM_VERSION} environment at {venv}")
        return python_of(venv)
    _clear(venv)
    say(f"creating the vLLM {VLLM_VERSION} environment at {venv}")
    _run([sys.executable, "-m", "venv", str(venv)], venv)
    python = str(python_of(venv))
    lock = venv / LOCK_FILE
    lock.write_text(lock_text(), encoding="utf-8")
    say(f"installing torch=={TORCH_VERSION}")
    _run([python, "-m", "pip", "install", "--quiet", f"torch=={TORCH_VERSION}"], venv)
    say(f"installing vllm=={VLLM_VERSION} and the locked parser dependencies (--no-deps)")
    pins = ["--no-deps", f"vllm=={VLLM_VERSION}", "-r", str(lock)]
    _run([python, "-m", "pip", "install", "--quiet", *pins], venv)
    (venv / MARKER).write_text(json.dumps(wanted(), indent=2) + "\n", encoding="utf-8")
    return python_of(venv)


def _clear(venv: Path) -> None:
    """Remove a half-made venv; refuse to touch a folder that is not a venv."""
    if not venv.exists():
        return
    if venv.is_dir() and (venv / "pyvenv.cfg").is_file():
        shutil.rmtree(venv)
    elif venv.is_dir() and not any(venv.iterdir()):
        venv.rmdir()
    else:
        raise VllmEnvError.at(
            Location(str(venv)), "exists and is not a Python venv; refusing to replace it"
        )


def _run(command: Sequence[str], venv: Path) -> None:
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        tail = "\n".join((result.stderr or result.stdout).strip().splitlines()[-15:])
        raise VllmEnvError.at(
            Location(str(venv)),
            f"`{' '.join(command)}` failed with exit code {result.returncode}:\n{tail}",
        )
