"""The 100,000-asset libraries of the first-screen benchmark, made once and kept for later runs.

Each library is a folder holding the newest 120 assets as real 12-MP files, and an index
(made by `assets-picker index`) to which 99,880 older assets are then added as rows, as the
index benchmark's synthetic index does (Sources/assets-picker-index-bench/SyntheticIndex.swift):
the grid opens newest first, so every cell of a first screen is a real file, and the rest of the
timeline is there for the index's queries and counts. Served with `--no-watch`, so that no rescan
drops the rows whose files do not exist.

The 120 photos are `assets-picker-bench`'s corpus (camera-like 4000x3000 JPEGs, quality 90,
EXIF with make, model, date and a 160-pixel IFD1 thumbnail, every fourth one stored sideways with
orientation 6). The variants take them as they are (`exif`), with the IFD1 thumbnail unlinked
(`plain`: the EXIF stays, the thumbnail is no longer reachable) or re-encoded as HEIC with a
320x240 thumbnail item, as an iPhone stores one (`heif-enc` from Debian's libheif-examples, x265's
ultrafast preset: ~2 s of a core a file where libvips' heifsave takes ~20 s; heif-enc writes no
rotation, so the sideways ones stay sideways, which costs the same to show):

- jpeg-half-exif: every other one plain (the issue's library);
- jpeg-exif, jpeg-plain, heic: all alike;
- mix: exif, plain and HEIC in turn.

`assets-picker index` returns once it has made the previews of the newest photos (a first
screen's worth, `--newest-previews`); `index --previews` then makes those of every photo without
an EXIF thumbnail (beside the index, `<variant>-previews/`) as it would for anyone's library. Each
library is kept in both states: `<variant>.sqlite` with its previews made, and
`<variant>-just-indexed.sqlite` (with `<variant>-just-indexed-previews/`), the index as `index`
left it (a server started on it makes the rest in the background, newest first). The benchmark serves each run on a copy.
"""

import json
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
import time
import uuid
from pathlib import Path

RECENT = 120
TOTAL = 100_000
VARIANTS = {
    "jpeg-half-exif": lambda i: "exif" if i % 2 == 0 else "plain",
    "jpeg-exif": lambda i: "exif",
    "jpeg-plain": lambda i: "plain",
    "heic": lambda i: "heic",
    "mix": lambda i: ("exif", "plain", "heic")[i % 3],
}
FORMAT_VERSION = 4  # bumped when the way a library is made changes, so that old ones are made again


def log(message):
    print(f"bench-web: {message}", file=sys.stderr, flush=True)


def workdir():
    """Where the libraries are kept between runs: $TMPDIR/assets-picker-bench-web."""
    return Path(os.environ.get("TMPDIR", "/tmp")) / "assets-picker-bench-web"


def camera_corpus(bench_binary, root):
    """The 120 camera-like JPEGs, made by `assets-picker-bench` (which reuses a matching corpus
    and times its thumbnails, briefly, as a side effect)."""
    folder = root / "camera"
    corpus = folder / "corpus"
    photos = [corpus / f"IMG_{index + 1:04d}.jpg" for index in range(RECENT)]
    if not all(p.exists() for p in photos):
        log(f"making {RECENT} 12-MP camera JPEGs with {bench_binary.name} in {folder}")
        subprocess.run([str(bench_binary), "--images", str(RECENT), "--workdir", str(folder), "--runs", "1",
                        "--magick-images", "1", "--iterations", "1", "--no-cache-hits", "--no-export", "--no-peak-rss"],
                       check=True, stdout=subprocess.DEVNULL)
    return photos


def without_exif_thumbnail(jpeg):
    """`jpeg` with IFD0's link to IFD1 (the thumbnail's directory) set to zero: the EXIF stays,
    the thumbnail is unreachable, as in a camera's file that has none."""
    data = bytearray(jpeg)
    position = 2
    while position + 4 <= len(data) and data[position] == 0xFF:
        marker, length = data[position + 1], struct.unpack(">H", data[position + 2:position + 4])[0]
        if marker == 0xE1 and data[position + 4:position + 10] == b"Exif\0\0":
            tiff = position + 10
            order = "<" if data[tiff:tiff + 2] == b"II" else ">"
            ifd0 = tiff + struct.unpack(order + "I", data[tiff + 4:tiff + 8])[0]
            entries = struct.unpack(order + "H", data[ifd0:ifd0 + 2])[0]
            link = ifd0 + 2 + 12 * entries
            data[link:link + 4] = b"\0\0\0\0"
            return bytes(data)
        if marker == 0xDA:
            break
        position += 2 + length
    raise ValueError("no EXIF APP1 segment")


def encode_heic(photos, root):
    """The HEIC re-encodings of `photos`, each with a 320-pixel thumbnail item, made by heif-enc
    (one per core) unless kept in root/heic-thumbnail already; answers their paths."""
    folder = root / "heic-thumbnail"
    folder.mkdir(parents=True, exist_ok=True)
    targets = [folder / (photo.stem + ".heic") for photo in photos]
    missing = [(photo, target) for photo, target in zip(photos, targets) if not target.exists()]
    if missing:
        log(f"encoding {len(missing)} HEIC files with heif-enc (once; kept in {folder})")
    width = os.cpu_count() or 2
    for start in range(0, len(missing), width):
        batch = [(subprocess.Popen(["heif-enc", "--quality", "80", "-p", "preset=ultrafast", "--thumb", "320",
                                    "-o", str(target.with_suffix(".partial.heic")), str(photo)],
                                   stdout=subprocess.DEVNULL), target)
                 for photo, target in missing[start:start + width]]
        for process, target in batch:
            if process.wait():
                raise RuntimeError(f"heif-enc could not encode {target.name}")
            target.with_suffix(".partial.heic").rename(target)
    return targets


