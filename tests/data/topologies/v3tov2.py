#!/usr/bin/env python3
"""Rewrite an hwloc 3.0 XML export as hwloc 2.x XML (what hwloc 2.9 can import).

The two formats differ, for these fixtures, only in the version attribute and in
osdev_type: hwloc 3 writes a bitmask (1 storage, 2 memory, 4 GPU, 8 co-processor,
16 network, 32 OpenFabrics, 64 DMA), hwloc 2 an enumeration (0 block, 1 GPU,
2 network, 3 OpenFabrics, 4 DMA, 5 co-processor)."""
import re
import sys

def v2_osdev(mask):
    if mask & 32:
        return 3
    if mask & 16:
        return 2
    if mask & 8:
        return 5          # CUDA/OpenCL devices are co-processors in hwloc 2
    if mask & 4:
        return 1
    if mask & 64:
        return 4
    return 0              # storage and memory are both "block" in hwloc 2

def convert(text):
    text = text.replace('<topology version="3.0">', '<topology version="2.0">', 1)
    return re.sub(r'osdev_type="(\d+)"',
                  lambda m: 'osdev_type="%d"' % v2_osdev(int(m.group(1))), text)

if __name__ == "__main__":
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if '<topology version="3.0">' not in text:
            continue
        with open(path, "w", encoding="utf-8") as f:
            f.write(convert(text))
