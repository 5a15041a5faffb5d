#!/usr/bin/env python3
"""Build small perf.data files by hand for the tests: a header, one
software-event attr and a data section of given bytes. No features.

  perfdata.py zstd-bomb OUT [BYTE]   a COMPRESSED record whose zstd frame
                                     inflates to 1 GiB of BYTE (0 by default)
  perfdata.py sample-bomb OUT [MIB]  COMPRESSED records inflating to MIB (256)
                                     of timestamped samples, no round: all
                                     of them wait to be ordered (needs zstd)
  perfdata.py mmap-amp OUT [N [LEN]] N (150,000) MMAP2 records of one pid at
                                     one address, each a distinct LEN-byte
                                     (4,000) name, then samples in the last
                                     one, in COMPRESSED records as `lupe
                                     record -z` writes them (a zstd frame of
                                     at most 60 KiB of records each, the
                                     COMPRESSED feature's mmap_len 64 KiB)
  perfdata.py jit OUT PID NAME...    samples with callchains in an executable
                                     //anon map of PID (its symbols come from
                                     /tmp/perf-PID.map): a chain through each
                                     NAME's address (0x7f0000001000, then a
                                     page further each), leaf first
  perfdata.py bad-format IN OUT EVENT FIELD OFFSET
                                     IN with EVENT's format in the tracing
                                     data saying FIELD is at OFFSET
  perfdata.py format-text IN OUT EVENT OLD NEW
                                     IN with OLD replaced by NEW (once) in
                                     EVENT's format in the tracing data
  perfdata.py tracing-format-text IN OUT EVENT OLD NEW
                                     the same, IN a TRACING_DATA section
"""
import re
import struct
import sys

PERF_RECORD_COMPRESSED = 81


def perf_file(records, features=None, sample_type=0x107):
    attr_size = 128
    attr = struct.pack("<IIQQQQ", 1, attr_size, 0, 4000, sample_type, 0)  # cpu-clock, IP|TID|TIME|PERIOD
    attr = attr.ljust(attr_size, b"\0")
    attr_entry_size = attr_size + 16
    attrs_off = 104
    ids_off = attrs_off + attr_entry_size
    data_off = ids_off + 8
    attr_entry = attr + struct.pack("<QQ", ids_off, 8)
    features = features or {}
    bits = 0
    for f in features:
        bits |= 1 << f
    hdr = b"PERFILE2" + struct.pack("<QQ", 104, attr_entry_size)
    hdr += struct.pack("<QQQQQQ", attrs_off, attr_entry_size, data_off, len(records), 0, 0)
    hdr += struct.pack("<QQQQ", bits, 0, 0, 0)
    out = hdr + attr_entry + struct.pack("<Q", 1) + records
    # the feature sections' table after the data, then each section, by bit
    off = len(out) + 16 * len(features)
    table, body = b"", b""
    for f in sorted(features):
        table += struct.pack("<QQ", off + len(body), len(features[f]))
        body += features[f]
    return out + table + body


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


HEADER_HOSTNAME = 3
HEADER_COMPRESSED = 27


def zstd_lib():
    import ctypes
    import ctypes.util
    lib = ctypes.CDLL(ctypes.util.find_library("zstd") or "libzstd.so.1")
    lib.ZSTD_compressBound.restype = ctypes.c_size_t
    lib.ZSTD_compressBound.argtypes = [ctypes.c_size_t]
    lib.ZSTD_compress.restype = ctypes.c_size_t
    lib.ZSTD_compress.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p,
                                  ctypes.c_size_t, ctypes.c_int]
    lib.ZSTD_isError.argtypes = [ctypes.c_size_t]

    def compress(data):
        cap = lib.ZSTD_compressBound(len(data))
        buf = ctypes.create_string_buffer(cap)
        n = lib.ZSTD_compress(buf, cap, data, len(data), 1)
        if lib.ZSTD_isError(n):
            raise RuntimeError("zstd failed")
        return buf.raw[:n]
    return compress


def batched_compressed(records, compress, batch=60 << 10):
    """Records in batches of at most batch bytes, one zstd frame and one
    COMPRESSED record each (what lupe record -z writes)."""
    out, cur = [], []
    size = 0
    for r in records:
        if size + len(r) > batch and cur:
            z = compress(b"".join(cur))
            out.append(struct.pack("<IHH", PERF_RECORD_COMPRESSED, 0, 8 + len(z)) + z)
            cur, size = [], 0
        cur.append(r)
        size += len(r)
    if cur:
        z = compress(b"".join(cur))
        out.append(struct.pack("<IHH", PERF_RECORD_COMPRESSED, 0, 8 + len(z)) + z)
    return b"".join(out)


def mmap2(pid, start, length, name):
    fn = name.encode() + b"\0"
    fn += b"\0" * (-len(fn) % 8)
    body = struct.pack("<IIQQQIIQQII", pid, pid, start, length, 0, 8, 1, 1000, 0, 5, 2)
    return struct.pack("<IHH", 10, 2, 8 + len(body) + len(fn)) + body + fn


def comm(pid, name):
    c = name.encode() + b"\0"
    c += b"\0" * (-len(c) % 8)
    return struct.pack("<IHHII", 3, 0, 16 + len(c), pid, pid) + c


