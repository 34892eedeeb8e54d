"""A build's outputs written to the staging folder as they are rendered, so no process ever
holds every page's text: a plan keeps each output's digest and where its text is staged.

The process that renders a page (a forked copy renders half of a large project) stages
its text at once; ``writes.apply`` later renames it into place with everything else, all
or nothing. An output whose file already holds its text is not staged: it is known
unchanged. What a failed build staged is removed; what a killed one staged is swept by
the next build before it stages anything.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace

from docgen.config import Project
from docgen.io import files, staging, vetting, writes
from docgen.outputs import Output, verified


@dataclass(frozen=True)
class Prestage:
    """Where one build stages its outputs' texts (the staging folder) as it renders them."""

    project: Project
    folder: str
    inside: files.Inside
    own_made: bool  # this build made docgen's own folder (removed again if it fails)

    @classmethod
    def open(cls, project: Project) -> Prestage | None:
        """The staging folder, made if missing (and docgen's own folder with it) and
        emptied of what a killed build left; None when it cannot be used, and then a
        build holds its texts until it writes them."""
        folder, own_made = writes.staging_folder(project)
        if folder is None:
            if own_made:
                writes.drop_own_folder(project)
            return None
        staging.sweep_temporaries(project, ())
        return cls(project, folder, files.Inside(project.root), own_made)

    def output(self, output: Output) -> Output:
        """``output`` as its digest: its text staged, or found already on disk (then it
        is ``verified``). A text that cannot be written as UTF-8 is refused here, as
        ``writes.apply`` would refuse it."""
        found = verified(self.inside, output)
        if found.digest:  # a digest already, or its file holds its text
            return found
        vetting.refuse_unencodable([vetting.Write(output.path, output.text)])
        path = os.path.join(self.folder, f"{os.getpid()}-{staging.taken()}{staging.TMP_SUFFIX}")
        try:
            writes.write_new(path, output.text.encode("utf-8"), None)
        except OSError as exc:  # a full disk, a file size limit: nothing was changed
            raise writes.failed(output.path, "write", exc) from None
        return replace(output.digest_only(), staged=path)

    def close(self, failed: bool = False) -> None:
        """Remove every staged text no write took, and the staging folder; after a
        failure, docgen's own folder too when this build made it."""
        staging.sweep_temporaries(self.project, ())
        with suppress(OSError):
            os.rmdir(self.folder)
        if failed and self.own_made:
            writes.drop_own_folder(self.project)


@contextmanager
def staged(project: Project, wanted: bool = True) -> Iterator[Callable[[Output], Output] | None]:
    """What each output a build renders goes through (``Prestage.output``), or None when
    not ``wanted`` (a dry run) or the staging folder cannot be used; on leaving, every
    staged text no write took is removed, and after a failure what the build made."""
    stage = Prestage.open(project) if wanted else None
    if stage is None:
        yield None
        return
    try:
        yield stage.output
    except BaseException:
        stage.close(failed=True)
        raise
    stage.close()
