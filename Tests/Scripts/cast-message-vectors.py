#!/usr/bin/env python3
"""Test vectors for the CastMessage codec, made by Google's protobuf (the `protobuf` package).

    cast-message-vectors.py [--seed N] [--count N] OUT.json

Builds CastMessage (Chromium's cast_channel.proto: nine fields, proto2) from a descriptor made
here, checks that it encodes as pychromecast's generated cast_channel_pb2 does for the seven
fields that one has, and writes three kinds of vectors, each with Google's verdict:

- "encode": a random message and the bytes Google's encoder writes for it (the codec must
  write the same bytes and read them back to the same message);
- "decode": the fields of a random message written in a random order, some twice (the last
  counts), among unknown fields of every wire type; Google's reading of them;
- "verdict": a valid message cut short or with a byte changed: whether Google's parser takes
  it, and what it reads. Strings that are not UTF-8 are marked: Google's proto2 parser takes
  them, the codec refuses them (a receiver's ids, namespace and JSON are text); so are
  messages without a required field, which Google's Python parser reads without checking.

Each message is {"fields": {...}} with bytes as hex and absent optional fields left out.
"""
import argparse
import json
import random
import sys

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError

F = descriptor_pb2.FieldDescriptorProto


def message_class():
    fdp = descriptor_pb2.FileDescriptorProto(name="cast_channel_vectors.proto", package="vectors", syntax="proto2")
    m = fdp.message_type.add(name="CastMessage")
    version = m.enum_type.add(name="ProtocolVersion")
    for i, name in enumerate(["CASTV2_1_0", "CASTV2_1_1", "CASTV2_1_2", "CASTV2_1_3"]):
        version.value.add(name=name, number=i)
    payload = m.enum_type.add(name="PayloadType")
    payload.value.add(name="STRING", number=0)
    payload.value.add(name="BINARY", number=1)
    fields = [
        ("protocol_version", 1, F.LABEL_REQUIRED, F.TYPE_ENUM, ".vectors.CastMessage.ProtocolVersion"),
        ("source_id", 2, F.LABEL_REQUIRED, F.TYPE_STRING, None),
        ("destination_id", 3, F.LABEL_REQUIRED, F.TYPE_STRING, None),
        ("namespace", 4, F.LABEL_REQUIRED, F.TYPE_STRING, None),
        ("payload_type", 5, F.LABEL_REQUIRED, F.TYPE_ENUM, ".vectors.CastMessage.PayloadType"),
        ("payload_utf8", 6, F.LABEL_OPTIONAL, F.TYPE_STRING, None),
        ("payload_binary", 7, F.LABEL_OPTIONAL, F.TYPE_BYTES, None),
        ("continued", 8, F.LABEL_OPTIONAL, F.TYPE_BOOL, None),
        ("remaining_length", 9, F.LABEL_OPTIONAL, F.TYPE_UINT32, None),
    ]
    for name, number, label, kind, type_name in fields:
        f = m.field.add(name=name, number=number, label=label, type=kind)
        if type_name:
            f.type_name = type_name
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("vectors.CastMessage"))


CastMessage = message_class()
NAMES = ["protocol_version", "source_id", "destination_id", "namespace", "payload_type", "payload_utf8",
         "payload_binary", "continued", "remaining_length"]
OPTIONAL = NAMES[5:]


def random_text(rng: random.Random) -> str:
    pools = ["sender-0", "receiver-0", "*", "urn:x-cast:com.google.cast.receiver",
             '{"type":"GET_STATUS","requestId":1}', "", "\u00e9\u4e2d\U0001F4FA", "\x00\x1b[2J", "a" * 300]
    if rng.random() < 0.5:
        return rng.choice(pools)
    alphabet = [chr(c) for c in range(0x20, 0x7f)] + ["\u00e9", "\u4e2d", "\U0001F600", "\n", "\x00", "\u202e"]
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))


def random_message(rng: random.Random):
    m = CastMessage()
    m.protocol_version = rng.randrange(4)
    m.source_id = random_text(rng)
    m.destination_id = random_text(rng)
    m.namespace = random_text(rng)
    m.payload_type = rng.randrange(2)
    if rng.random() < 0.7:
        m.payload_utf8 = random_text(rng)
    if rng.random() < 0.3:
        m.payload_binary = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 60)))
    if rng.random() < 0.3:
        m.continued = rng.random() < 0.5
    if rng.random() < 0.3:
        m.remaining_length = rng.choice([0, 1, 127, 128, 65536, 2**32 - 1, rng.randrange(2**32)])
    return m