def just_indexed(index):
    """The copy of `index` taken when `assets-picker index` returned, before any preview was made."""
    return index.with_name(index.stem + "-just-indexed.sqlite")


def previews_folder(index):
    """The previews `assets-picker index` made for `index` (the PreviewStore rule)."""
    return index.with_name(index.stem + "-previews")


def make_files(variant, photos, root, folder):
    kinds = [VARIANTS[variant](i) for i in range(len(photos))]
    heics = dict(zip([i for i, kind in enumerate(kinds) if kind == "heic"],
                     encode_heic([photos[i] for i, kind in enumerate(kinds) if kind == "heic"], root)))
    camera = folder / "DCIM" / "100CAMERA"
    camera.mkdir(parents=True)
    for i, (photo, kind) in enumerate(zip(photos, kinds)):
        if kind == "exif":
            os.link(photo, camera / photo.name)
        elif kind == "plain":
            (camera / photo.name).write_bytes(without_exif_thumbnail(photo.read_bytes()))
        else:
            os.link(heics[i], camera / heics[i].name)


def add_older_rows(index, count, seed=20):
    """Adds `count` photo and video rows older than every asset already indexed, spread over
    the ten years before the oldest, in bursts, in a folder of their own (files not on disk)."""
    import random
    rng = random.Random(seed)
    db = sqlite3.connect(index)
    try:
        oldest = db.execute("SELECT MIN(creationDate) FROM asset").fetchone()[0]
        db.execute("INSERT INTO directory (relativePath, uuid) VALUES (?, ?)", ("Archive", uuid.UUID(int=rng.getrandbits(128)).bytes))
        directory = db.execute("SELECT id FROM directory WHERE relativePath = 'Archive'").fetchone()[0]
        newest = oldest - 86_400
        step = 10 * 365 * 86_400 / count
        date = newest - 10 * 365 * 86_400
        now = time.time()
        rows = []
        for index_ in range(count):
            date += rng.randrange(30) if rng.random() < 0.7 else step * 3 * rng.random()
            video = rng.random() < 0.05
            name = f"IMG_{index_:06d}.{'MOV' if video else 'JPG'}"
            rows.append((uuid.UUID(int=rng.getrandbits(128)).bytes, f"Archive/{name}", directory, name, 1 if video else 0,
                         4032, 3024, min(date, newest), 0, 40_000_000 if video else 2_500_000, 12.5 if video else None,
                         "mov" if video else "jpeg", f"synthetic:{index_}", rng.random() < 0.03, now - 365 * 86_400))
        db.executemany("""INSERT INTO asset (uuid, relativePath, directoryId, filename, mediaType, pixelWidth, pixelHeight,
                              creationDate, creationDateSource, modificationTime, byteSize, duration, format, fingerprint,
                              isFavorite, addedAt)
                          VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'exif', ?, ?, ?, ?, ?, ?, ?)""", rows)
        db.commit()
        return db.execute("SELECT COUNT(*), SUM(hasEmbeddedThumbnail) FROM asset").fetchone()
    finally:
        db.close()


def prepare(variant, binary, bench_binary):
    """The library folder and index of `variant`, made unless a complete one is kept already."""
    root = workdir()
    folder, index = root / "libraries" / variant, root / "libraries" / f"{variant}.sqlite"
    done = root / "libraries" / f"{variant}.json"
    specification = {"version": FORMAT_VERSION, "recent": RECENT, "total": TOTAL}
    if done.exists() and json.loads(done.read_text()).get("specification") == specification and index.exists():
        return folder, index, json.loads(done.read_text())
    photos = camera_corpus(bench_binary, root)
    for stale in (folder, index, just_indexed(index), done, previews_folder(index), previews_folder(just_indexed(index))):
        shutil.rmtree(stale, ignore_errors=True) if stale.is_dir() else stale.unlink(missing_ok=True)
    for suffix in ("-wal", "-shm"):
        Path(str(index) + suffix).unlink(missing_ok=True)
    log(f"making the {variant} library in {folder}")
    make_files(variant, photos, root, folder)
    subprocess.run([str(binary), "index", str(folder), "--index", str(index), "--json"], check=True, stdout=subprocess.DEVNULL)
    # The index as `index` left it (the newest photos' previews made, the others' to come), and the
    # same once `index --previews` made them all.
    shutil.copyfile(index, just_indexed(index))
    if previews_folder(index).exists():
        shutil.copytree(previews_folder(index), previews_folder(just_indexed(index)))
    indexed = json.loads(subprocess.run([str(binary), "index", str(folder), "--index", str(index), "--previews", "--json"],
                                        check=True, stdout=subprocess.PIPE).stdout)
    add_older_rows(just_indexed(index), TOTAL - RECENT)
    assets, embedded = add_older_rows(index, TOTAL - RECENT)
    summary = {"specification": specification, "assets": assets, "withEmbeddedThumbnail": embedded or 0,
               "previews": indexed["previews"]["made"],
               "files": {kind: sum(1 for i in range(RECENT) if VARIANTS[variant](i) == kind) for kind in ("exif", "plain", "heic")}}
    done.write_text(json.dumps(summary))
    return folder, index, summary
