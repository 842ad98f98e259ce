"""tools/debian_root.py: roots cached outside the checkout, named by their recipe, never deleted
while something is mounted below them, and entered without leaking the host's Python."""

import importlib
import io
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


sys.path.insert(0, str(ROOT / "tools"))  # the tools are scripts beside each other
dr = importlib.import_module("debian_root")


@pytest.mark.parametrize(("env", "expected"), [
    ({"COMPANION_CACHE": "/srv/cache", "XDG_CACHE_HOME": "/x"}, Path("/srv/cache")),
    ({"XDG_CACHE_HOME": "/x"}, Path("/x/companion")),
])
def test_debian_root_cache_dir_follows_the_environment(env, expected):
    assert dr.cache_dir(env) == expected


def test_debian_root_cache_dir_is_never_inside_the_checkout():
    where = dr.cache_dir({}).resolve()
    assert ROOT not in where.parents and where != ROOT


def test_debian_root_names_a_root_by_its_recipe():
    base = dr.RootSpec(suite="trixie", arch="arm64", include=("python3", "git"))
    assert base.name.startswith("debian-trixie-arm64-")
    assert base.name == dr.RootSpec(suite="trixie", arch="arm64", include=("git", "python3")).name
    assert base.name != dr.RootSpec(suite="trixie", arch="arm64", include=("python3",)).name
    assert base.name != dr.RootSpec(suite="bookworm", arch="arm64",
                                    include=("python3", "git")).name


def test_debian_root_knows_a_foreign_architecture():
    other = "arm64" if dr.host_arch() != "arm64" else "amd64"
    assert dr.RootSpec(arch=other).foreign
    assert not dr.RootSpec(arch=dr.host_arch()).foreign


def test_debian_root_refuses_to_delete_a_root_with_a_mount_below(tmp_path):
    root = tmp_path / "root"
    (root / "proc").mkdir(parents=True)
    (root / "proc" / "keep").write_text("host data seen through a bind")
    with pytest.raises(dr.RootError, match="still mounted"):
        dr.remove_root(root, io.StringIO(), mounts=lambda r: [str(r / "proc")])
    assert (root / "proc" / "keep").exists()
    dr.remove_root(root, io.StringIO(), mounts=lambda r: [])
    assert not root.exists()


def test_debian_root_mounts_below_reads_the_kernel_table():
    assert "/proc" in dr.mounts_below(Path("/proc"))
    assert dr.mounts_below(Path("/nonexistent-companion-root")) == []


def test_debian_root_proot_line_uses_r_and_qemu_never_s(monkeypatch):
    monkeypatch.setattr(dr, "qemu_for", lambda spec: "/usr/bin/qemu-aarch64-static")
    spec = dr.RootSpec(suite="trixie", arch="arm64" if dr.host_arch() != "arm64" else "amd64")
    argv = dr.proot_argv(Path("/cache/root"), spec, ["python3", "-V"], cwd="/opt/src",
                         binds=[(Path("/work/src"), "/opt/src")])
    assert argv[:6] == [sys.executable, str(ROOT / "tools/proot_syscalls.py"), "proot", "-0",
                        "-r", "/cache/root"]
    assert "-S" not in argv
    assert argv[argv.index("-q") + 1].endswith("-static")
    assert "/work/src:/opt/src" in argv
    assert argv[-4:] == ["-w", "/opt/src", "python3", "-V"]


def test_debian_root_environment_inside_has_nothing_of_the_host_python(monkeypatch):
    monkeypatch.setenv("PIP_FIND_LINKS", "/opt/wheels")
    monkeypatch.setenv("PYTHONPATH", "/host/lib")
    env = dr.inside_env({"EXTRA": "1"})
    assert env["PIP_FIND_LINKS"] == ""
    assert "PYTHONPATH" not in env
    assert env["HOME"] == "/root" and env["EXTRA"] == "1"
    assert env["PIP_CERT"] == env["SSL_CERT_FILE"] == dr.ROOT_CA_BUNDLE
    assert "pyenv" not in env["PATH"]



def test_debian_root_never_copies_a_root_with_a_mount_inside(tmp_path, monkeypatch):
    source = tmp_path / "cached"
    (source / "proc").mkdir(parents=True)
    monkeypatch.setattr(dr, "mounts_below", lambda root: [str(root / "proc")])
    with pytest.raises(dr.RootError, match="not copying"):
        dr.copy_root(source, tmp_path / "copy", io.StringIO())
    assert not (tmp_path / "copy").exists()
