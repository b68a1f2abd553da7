#!/usr/bin/env python3
"""castlab device authentication: the lab's own Cast PKI, and what its receivers answer.

An implementation independent of cast-scan's: certificates by `cryptography`, the deviceauth
messages by Google's protobuf (pychromecast's cast_channel_pb2), the revocation list by the
small encoder of revocation.proto below.

    deviceauth.py make DIR     writes the lab's PKI to DIR (once per `castlab up`):
      root.pem          the lab's root: what a sender passes with --cast-root
      pki.pem           every key and certificate the receivers need (private to the lab)
      tls.pem, tls-long.pem   TLS certificates and keys: valid 2 days, and 10 days (too long)

A receiver answers the challenge by its mode (MODES): genuine (the default), audioOnly (a
speaker's intermediate, with Cast's audio-only policy), untrustedChain (a root nobody trusts),
badSignature (signed with another key), tlsLongLived (its TLS certificate is valid 10 days),
expiredIntermediate, revoked (a CRL in the response lists its serial number), noAnswer,
authError (AuthError INTERNAL_ERROR), and three hostile ones: hostileMany (200 small
certificates), hostileNotDER (a device certificate that is not DER), hostileHuge (one of 60 KiB).
"""
from __future__ import annotations

import datetime
import hashlib
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.x509.oid import NameOID

MODES = ("genuine", "audioOnly", "untrustedChain", "badSignature", "tlsLongLived", "expiredIntermediate",
         "revoked", "noAnswer", "authError", "hostileMany", "hostileNotDER", "hostileHuge")
AUDIO_ONLY_POLICY = x509.ObjectIdentifier("1.3.6.1.4.1.11129.2.5.2")
DAY = datetime.timedelta(days=1)
# The names of the PKI's parts in pki.pem, each a key and a certificate.
PARTS = ("root", "ica", "ica-audio", "ica-expired", "stranger-root", "stranger-ica", "crl-signer", "device",
         "other")


def name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "castlab"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common)])


