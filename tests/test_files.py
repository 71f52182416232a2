"""helpers.files: reading a named file never waits on a FIFO nor reads a device (review hostile_1,
items 1, 9 and 10: the progress file, the workspace's notebooks and manifest, the data files)."""

from __future__ import annotations

import os
import threading

import pytest

from helpers.files import NotARegularFile, read_regular, special_kind


def test_a_regular_file_is_read_whole_or_up_to_just_past_the_limit(tmp_path):
    path = tmp_path / "f.json"
    path.write_bytes(b"x" * 3000)
    assert read_regular(path) == b"x" * 3000
    assert len(read_regular(path, limit=10)) > 10, "enough to tell that the file is over the limit"
    assert special_kind(path) is None and special_kind(tmp_path / "missing") is None


def test_a_folder_is_refused_with_its_kind(tmp_path):
    with pytest.raises(NotARegularFile) as caught:
        read_regular(tmp_path)
    assert caught.value.kind == "a folder" and str(caught.value) == f"{tmp_path.name} is a folder"
    assert special_kind(tmp_path) == "a folder"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX feature")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "users.json"
    os.mkfifo(fifo)
    found = {}

    def read():
        try:
            read_regular(fifo)
        except NotARegularFile as exc:
            found["kind"] = exc.kind

    worker = threading.Thread(target=read, daemon=True)
    worker.start()
    worker.join(30)
    if worker.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert not worker.is_alive() and found == {"kind": "a FIFO"}
    assert special_kind(fifo) == "a FIFO"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_device_is_refused_through_a_symlink(tmp_path):
    link = tmp_path / "orders.json"
    link.symlink_to("/dev/zero")
    with pytest.raises(NotARegularFile) as caught:
        read_regular(link)
    assert caught.value.kind == "a device" and special_kind(link) == "a device"
