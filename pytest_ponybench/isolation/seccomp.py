"""A seccomp filter for everything that runs inside a cell: the agent's process tree and the scorer.

Capabilities are already gone inside the confinement (`bwrap --cap-drop ALL` in a user
namespace), so most of what this filter refuses would fail anyway; it is the second wall, and
the only one for what needs no capability at all: ptrace and the process_vm_* calls between
processes of the same uid (a hook reading claude's memory, a check's import reading the warm
scorer's), the kernel keyring shared by a uid, userfaultfd and io_uring (seccomp cannot see the
operations an io_uring carries out), and namespace creation where bwrap cannot disable user
namespaces itself.

The program is classic BPF as `bwrap --seccomp FD` takes it (what libseccomp's
`seccomp_export_bpf` writes): an array of `struct sock_filter`. Refused calls fail with EPERM
(ENOSYS for clone3 and io_uring, which callers treat as "not supported here" and fall back);
any other architecture's calls (i386 through int 0x80 on x86_64, the x32 ABI) all fail.
"""

from __future__ import annotations

import errno
import platform
import struct

__all__ = ["NAMESPACE_FLAGS", "REFUSED", "RET_ALLOW", "RET_ERRNO", "UNSUPPORTED", "program"]

# Classic BPF opcodes (linux/filter.h) and seccomp return values (linux/seccomp.h).
_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_JSET_K = 0x45
_RET_K = 0x06
RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
_NR_OFFSET, _ARCH_OFFSET, _ARG0_OFFSET = 0, 4, 16
_X32_BIT = 0x40000000

# clone(2) flags that create a namespace; clone's first argument on both architectures.
NAMESPACE_FLAGS = 0x10000000 | 0x20000 | 0x20000000 | 0x40000000 | 0x08000000 | 0x04000000 | 0x02000000

REFUSED = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    "pidfd_getfd",
    "open_by_handle_at",
    "name_to_handle_at",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "move_mount",
    "open_tree",
    "mount_setattr",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "bpf",
    "perf_event_open",
    "keyctl",
    "add_key",
    "request_key",
    "userfaultfd",
    "acct",
    "quotactl",
    "syslog",
    "reboot",
    "swapon",
    "swapoff",
)
UNSUPPORTED = ("clone3", "io_uring_setup", "io_uring_enter", "io_uring_register")

# Calls added since Linux 5.1 have one number on every architecture (the unified table).
_UNIFIED = {
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "clone3": 435,
    "pidfd_getfd": 438,
    "mount_setattr": 442,
}

# Syscall numbers: x86_64 (arch/x86/entry/syscalls/syscall_64.tbl) and aarch64 (asm-generic).
_NUMBERS: dict[str, tuple[int, dict[str, int]]] = {
    "x86_64": (
        0xC000003E,
        {
            "clone": 56,
            "ptrace": 101,
            "syslog": 103,
            "chroot": 161,
            "acct": 163,
            "mount": 165,
            "umount2": 166,
            "swapon": 167,
            "swapoff": 168,
            "reboot": 169,
            "init_module": 175,
            "delete_module": 176,
            "quotactl": 179,
            "pivot_root": 155,
            "kexec_load": 246,
            "add_key": 248,
            "request_key": 249,
            "keyctl": 250,
            "unshare": 272,
            "perf_event_open": 298,
            "name_to_handle_at": 303,
            "open_by_handle_at": 304,
            "setns": 308,
            "process_vm_readv": 310,
            "process_vm_writev": 311,
            "kcmp": 312,
            "finit_module": 313,
            "kexec_file_load": 320,
            "bpf": 321,
            "userfaultfd": 323,
            **_UNIFIED,
        },
    ),
    "aarch64": (
        0xC00000B7,
        {
            "umount2": 39,
            "mount": 40,
            "pivot_root": 41,
            "chroot": 51,
            "quotactl": 60,
            "acct": 89,
            "unshare": 97,
            "kexec_load": 104,
            "init_module": 105,
            "delete_module": 106,
            "syslog": 116,
            "ptrace": 117,
            "reboot": 142,
            "add_key": 217,
            "request_key": 218,
            "keyctl": 219,
            "clone": 220,
            "swapon": 224,
            "swapoff": 225,
            "perf_event_open": 241,
            "name_to_handle_at": 264,
            "open_by_handle_at": 265,
            "setns": 268,
            "process_vm_readv": 270,
            "process_vm_writev": 271,
            "kcmp": 272,
            "finit_module": 273,
            "bpf": 280,
            "userfaultfd": 282,
            "kexec_file_load": 294,
            **_UNIFIED,
        },
    ),
}


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> tuple[int, int, int, int]:
    return (code, jt, jf, k)


def program(machine: str | None = None) -> bytes | None:
    """The filter for this machine's architecture, or None where it has no table here (the
    confinement then runs without it, and says so)."""
    arch = _NUMBERS.get(machine or platform.machine())
    if arch is None:
        return None
    audit_arch, numbers = arch
    refused = [numbers[name] for name in REFUSED]
    unsupported = [numbers[name] for name in UNSUPPORTED]
    # Layout: header, one JEQ per refused and per unsupported number, the clone check, then
    # the three returns. Jumps are relative to the next instruction, so each is computed from
    # the instruction's index and the label's.
    checks = len(refused) + len(unsupported)
    x86 = audit_arch == 0xC000003E
    header = 3 + (1 if x86 else 0)
    clone_at = header + checks
    allow_at = clone_at + 4
    eperm_at, enosys_at = allow_at + 1, allow_at + 2
    out: list[tuple[int, int, int, int]] = [
        _insn(_LD_W_ABS, _ARCH_OFFSET),
        _insn(_JEQ_K, audit_arch, 0, eperm_at - 2),  # a foreign architecture: every call refused
        _insn(_LD_W_ABS, _NR_OFFSET),
    ]
    if x86:
        out.append(_insn(_JGE_K, _X32_BIT, eperm_at - 4, 0))
    for nr in refused:
        here = len(out)
        out.append(_insn(_JEQ_K, nr, eperm_at - here - 1, 0))
    for nr in unsupported:
        here = len(out)
        out.append(_insn(_JEQ_K, nr, enosys_at - here - 1, 0))
    out += [
        _insn(_JEQ_K, numbers["clone"], 0, allow_at - clone_at - 1),
        _insn(_LD_W_ABS, _ARG0_OFFSET),  # low 32 bits of the flags (little endian)
        _insn(_JSET_K, NAMESPACE_FLAGS, eperm_at - clone_at - 3, 0),
        _insn(_RET_K, RET_ALLOW),
    ]
    assert len(out) == allow_at
    out += [
        _insn(_RET_K, RET_ALLOW),
        _insn(_RET_K, RET_ERRNO | errno.EPERM),
        _insn(_RET_K, RET_ERRNO | errno.ENOSYS),
    ]
    return b"".join(struct.pack("<HBBI", *insn) for insn in out)
