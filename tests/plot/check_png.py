# SPDX-License-Identifier: Apache-2.0
"""check_png.py FILE.png - the screenshot of the Llama timeline shows a drawing: the
capacity line's red (#d62728) and the curve's blue (#1f5fbf) are both there, and most
of it is the white background. A small PNG reader (8-bit RGB/RGBA, the five filters),
so that no imaging package is needed."""

import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), "8-bit RGB or RGBA expected"
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def near(px, rgb, tol=40):
    return all(abs(px[k] - rgb[k]) <= tol for k in range(3))


path = sys.argv[1]
try:
    w, h, bpp, rows = read_png(path)
except (OSError, AssertionError, zlib.error) as err:
    print("FAIL plot/render: %s: %s" % (path, err))
    sys.exit(1)
counts = {"white": 0, "red": 0, "blue": 0}
for row in rows:
    for x in range(0, w * bpp, bpp):
        px = row[x:x + 3]
        if near(px, (255, 255, 255), 8):
            counts["white"] += 1
        elif near(px, (0xD6, 0x27, 0x28)):
            counts["red"] += 1
        elif near(px, (0x1F, 0x5F, 0xBF)):
            counts["blue"] += 1
total = w * h
ok = (w, h) == (960, 420) and counts["red"] > 200 and counts["blue"] > 500 and counts["white"] > total // 2
print("plot: rendered %s (%dx%d): %d red, %d blue, %d white pixels: %s"
      % (path, w, h, counts["red"], counts["blue"], counts["white"], "1 passed, 0 failed" if ok else "0 passed, 1 failed"))
sys.exit(0 if ok else 1)
