"""Start slots: one claude start-up per core at once, shared through flocks in the run dir."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pytest_ponybench.store.slots import StartSlots, cores


def test_no_more_slots_are_held_than_there_are(tmp_path: Path) -> None:
    slots = StartSlots(tmp_path, count=2)
    first, second = slots.take(), slots.take()
    assert first.waited_s < 1 and second.waited_s < 1
    third = slots.take(give_up_s=0.2)  # both held: it waits, then gives up unheld
    assert third.waited_s >= 0.2
    first.release()
    fourth = slots.take(give_up_s=5)
    assert fourth.waited_s < 1
    for slot in (second, third, fourth):
        slot.release()
        slot.release()  # twice is harmless


def test_another_process_holding_every_slot_makes_this_one_wait(tmp_path: Path) -> None:
    holder = (
        "import sys, time\nfrom pathlib import Path\nfrom pytest_ponybench.store.slots import StartSlots\n"
        "s = StartSlots(Path(sys.argv[1]), count=1).take()\nprint('held', flush=True)\ntime.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", holder, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        assert StartSlots(tmp_path, count=1).take(give_up_s=0.3).waited_s >= 0.3
    finally:
        proc.kill()  # a dead holder's flock goes with it
        proc.wait()
    assert StartSlots(tmp_path, count=1).take(give_up_s=5).waited_s < 1


def test_one_slot_per_core_by_default(tmp_path: Path) -> None:
    assert len(StartSlots(tmp_path).paths) == cores() >= 1
