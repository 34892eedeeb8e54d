"""Work shared with a forked process gives exactly what one process gives."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from scale import CACHE, docgen, snapshot, write_corpus

from docgen import parallel
from docgen.config import load_project
from docgen.errors import TemplateError
from docgen.plan import plan

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


@pytest.fixture
def forking(monkeypatch):
    """Fork even where pytest's own threads or one processor would prevent it."""
    monkeypatch.setattr(parallel, "_can_fork", lambda: True)
    monkeypatch.delenv("DOCGEN_JOBS", raising=False)


def uneven(item: int) -> tuple[int, int]:
    if item % 97 == 0:
        time.sleep(0.01)  # a few items cost far more than the rest
    return item, os.getpid()


def test_results_keep_their_order_and_both_processes_work(forking):
    done = parallel.map_split(uneven, list(range(1000)), min_items=10)
    assert [item for item, _pid in done] == list(range(1000))
    workers = {pid for _item, pid in done}
    assert os.getpid() in workers and len(workers) == 2


def test_small_inputs_stay_in_this_process(forking):
    done = parallel.map_split(uneven, list(range(20)), min_items=256)
    assert {pid for _item, pid in done} == {os.getpid()}


class Broken(Exception):
    pass


def fails_at(bad: int):
    def work(item: int) -> int:
        if item == bad:
            raise Broken(f"item {item}")
        return item * 2

    return work


@pytest.mark.parametrize("bad", [0, 1, 500, 999])
def test_an_error_in_either_share_is_raised_here_as_itself(forking, bad):
    with pytest.raises(Broken, match=f"item {bad}$"):
        parallel.map_split(fails_at(bad), list(range(1000)), min_items=10)


def test_no_child_is_left_behind_after_an_error(forking):
    with pytest.raises(Broken):
        parallel.map_split(fails_at(3), list(range(1000)), min_items=10)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_a_side_shared_as_the_first_item_gives_what_one_process_gives(forking):
    side, done = parallel.map_split_with(lambda: ("side", os.getpid()), uneven, range(1000))
    assert side[0] == "side" and [item for item, _pid in done] == list(range(1000))
    assert len({pid for _item, pid in done}) == 2  # the items were shared
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_a_side_beside_few_items_runs_in_a_copy_only_where_worth_it(forking):
    side, done = parallel.map_split_with(os.getpid, uneven, range(3))
    assert side != os.getpid() and {pid for _item, pid in done} == {os.getpid()}
    side, done = parallel.map_split_with(os.getpid, uneven, range(3), worth=False)
    assert side == os.getpid() and [item for item, _pid in done] == [0, 1, 2]


@pytest.mark.parametrize("bad", [0, 999])
def test_an_error_of_the_items_or_the_side_is_raised_here_as_itself(forking, bad):
    def side() -> int:
        raise Broken("side")

    with pytest.raises(Broken, match=f"item {bad}$"):
        parallel.map_split_with(lambda: 1, fails_at(bad), range(1000))
    with pytest.raises(Broken, match="^side$"):
        parallel.map_split_with(side, fails_at(-1), range(1000))
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_beside_gives_both_results_and_the_side_ran_in_the_copy(forking):
    side, main = parallel.beside(os.getpid, lambda: ("main", os.getpid()))
    assert main == ("main", os.getpid())
    assert side != os.getpid()
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_beside_without_a_fork_runs_both_here(monkeypatch):
    monkeypatch.setenv("DOCGEN_JOBS", "1")
    assert parallel.beside(os.getpid, os.getpid) == (os.getpid(), os.getpid())


