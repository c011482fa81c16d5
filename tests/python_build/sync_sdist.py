"""Unpacks an sdist (argv[1]) under a folder (argv[2]) as rsync would: a file is written only
where its bytes differ from the unpacked one, and files the sdist no longer has are removed.
The files' modification times then change only with their content, so cargo's fingerprints
(which compare them) rebuild exactly what changed, while the sdist's own times (fixed by
maturin) could hide a change. Prints the unpacked project's folder."""

import sys
import tarfile
from pathlib import Path

tarball, dest = Path(sys.argv[1]), Path(sys.argv[2])
with tarfile.open(tarball) as tar:
    files = [m for m in tar.getmembers() if m.isfile()]
    tops = {m.name.split("/", 1)[0] for m in files}
    if len(tops) != 1 or any(".." in Path(m.name).parts or Path(m.name).is_absolute() for m in files):
        sys.exit(f"{tarball}: not one top folder of relative paths ({sorted(tops)})")
    project = dest / tops.pop()
    keep = set()
    for m in files:
        path = dest / m.name
        keep.add(path)
        data = tar.extractfile(m).read()
        if path.is_file() and path.read_bytes() == data:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
for path in sorted(project.rglob("*"), reverse=True):
    if path.is_file() and path not in keep:
        path.unlink()
    elif path.is_dir() and not any(path.iterdir()):
        path.rmdir()
print(project)
