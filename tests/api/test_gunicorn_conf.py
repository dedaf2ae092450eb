"""The production command's listen queue is sized for a herd of
reconnecting clients, and says when the kernel caps it lower."""

from __future__ import annotations

import importlib


def _conf(monkeypatch, **env):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    import api.processes.gunicorn_conf as conf

    return importlib.reload(conf)


def test_the_listen_backlog_holds_a_herd_of_reconnections(monkeypatch):
    monkeypatch.delenv("BOARDLOG_BACKLOG", raising=False)
    assert _conf(monkeypatch).backlog >= 16384  # 1,000 connections a second for several seconds unaccepted


def test_the_listen_backlog_is_a_setting(monkeypatch):
    assert _conf(monkeypatch, BOARDLOG_BACKLOG="2048").backlog == 2048


def test_the_kernel_settings_that_cap_the_backlog_are_read(monkeypatch):
    conf = _conf(monkeypatch)
    assert conf._kernel_setting("net/core/somaxconn") is None or conf._kernel_setting("net/core/somaxconn") > 0
    assert conf._kernel_setting("no/such/setting") is None