def certificate(subject: str, key, issuer_name: x509.Name | None, issuer_key, serial: int, start, end, *,
                ca: bool, pathlen: int | None = None, key_usage: str = "device", audio: bool = False,
                v1: bool = False) -> x509.Certificate:
    builder = (x509.CertificateBuilder().subject_name(name(subject) if not v1 else x509.Name(
        [x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
        .issuer_name(issuer_name or (name(subject) if not v1 else x509.Name(
            [x509.NameAttribute(NameOID.COMMON_NAME, subject)])))
        .public_key(key.public_key()).serial_number(serial).not_valid_before(start).not_valid_after(end))
    if not v1:
        builder = builder.add_extension(x509.BasicConstraints(ca=ca, path_length=pathlen), critical=True)
        signs_certificates = key_usage == "ca"
        builder = builder.add_extension(x509.KeyUsage(
            digital_signature=not signs_certificates, content_commitment=False,
            key_encipherment=key_usage == "device", data_encipherment=False, key_agreement=False,
            key_cert_sign=signs_certificates, crl_sign=signs_certificates, encipher_only=False,
            decipher_only=False), critical=True)
        if audio:
            builder = builder.add_extension(x509.CertificatePolicies([x509.PolicyInformation(AUDIO_ONLY_POLICY, None)]),
                                            critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def rsa_key():
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def pem(key, cert: x509.Certificate) -> bytes:
    return (key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                              serialization.NoEncryption()) + cert.public_bytes(serialization.Encoding.PEM))


def make(directory: str) -> None:
    """The lab's PKI, valid around now: chains of 20 years, one intermediate expired 10 days ago."""
    now = datetime.datetime.now(datetime.timezone.utc)
    os.makedirs(directory, mode=0o700, exist_ok=True)
    keys = {part: rsa_key() for part in ("root", "ica", "stranger-root", "crl-signer", "device", "other", "tls")}
    certs = {}
    certs["root"] = certificate("castlab Root CA", keys["root"], None, keys["root"], 1, now - DAY, now + 7300 * DAY,
                                ca=True, pathlen=2, key_usage="ca")
    root = certs["root"].subject
    certs["ica"] = certificate("castlab ICA", keys["ica"], root, keys["root"], 2, now - DAY, now + 7000 * DAY,
                               ca=True, pathlen=0, key_usage="ca")
    certs["ica-audio"] = certificate("castlab ICA (Audio)", keys["ica"], root, keys["root"], 3, now - DAY,
                                     now + 7000 * DAY, ca=True, pathlen=0, key_usage="ca", audio=True)
    certs["ica-expired"] = certificate("castlab ICA 3", keys["ica"], root, keys["root"], 4, now - 4000 * DAY,
                                       now - 10 * DAY, ca=True, pathlen=0, key_usage="ca")
    certs["stranger-root"] = certificate("Stranger Root CA", keys["stranger-root"], None, keys["stranger-root"], 5,
                                         now - DAY, now + 7300 * DAY, ca=True, pathlen=1, key_usage="ca")
    certs["stranger-ica"] = certificate("Stranger ICA", keys["ica"], certs["stranger-root"].subject,
                                        keys["stranger-root"], 6, now - DAY, now + 7000 * DAY, ca=True, pathlen=0,
                                        key_usage="ca")
    certs["crl-signer"] = certificate("castlab CRL signer", keys["crl-signer"], root, keys["root"], 7, now - DAY,
                                      now + 700 * DAY, ca=False, key_usage="sign")
    keys.update({"ica-audio": keys["ica"], "ica-expired": keys["ica"], "stranger-ica": keys["ica"]})
    with open(os.path.join(directory, "pki.pem"), "wb") as f:
        for part in PARTS:
            if part in ("device", "other"):
                f.write(b"# " + part.encode() + b"\n" + keys[part].private_bytes(
                    serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                    serialization.NoEncryption()))
            else:
                f.write(b"# " + part.encode() + b"\n" + pem(keys[part], certs[part]))
    with open(os.path.join(directory, "root.pem"), "wb") as f:
        f.write(certs["root"].public_bytes(serialization.Encoding.PEM))
    for file, days in (("tls.pem", 2), ("tls-long.pem", 10)):
        tls = certificate("castlab receiver", keys["tls"], None, keys["tls"], 100 + days, now - datetime.timedelta(hours=1),
                          now + days * DAY, ca=False, v1=True)
        with open(os.path.join(directory, file), "wb") as f:
            f.write(pem(keys["tls"], tls))


class Authority:
    """The lab's PKI, read back from `make`'s pki.pem, and each device's certificates."""

    def __init__(self, directory: str) -> None:
        text = open(os.path.join(directory, "pki.pem"), "rb").read()
        self.keys, self.certs = {}, {}
        for chunk in text.split(b"# ")[1:]:
            part, _, body = chunk.partition(b"\n")
            part = part.decode()
            self.keys[part] = serialization.load_pem_private_key(body, password=None)
            if b"CERTIFICATE" in body:
                self.certs[part] = x509.load_pem_x509_certificate(body[body.index(b"-----BEGIN CERTIFICATE"):])
        self.tls = {file: x509.load_pem_x509_certificate(open(os.path.join(directory, file), "rb").read())
                    for file in ("tls.pem", "tls-long.pem")}
        self.serial = 0x1000

    def device(self, common_name: str, mode: str):
        """A device's (key, certificate, intermediates, crl) for its mode."""
        issuer = {"audioOnly": "ica-audio", "untrustedChain": "stranger-ica",
                  "expiredIntermediate": "ica-expired"}.get(mode, "ica")
        self.serial += 1
        now = datetime.datetime.now(datetime.timezone.utc)
        cert = certificate(common_name[:64] or "castlab device", self.keys["device"], self.certs[issuer].subject,
                           self.keys[issuer], self.serial, now - DAY, now + 7000 * DAY, ca=False)
        intermediates = [self.certs[issuer]] + ([self.certs["stranger-root"]] if mode == "untrustedChain" else [])
        crl = self.crl(cert, self.certs[issuer]) if mode == "revoked" else None
        signer = self.keys["other"] if mode == "badSignature" else self.keys["device"]
        return signer, cert, intermediates, crl

    def crl(self, revoked: x509.Certificate, issuer: x509.Certificate) -> bytes:
        """A CrlBundle whose one list (signed under the lab root) revokes `revoked`'s serial."""
        now = int(datetime.datetime.now(datetime.timezone.utc).timestamp())
        issuer_hash = hashlib.sha256(issuer.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)).digest()
        serial = revoked.serial_number
        tbs = (field(1, 0) + field(2, now - 86400) + field(3, now + 30 * 86400)
               + field(5, field(1, issuer_hash) + field(2, serial) + field(3, serial)))
        signature = self.keys["crl-signer"].sign(tbs, padding.PKCS1v15(), hashes.SHA256())
        signer = self.certs["crl-signer"].public_bytes(serialization.Encoding.DER)
        return field(1, field(1, tbs) + field(2, signer) + field(3, signature))


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(number: int, value) -> bytes:
    """A protobuf field: a varint for an int, length-delimited bytes otherwise."""
    if isinstance(value, int):
        return varint(number << 3) + varint(value)
    return varint(number << 3 | 2) + varint(len(value)) + value


def answer(pb, authority: Authority, identity, mode: str, challenge_bytes: bytes, tls_der: bytes) -> bytes | None:
    """The DeviceAuthMessage a receiver in `mode` sends for a challenge; None: no answer."""
    if mode == "noAnswer":
        return None
    message = pb.DeviceAuthMessage()
    if mode == "authError":
        message.error.error_type = pb.AuthError.INTERNAL_ERROR
        return message.SerializeToString()
    challenge = pb.DeviceAuthMessage()
    challenge.ParseFromString(challenge_bytes)
    nonce = challenge.challenge.sender_nonce
    sha256 = challenge.challenge.hash_algorithm == pb.SHA256
    signer, cert, intermediates, crl = identity
    response = message.response
    response.signature = signer.sign(nonce + tls_der, padding.PKCS1v15(), hashes.SHA256() if sha256 else hashes.SHA1())
    response.client_auth_certificate = cert.public_bytes(serialization.Encoding.DER)
    for intermediate in intermediates:
        response.intermediate_certificate.append(intermediate.public_bytes(serialization.Encoding.DER))
    response.sender_nonce = nonce
    response.hash_algorithm = pb.SHA256 if sha256 else pb.SHA1
    if crl is not None:
        response.crl = crl
    if mode == "hostileMany":
        for index in range(200):
            response.intermediate_certificate.append(b"\x30\x03\x02\x01" + bytes([index % 128]))
    elif mode == "hostileNotDER":
        response.client_auth_certificate = b"this is not a DER certificate"
    elif mode == "hostileHuge":
        response.intermediate_certificate.append(b"\x30\x82\xf0\x00" + b"\x00" * (60 * 1024))
    return message.SerializeToString()


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "make":
        sys.exit(__doc__)
    make(sys.argv[2])