def test_an_error_of_the_side_is_raised_here_as_itself(forking):
    def side() -> int:
        raise Broken("side")

    with pytest.raises(Broken, match="^side$"):
        parallel.beside(side, lambda: 1)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_an_error_of_the_main_work_stops_the_copy(forking):
    def main() -> int:
        raise Broken("main")

    with pytest.raises(Broken, match="^main$"):
        parallel.beside(lambda: time.sleep(30), main)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_a_started_result_never_asked_for_is_dropped_and_its_copy_stopped(forking):
    began = time.monotonic()
    with parallel.started(lambda: time.sleep(30)):
        pass
    assert time.monotonic() - began < 10
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_a_started_result_the_copy_cannot_send_is_computed_here(forking):
    with parallel.started(lambda: (os.getpid(), lambda: None)) as result:  # unpicklable
        pid, _ = result()
    assert pid == os.getpid()


def test_a_started_result_is_asked_for_once(forking):
    with parallel.started(lambda: [os.getpid()]) as result:
        first = result()
        assert result() is first
    assert first != [os.getpid()]


def test_a_threaded_process_does_not_fork(monkeypatch):
    import threading

    monkeypatch.delenv("DOCGEN_JOBS", raising=False)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not parallel._can_fork()
    finally:
        stop.set()
        thread.join()


def corpus_project(root: Path):
    write_corpus(root, profiles=300, pages=12)
    return load_project(root)


def test_a_shared_plan_equals_a_sequential_one(forking, tmp_path, monkeypatch):
    project = corpus_project(tmp_path / "p")
    shared = plan(project)
    monkeypatch.setenv("DOCGEN_JOBS", "1")
    alone = plan(project)
    assert shared == alone
    assert len(shared.outputs) > 1000


def test_a_broken_profile_in_the_forked_share_is_located(forking, tmp_path):
    project = corpus_project(tmp_path / "p")
    template = project.root / "templates/profiles/[profile].mdx.j2"
    template.write_text(
        "{% if profile.id == '"
        + sorted(plan(project).registry.profiles)[-1]
        + "' %}{{ profile.nonexistent }}{% endif %}\n"
        + template.read_text("utf-8"),
        "utf-8",
    )
    with pytest.raises(TemplateError) as info:
        plan(project)
    assert str(info.value).startswith("templates/profiles/[profile].mdx.j2:1: error:")


def test_build_through_the_fork_writes_the_same_tree(forking, tmp_path, monkeypatch):
    write_corpus(tmp_path / "a", profiles=300, pages=12)
    write_corpus(tmp_path / "b", profiles=300, pages=12)
    assert docgen(tmp_path / "a", "build", "-q").exit_code == 0
    monkeypatch.setenv("DOCGEN_JOBS", "1")
    assert docgen(tmp_path / "b", "build", "-q").exit_code == 0
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")


def test_a_build_that_breaks_in_the_forked_share_leaves_nothing_it_staged(forking, tmp_path):
    """Both processes stage the pages they render (docgen.prestage); a template error in
    the copy's share stops the build, and neither process's staged texts are left."""
    root = tmp_path / "p"
    write_corpus(root, profiles=300, pages=12)
    last = sorted(plan(load_project(root)).registry.profiles)[-1]
    template = root / "templates/profiles/[profile].mdx.j2"
    broken = f"{{% if profile.id == '{last}' %}}{{{{ profile.nonexistent }}}}{{% endif %}}\n"
    template.write_text(broken + template.read_text("utf-8"), "utf-8")
    before = snapshot(root)
    outcome = docgen(root, "build", "-q")
    assert outcome.exit_code == 2
    assert "templates/profiles/[profile].mdx.j2:1: error:" in outcome.output
    assert snapshot(root) == before
    assert not (root / CACHE).exists()  # the build made docgen's folder, and removed it


def test_the_collector_is_paused_only_inside_the_block_and_left_as_it_was() -> None:
    import gc

    from docgen.heap import collector_paused

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # a host that turned it off keeps it off
    finally:
        gc.enable()


def test_settled_freezes_the_existing_heap_for_the_block_only() -> None:
    import gc

    from docgen.heap import settled

    assert gc.get_freeze_count() == 0
    with settled():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
