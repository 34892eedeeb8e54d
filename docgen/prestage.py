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
import stat
from contextlib import suppress
from dataclasses import dataclass, replace

from docgen.config import Project
from docgen.io import files, staging, vetting, writes
from docgen.outputs import Output, on_disk


@dataclass(frozen=True)
class Prestage:
    """Where one build stages its outputs' texts (the staging folder) as it renders them."""

    project: Project
    folder: str
    inside: files.Inside
    own_made: bool  # this build made docgen's own folder (removed again if it fails)

    @classmethod
    def open(cls, project: Project) -> Prestage | None:
        """The staging folder, emptied of what a killed build left and made if missing
        (and docgen's own folder with it); None when it cannot be used, and then a build
        holds its texts until it writes them."""
        own = os.path.join(str(project.root), files.OWN_FOLDER)
        own_made = not os.path.lexists(own)
        if writes.own_folder(project) is None:
            return None
        staging.sweep_temporaries(project, ())
        folder = os.path.join(own, staging.STAGING)
        try:
            with suppress(FileExistsError):
                os.mkdir(folder)
            if stat.S_ISDIR(os.lstat(folder).st_mode):
                return cls(project, folder, files.Inside(project.root), own_made)
        except OSError:
            pass
        _remove_own(own, own_made)
        return None

    def output(self, output: Output) -> Output:
        """``output`` as its digest: its text staged, or found already on disk (then it
        is ``verified``). A text that cannot be written as UTF-8 is refused here, as
        ``writes.apply`` would refuse it."""
        if output.digest:
            return output
        if on_disk(self.inside, output):
            return output.digest_only(verified=True)
        vetting.refuse_unencodable([vetting.Write(output.path, output.text)])
        path = os.path.join(self.folder, f"{os.getpid()}-{staging.taken()}{staging.TMP_SUFFIX}")
        writes.write_new(path, output.text.encode("utf-8"), None)
        return replace(output.digest_only(), staged=path)

    def close(self, failed: bool = False) -> None:
        """Remove every staged text no write took, and the staging folder; after a
        failure, docgen's own folder too when this build made it."""
        staging.sweep_temporaries(self.project, ())
        with suppress(OSError):
            os.rmdir(self.folder)
        if failed:
            _remove_own(os.path.dirname(self.folder), self.own_made)


def _remove_own(own: str, made: bool) -> None:
    if made:
        with suppress(OSError):
            writes.remove(os.path.join(own, ".gitignore"))
            os.rmdir(own)
