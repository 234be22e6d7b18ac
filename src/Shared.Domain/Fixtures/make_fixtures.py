#!/usr/bin/env python3
"""Makes the two payload files of scenarios VI and VII (docs/methodology.md) deterministically (same bytes on every run).

    python3 src/Shared.Domain/Fixtures/make_fixtures.py

text-455k.txt     465,920 bytes of UTF-8 prose (Polish and English lines, multi-byte characters included)
document-3.4m.pdf 3,565,158 bytes: a 12-page PDF 1.4 with text on every page and one 8-bit grey image
                  (pseudo-random pixels from SHA-256, so it does not compress), written with a correct xref table.
"""
import hashlib
import os

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT_SIZE = 465_920
PDF_SIZE = 3_565_158


def make_text():
    lines = [
        "Zażółć gęślą jaźń — the quick brown fox jumps over the lazy dog.",
        "Litwo! Ojczyzno moja! ty jesteś jak zdrowie; ile cię trzeba cenić, ten tylko się dowie.",
        "REST, gRPC and GraphQL carry the same authors and books; only the protocol differs.",
        "Pchnąć w tę łódź jeża lub ośm skrzyń fig — every line is numbered so the file is not periodic.",
    ]
    out = bytearray()
    n = 0
    while len(out) < TEXT_SIZE:
        n += 1
        out += f"{n:06d} {lines[n % len(lines)]}\n".encode("utf-8")
    # cut back to the last whole line, then pad with ASCII so no multi-byte character is split
    out = out[: out.rfind(b"\n", 0, TEXT_SIZE - 80) + 1]
    pad = TEXT_SIZE - len(out)
    out += (b"-" * (pad - 1)) + b"\n"
    assert len(out) == TEXT_SIZE
    out.decode("utf-8")
    return bytes(out)


def noise(size):
    out = bytearray()
    counter = 0
    while len(out) < size:
        out += hashlib.sha256(b"protocolbench-pdf-%d" % counter).digest()
        counter += 1
    return bytes(out[:size])


def make_pdf():
    pages = 12
    width = 1000

    def build(height, padding):
        objects = []  # index i -> object number i + 1
        kids = " ".join(f"{4 + 2 * p} 0 R" for p in range(pages))
        objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
        objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode())
        objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        image_number = 4 + 2 * pages
        for p in range(pages):
            text = f"ProtocolBench scenario VII payload - page {p + 1} of {pages}"
            ops = f"BT /F1 18 Tf 72 760 Td ({text}) Tj ET\n"
            ops += "BT /F1 11 Tf 72 730 Td (A fixed document served byte-exact by REST, gRPC and GraphQL.) Tj ET\n"
            if p == 0:
                ops += "q 468 0 0 600 72 100 cm /Im1 Do Q\n"
            resources = f"<< /Font << /F1 3 0 R >> /XObject << /Im1 {image_number} 0 R >> >>"
            objects.append(
                f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources {resources} /Contents {5 + 2 * p} 0 R >>".encode())
            body = ops.encode()
            objects.append(f"<< /Length {len(body)} >>\nstream\n".encode() + body + b"\nendstream")
        pixels = noise(width * height)
        objects.append(
            f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} /ColorSpace /DeviceGray "
            f"/BitsPerComponent 8 /Length {len(pixels)} >>\nstream\n".encode() + pixels + b"\nendstream")
        out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for i, body in enumerate(objects):
            offsets.append(len(out))
            out += f"{i + 1} 0 obj\n".encode() + body + b"\nendobj\n"
        out += b"%" + b"P" * padding + b"\n" if padding else b""
        xref = len(out)
        out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
        for offset in offsets:
            out += f"{offset:010d} 00000 n \n".encode()
        out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
        return bytes(out)

    base = len(build(1, 0))
    height = (PDF_SIZE - base) // width
    draft = build(height, 0)
    padding = PDF_SIZE - len(draft) - 2  # "%" and "\n" around the padding
    pdf = build(height, padding)
    assert len(pdf) == PDF_SIZE, len(pdf)
    return pdf


if __name__ == "__main__":
    text = make_text()
    pdf = make_pdf()
    with open(os.path.join(HERE, "text-455k.txt"), "wb") as f:
        f.write(text)
    with open(os.path.join(HERE, "document-3.4m.pdf"), "wb") as f:
        f.write(pdf)
    for name, data in (("text-455k.txt", text), ("document-3.4m.pdf", pdf)):
        print(f"{name}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}")