def fields(m) -> dict:
    out = {}
    for name in NAMES:
        if name in OPTIONAL and not m.HasField(name):
            continue
        value = getattr(m, name)
        out[name] = value.hex() if isinstance(value, bytes) else value
    return out


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def unknown_field(rng: random.Random) -> bytes:
    number = rng.choice([10, 15, 16, 100, 2047, 2**29 - 1])
    wire = rng.choice([0, 1, 2, 5])
    tag = varint(number << 3 | wire)
    if wire == 0:
        return tag + varint(rng.choice([0, 1, 300, 2**63]))
    if wire == 1:
        return tag + bytes(rng.randrange(256) for _ in range(8))
    if wire == 5:
        return tag + bytes(rng.randrange(256) for _ in range(4))
    body = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 20)))
    return tag + varint(len(body)) + body


def one_field(m, name) -> bytes:
    single = CastMessage()
    setattr(single, name, getattr(m, name))
    return single.SerializePartialToString()


def shuffled_bytes(rng: random.Random) -> bytes:
    first, last = random_message(rng), random_message(rng)
    parts = []
    for name in NAMES:
        if name not in OPTIONAL or last.HasField(name):
            if rng.random() < 0.3 and (name not in OPTIONAL or first.HasField(name)):
                parts.append(("early", one_field(first, name)))  # overwritten below: the last counts
            parts.append(("late", one_field(last, name)))
    parts += [("any", unknown_field(rng)) for _ in range(rng.randrange(0, 4))]
    early = [p for k, p in parts if k == "early"]
    rest = [p for k, p in parts if k != "early"]
    rng.shuffle(early)
    rng.shuffle(rest)
    return b"".join(early + rest)


def google_reads(data: bytes):
    m = CastMessage()
    try:
        m.ParseFromString(data)
    except DecodeError:
        return None
    return m


def is_utf8(m) -> bool:
    # For a proto2 string that is not UTF-8, Google's Python gives the bytes instead of a str.
    return all(isinstance(getattr(m, name), str) for name in ("source_id", "destination_id", "namespace", "payload_utf8"))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("out")
    args = ap.parse_args()
    rng = random.Random(args.seed)

    # The descriptor here writes what pychromecast's generated code writes, for its fields.
    try:
        from pychromecast.generated import cast_channel_pb2
        for _ in range(50):
            m = random_message(rng)
            for name in ("continued", "remaining_length"):
                m.ClearField(name)
            m.protocol_version = 0  # its enum has CASTV2_1_0 only
            theirs = cast_channel_pb2.CastMessage()
            theirs.ParseFromString(m.SerializeToString())
            assert theirs.SerializeToString() == m.SerializeToString(), "descriptor differs from pychromecast's"
    except ImportError:
        print("cast-message-vectors: pychromecast not installed; its generated code not compared", file=sys.stderr)

    vectors = []
    for _ in range(args.count):
        m = random_message(rng)
        vectors.append({"kind": "encode", "bytes": m.SerializeToString().hex(), "message": fields(m)})
    for _ in range(args.count):
        data = shuffled_bytes(rng)
        m = google_reads(data)
        assert m is not None
        vectors.append({"kind": "decode", "bytes": data.hex(), "message": fields(m)})
    for _ in range(args.count):
        good = random_message(rng).SerializeToString()
        if rng.random() < 0.5:
            data = good[:rng.randrange(len(good))]
        else:
            data = bytearray(good)
            i = rng.randrange(len(data))
            data[i] = rng.randrange(256)
            data = bytes(data)
        m = google_reads(data)
        entry = {"kind": "verdict", "bytes": data.hex(), "googleAccepts": m is not None}
        if m is not None:
            # Google's Python parser does not check proto2's required fields; its
            # IsInitialized() says whether they are all there.
            entry["utf8"] = is_utf8(m)
            entry["requiredPresent"] = m.IsInitialized()
            if entry["utf8"] and entry["requiredPresent"]:
                entry["message"] = fields(m)
        vectors.append(entry)

    import google.protobuf
    doc = {"generator": "Tests/Scripts/cast-message-vectors.py", "seed": args.seed,
           "protobuf": google.protobuf.__version__, "vectors": vectors}
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=0, ensure_ascii=True)
        f.write("\n")
    accepted = sum(1 for v in vectors if v.get("googleAccepts"))
    print(f"cast-message-vectors: {len(vectors)} vectors (seed {args.seed}; {accepted} altered messages Google still reads)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
