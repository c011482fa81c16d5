"""Checks a glsolve wheel as a file (argv[1]; argv[2] is the repository root, argv[3] the
manylinux tag it must carry): its name and WHEEL tags (CPython abi3, a manylinux platform no
newer than the one asked), its METADATA (description, URLs, license, extras), the license
files, and the libraries the extension links (libEGL is opened at run time, never linked).
Prints what it read; exits non-zero with the reason otherwise."""

import re
import struct
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

wheel, repo, manylinux = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]


def fail(why):
    sys.exit(f"{wheel.name}: {why}")


def needed_libraries(elf):
    """DT_NEEDED of an ELF64 little-endian shared object: the libraries the loader opens
    with it."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        fail("the extension is not an ELF64 little-endian object")
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + k * shentsize) for k in range(shnum)]
    SHT_DYNAMIC, DT_NEEDED = 6, 1
    names = []
    for sec in sections:
        if sec[1] != SHT_DYNAMIC:
            continue
        strtab = sections[sec[6]]  # sh_link: the section of the names
        for off in range(sec[4], sec[4] + sec[5], 16):
            tag, value = struct.unpack_from("<qQ", elf, off)
            if tag == DT_NEEDED:
                start = strtab[4] + value
                names.append(elf[start:elf.index(b"\0", start)].decode())
    return names


# The file name: {name}-{version}-{python}-{abi}-{platform}.whl
name, version, py_tag, abi_tag, platform = wheel.name[: -len(".whl")].split("-")
m = re.fullmatch(r"manylinux_(\d+)_(\d+)_x86_64", platform)
want = tuple(int(v) for v in re.fullmatch(r"manylinux_(\d+)_(\d+)", manylinux).groups())
if name != "glsolve" or py_tag != "cp39" or abi_tag != "abi3" or not m:
    fail(f"tags {py_tag}-{abi_tag}-{platform}: expected cp39-abi3-manylinux_X_Y_x86_64")
if (int(m.group(1)), int(m.group(2))) > want:
    fail(f"platform {platform} is newer than {manylinux}")
with zipfile.ZipFile(wheel) as z:
    info = f"glsolve-{version}.dist-info"
    files = set(z.namelist())
    tags = Parser().parsestr(z.read(f"{info}/WHEEL").decode())
    if tags.get_all("Tag") != [f"{py_tag}-{abi_tag}-{platform}"] or tags["Root-Is-Purelib"] != "false":
        fail(f"WHEEL says {tags.get_all('Tag')}, Root-Is-Purelib {tags['Root-Is-Purelib']}")
    meta = Parser().parsestr(z.read(f"{info}/METADATA").decode())
    description = meta.get_payload()
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    extras = set(meta.get_all("Provides-Extra") or [])
    checks = {
        "a description (the Python README)": "A drop-in for scipy.optimize.linprog" in description,
        "its content type": meta["Description-Content-Type"].startswith("text/markdown"),
        "the repository URL": urls.get("Repository", "").startswith("https://"),
        "the license expression": meta["License-Expression"] == "MIT OR Apache-2.0",
        "the extras cvxpy and scipy": {"cvxpy", "scipy"} <= extras,
        "numpy as the only requirement without extras":
            [r for r in meta.get_all("Requires-Dist") if "extra ==" not in r] == ["numpy>=1.21"],
    }
    for lic in ("LICENSE-MIT", "LICENSE-APACHE"):
        checks[f"{lic}, the repository's"] = z.read(f"{info}/licenses/{lic}") == (repo / lic).read_bytes()
    missing = [what for what, ok in checks.items() if not ok]
    if missing:
        fail(f"METADATA or licenses lack {missing}")
    so = [f for f in files if re.fullmatch(r"glsolve/_glsolve\.abi3\.so", f)]
    if len(so) != 1 or "glsolve/__init__.py" not in files:
        fail(f"the package files are not there: {sorted(files)}")
    needed = needed_libraries(z.read(so[0]))
    system = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libgcc_s.so.1",
              "ld-linux-x86-64.so.2"}
    if not set(needed) <= system:
        fail(f"the extension links {sorted(set(needed) - system)} beyond glibc's own libraries")
print(f"wheel {wheel.name}: Tag {tags['Tag']}; extension links {', '.join(needed)}; "
      f"Project-URLs {', '.join(sorted(urls))}; extras {', '.join(sorted(extras))}; "
      f"licenses LICENSE-MIT, LICENSE-APACHE; description {len(description)} characters")