def mmap_amp(n, namelen):
    pid, start = 4242, 0x7f0000000000

    def recs():  # made as they are compressed: 614 MB never sit in memory at once
        yield comm(pid, "amp")
        for i in range(n):
            name = "/usr/lib/amp/lib" + "x" * (namelen - 16 - 11) + "%08d.so" % i
            yield mmap2(pid, start, 0x10000, name)
        for t in range(100):
            yield (struct.pack("<IHH", 9, 2, 40) +
                   struct.pack("<QIIQQ", start + 0x100 + t, pid, pid, 1000 + t, 1))
    compressed = struct.pack("<IIIII", 0, 1, 1, 1, 65536)
    return perf_file(batched_compressed(recs(), zstd_lib()), {HEADER_COMPRESSED: compressed})


JIT_BASE = 0x7f0000001000


def jit(pid, names):
    """Samples in an executable //anon map of pid, chains through names."""
    recs = [comm(pid, "jitted"), mmap2(pid, JIT_BASE & ~0xfff, 0x100000, "//anon")]
    ips = [JIT_BASE + i * 0x1000 + 0x10 for i in range(len(names))]
    for t in range(20):
        chain = [0xfffffffffffffe00] + ips  # PERF_CONTEXT_USER, leaf first
        body = struct.pack("<QIIQQQ", ips[0], pid, pid, 1000 + t, 1, len(chain))
        body += b"".join(struct.pack("<Q", ip) for ip in chain)
        recs.append(struct.pack("<IHH", 9, 2, 8 + len(body)) + body)
    # IP|TID|TIME|CALLCHAIN|PERIOD; a feature, so that the file reads as finished
    return perf_file(b"".join(recs), {HEADER_HOSTNAME: perf_string("lupe-test")}, sample_type=0x127)


def perf_string(text):
    b = text.encode() + b"\0"
    b += b"\0" * (-len(b) % 8)
    return struct.pack("<I", len(b)) + b


def edit_format(sec, event, edit):
    """sec (a TRACING_DATA section) with event's format text edited."""
    at = sec.find(b"name: " + event.encode() + b"\n")
    if at < 8:
        raise SystemExit("no format of %s" % event)
    flen = struct.unpack_from("<Q", sec, at - 8)[0]
    new = edit(sec[at:at + flen])
    return sec[:at - 8] + struct.pack("<Q", len(new)) + new + sec[at + flen:]


def with_tracing(data, edit_section):
    """data (a perf.data with TRACING_DATA) with that section edited."""
    data = bytearray(data)
    data_off, data_size = struct.unpack_from("<QQ", data, 40)
    feats = struct.unpack_from("<Q", data, 72)[0]
    if not feats & 2:
        raise SystemExit("no tracing data in the file")
    nfeat = bin(feats).count("1")
    table = data_off + data_size
    secs = [list(struct.unpack_from("<QQ", data, table + 16 * i)) for i in range(nfeat)]
    toff, tsize = secs[0]  # bit 1 is the lowest feature bit set (bit 0 is reserved)
    sec = edit_section(bytes(data[toff:toff + tsize]))
    delta = len(sec) - tsize
    secs[0][1] = len(sec)
    for sct in secs[1:]:
        if sct[0] > toff:
            sct[0] += delta
    out = bytearray(data[:toff]) + sec + data[toff + tsize:]
    for i, (o, sz) in enumerate(secs):
        struct.pack_into("<QQ", out, table + 16 * i, o, sz)
    return bytes(out)


def bad_format(data, event, field, offset):
    """data (a perf.data with TRACING_DATA) with event's field at offset."""
    def edit(fmt):
        new, n = re.subn(rb"(field:[^;]*[ *]" + re.escape(field.encode()) + rb"(\[[^;]*\])?;\toffset:)-?\d+;",
                         lambda m: m.group(1) + str(offset).encode() + b";", fmt)
        if n != 1:
            raise SystemExit("no field %s in the format of %s" % (field, event))
        return new
    return with_tracing(data, lambda sec: edit_format(sec, event, edit))


def format_text(data, event, old, new, section=False):
    """data (a perf.data, or a TRACING_DATA section) with old replaced by new once in event's format."""
    def edit(fmt):
        if fmt.count(old.encode()) < 1:
            raise SystemExit("no %r in the format of %s" % (old, event))
        return fmt.replace(old.encode(), new.encode(), 1)
    if section:
        return edit_format(data, event, edit)
    return with_tracing(data, lambda sec: edit_format(sec, event, edit))


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
    if len(sys.argv) >= 3 and sys.argv[1] == "mmap-amp":
        n = int(sys.argv[3]) if len(sys.argv) > 3 else 150000
        namelen = int(sys.argv[4]) if len(sys.argv) > 4 else 4000
        with open(sys.argv[2], "wb") as f:
            f.write(mmap_amp(n, namelen))
        return 0
    if len(sys.argv) >= 4 and sys.argv[1] == "jit":
        with open(sys.argv[2], "wb") as f:
            f.write(jit(int(sys.argv[3]), sys.argv[4:] or ["f"]))
        return 0
    if len(sys.argv) == 7 and sys.argv[1] == "bad-format":
        with open(sys.argv[2], "rb") as f:
            data = f.read()
        with open(sys.argv[3], "wb") as f:
            f.write(bad_format(data, sys.argv[4], sys.argv[5], int(sys.argv[6])))
        return 0
    if len(sys.argv) == 7 and sys.argv[1] in ("format-text", "tracing-format-text"):
        with open(sys.argv[2], "rb") as f:
            data = f.read()
        with open(sys.argv[3], "wb") as f:
            f.write(format_text(data, sys.argv[4], sys.argv[5], sys.argv[6],
                                sys.argv[1] == "tracing-format-text"))
        return 0
    sys.stderr.write(__doc__)
    return 129


if __name__ == "__main__":
    sys.exit(main())
