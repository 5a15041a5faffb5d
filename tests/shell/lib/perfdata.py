#!/usr/bin/env python3
"""Build small perf.data files by hand for the tests: a header, one
software-event attr and a data section of given bytes. No features.

  perfdata.py zstd-bomb OUT [BYTE]   a COMPRESSED record whose zstd frame
                                     inflates to 1 GiB of BYTE (0 by default)
  perfdata.py sample-bomb OUT [MIB]  COMPRESSED records inflating to MIB (256)
                                     of timestamped samples, no round: all
                                     of them wait to be ordered (needs zstd)
"""
import struct
import sys

PERF_RECORD_COMPRESSED = 81


def perf_file(records):
    attr_size = 128
    attr = struct.pack("<IIQQQQ", 1, attr_size, 0, 4000, 0x107, 0)  # cpu-clock, IP|TID|TIME|PERIOD
    attr = attr.ljust(attr_size, b"\0")
    attr_entry_size = attr_size + 16
    attrs_off = 104
    ids_off = attrs_off + attr_entry_size
    data_off = ids_off + 8
    attr_entry = attr + struct.pack("<QQ", ids_off, 8)
    hdr = b"PERFILE2" + struct.pack("<QQ", 104, attr_entry_size)
    hdr += struct.pack("<QQQQQQ", attrs_off, attr_entry_size, data_off, len(records), 0, 0)
    hdr += b"\0" * 32
    return hdr + attr_entry + struct.pack("<Q", 1) + records


def zstd_rle_frame(total, byte):
    """A zstd frame of RLE blocks: 4 bytes per 128 KiB of output."""
    out = struct.pack("<IBB", 0xFD2FB528, 0x00, (17 - 10) << 3)
    block = 128 * 1024
    n = total // block
    for i in range(n):
        last = 1 if i == n - 1 else 0
        bh = last | (1 << 1) | (block << 3)
        out += struct.pack("<I", bh)[:3] + bytes([byte])
    return out


def compressed_records(frame):
    """Cut a zstd frame into COMPRESSED records of at most 64 KiB."""
    out = b""
    step = 65535 - 8 - 7
    for i in range(0, len(frame), step):
        chunk = frame[i:i + step]
        out += struct.pack("<IHH", PERF_RECORD_COMPRESSED, 0, 8 + len(chunk)) + chunk
    return out


def sample_stream(nbytes):
    """nbytes of one timestamped SAMPLE record repeated (no FINISHED_ROUND)."""
    rec = struct.pack("<IHH", 9, 2, 40) + struct.pack("<QIIQQ", 0x401000, 7, 7, 1000, 1)
    return rec * (nbytes // len(rec))


def zstd_frame(data):
    import subprocess
    return subprocess.run(["zstd", "-q", "-1", "-c"], input=data, check=True,
                          stdout=subprocess.PIPE).stdout


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "sample-bomb":
        mib = int(sys.argv[3]) if len(sys.argv) > 3 else 256
        data = compressed_records(zstd_frame(sample_stream(mib << 20)))
        with open(sys.argv[2], "wb") as f:
            f.write(perf_file(data))
        return 0
    if len(sys.argv) >= 3 and sys.argv[1] == "zstd-bomb":
        byte = int(sys.argv[3], 0) if len(sys.argv) > 3 else 0
        data = compressed_records(zstd_rle_frame(1 << 30, byte))
        with open(sys.argv[2], "wb") as f:
            f.write(perf_file(data))
        return 0
    sys.stderr.write(__doc__)
    return 129


if __name__ == "__main__":
    sys.exit(main())
