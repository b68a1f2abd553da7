#!/usr/bin/env bash
# Makes the device-authentication fixtures (Fixtures/deviceauth/) with the openssl command: a lab
# root, intermediates and device certificates, one per Cast rule to break; short-lived TLS
# certificates; signatures over a nonce and a TLS certificate; revocation lists signed under a
# lab CRL root. Each key is kept beside what it signed, so every case can be made again. Then
# it asks `openssl verify -attime` about every chain and writes its answers to
# openssl-verify.txt, which the tests compare the verifier with.
#
#   Tests/Scripts/deviceauth-fixtures.sh [DIR]     (default: Fixtures/deviceauth)
#
# The checks happen at one time, AT below: every period is set around it (openssl ca
# -startdate/-enddate), so the fixtures hold forever.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/Fixtures/deviceauth}
AT=2026-12-06T12:00:00Z
AT_EPOCH=$(date -u -d "$AT" +%s)
stamp() { date -u -d "@$1" +%Y%m%d%H%M%SZ; }
DAY=86400

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out" "$work/new"
rm -f "$out"/*.pem "$out"/*.der "$out"/*.bin "$out"/*.key "$out"/openssl-verify.txt

cat >"$work/ca.cnf" <<'EOF'
[ ca ]
default_ca = lab
[ lab ]
dir = WORK
database = $dir/index.txt
new_certs_dir = $dir/new
serial = $dir/serial
default_md = sha256
policy = anything
unique_subject = no
email_in_dn = no
copy_extensions = none
[ anything ]
commonName = supplied
organizationName = optional
organizationalUnitName = optional
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = unused
[ root ]
basicConstraints = critical, CA:TRUE, pathlen:2
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ root_pathlen0 ]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
[ crl_root ]
basicConstraints = critical, CA:TRUE, pathlen:1
keyUsage = critical, keyCertSign
[ ica ]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
[ ica_open ]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
[ ica_audio ]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
certificatePolicies = 1.3.6.1.4.1.11129.2.5.2
[ ica_not_ca ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, keyCertSign
[ ica_no_certsign ]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, digitalSignature
[ ica_unknown_critical ]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign
1.3.6.1.4.1.55555.1 = critical, ASN1:NULL
[ device ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
[ device_no_ku ]
basicConstraints = critical, CA:FALSE
[ device_no_digsig ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, keyEncipherment
[ crl_signer ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
EOF
sed -i "s|WORK|$work|" "$work/ca.cnf"
: >"$work/index.txt"

key() { # NAME [rsa BITS | ec]: a key, kept in the fixtures
    if [[ ${2:-rsa} == ec ]]; then
        openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$out/$1.key" 2>/dev/null
    else
        openssl genpkey -algorithm RSA -pkeyopt "rsa_keygen_bits:${3:-2048}" -out "$out/$1.key" 2>/dev/null
    fi
}

# cert NAME SUBJECT KEY ISSUER EXTENSIONS FROM_DAYS TO_DAYS SERIAL [ca options...]: NAME.pem,
# signed by ISSUER (a name made before, or "self"), valid from AT+FROM_DAYS to AT+TO_DAYS days.
cert() {
    local name=$1 subject=$2 keyname=$3 issuer=$4 extensions=$5 from=$6 to=$7 serial=$8
    shift 8
    ((${#serial} % 2 == 0)) || serial=0$serial  # openssl reads whole bytes
    printf '%s\n' "$serial" >"$work/serial"
    : >"$work/index.txt"  # each certificate its own serial, repeats across issuers allowed
    openssl req -new -config "$work/ca.cnf" -key "$out/$keyname.key" -subj "$subject" -out "$work/$name.csr"
    local signing=(-cert "$out/$issuer.pem" -keyfile "$out/$issuer.key")
    [[ $issuer == self ]] && signing=(-selfsign -keyfile "$out/$keyname.key")
    local ext=(-extensions "$extensions")
    [[ $extensions == none ]] && ext=()
    openssl ca -config "$work/ca.cnf" -batch -notext -preserveDN -in "$work/$name.csr" -out "$out/$name.pem" \
        "${signing[@]}" "${ext[@]}" -startdate "$(stamp $((AT_EPOCH + from * DAY)))" \
        -enddate "$(stamp $((AT_EPOCH + to * DAY)))" "$@" 2>"$work/ca.log" || { cat "$work/ca.log" >&2; exit 1; }
    openssl x509 -in "$out/$name.pem" -outform DER -out "$work/$name.der"
}

# The lab's roots and the genuine chain: root -> ica -> device, and an audio-only intermediate.
key root; cert root "/O=Cast Lab/CN=Cast Lab Root CA" root self root -2500 7000 01
key ica; cert ica "/O=Cast Lab/CN=Cast Lab ICA" ica root ica -2000 5000 02
key ica-audio; cert ica-audio "/O=Cast Lab/CN=Cast Lab ICA (Audio)" ica-audio root ica_audio -2000 5000 03
key device; cert device "/O=Cast Lab/CN=lab-device-0001" device ica device -1500 5000 1001
cert device-audio "/O=Cast Lab/CN=lab-speaker-0001" device ica-audio device -1500 5000 1002

# A device certificate for each rule the device's certificate can break.
cert device-no-keyusage "/O=Cast Lab/CN=lab-device-no-keyusage" device ica device_no_ku -1500 5000 1003
cert device-no-digitalsignature "/O=Cast Lab/CN=lab-device-no-digitalsignature" device ica device_no_digsig -1500 5000 1004
key device-1024 rsa 1024; cert device-1024 "/O=Cast Lab/CN=lab-device-1024" device-1024 ica device -1500 5000 1005
key device-ec ec; cert device-ec "/O=Cast Lab/CN=lab-device-ec" device-ec ica device -1500 5000 1006
cert device-pss "/O=Cast Lab/CN=lab-device-pss" device ica device -1500 5000 1007 -sigopt rsa_padding_mode:pss
cert device-not-yet-valid "/O=Cast Lab/CN=lab-device-not-yet-valid" device ica device 30 5000 1008
cert device-expired "/O=Cast Lab/CN=lab-device-expired" device ica device -3000 -10 1009

# An intermediate for each rule an issuer can break (each with a device certificate under it).
for kind in not_ca no_certsign unknown_critical; do
    name=ica-${kind//_/-}
    key "$name"; cert "$name" "/O=Cast Lab/CN=Cast Lab ICA $kind" "$name" root "ica_$kind" -2000 5000 "2$((${#kind}))0"
    cert "device-under-$name" "/O=Cast Lab/CN=lab-device-under-$name" device "$name" device -1500 5000 1010
done
key ica-expired; cert ica-expired "/O=Cast Lab/CN=Cast Lab ICA 3" ica-expired root ica -4000 -637 04
cert device-under-ica-expired "/O=Cast Lab/CN=lab-device-under-ica-expired" device ica-expired device -1500 5000 1011
# pathLenConstraint: ica (pathlen 0) -> ica-below -> device is one CA too many.
key ica-below; cert ica-below "/O=Cast Lab/CN=Cast Lab ICA below" ica-below ica ica_open -2000 5000 05
cert device-under-ica-below "/O=Cast Lab/CN=lab-device-under-ica-below" device ica-below device -1500 5000 1012

# A root that expired (Cast does not check the anchor's own period; openssl verify does).
key root-expired; cert root-expired "/O=Cast Lab/CN=Cast Lab Old Root CA" root-expired self root -9000 -400 06
key ica-old; cert ica-old "/O=Cast Lab/CN=Cast Lab ICA old" ica-old root-expired ica -2000 5000 07
cert device-under-old-root "/O=Cast Lab/CN=lab-device-under-old-root" device ica-old device -1500 5000 1013

# Impostors: a chain to a root nobody trusts, and one to a root that takes Cast Root CA's name.
key stranger; cert stranger-root "/O=Elsewhere/CN=Stranger Root CA" stranger self root -2500 7000 08
cp "$out/stranger.key" "$out/stranger-root.key"
cert device-under-stranger "/O=Elsewhere/CN=conference-room-tv" device stranger-root ica_open -1500 5000 1014
key fake-cast-root
cert fake-cast-root "/C=US/ST=California/L=Mountain View/O=Google Inc/OU=Cast/CN=Cast Root CA" fake-cast-root self root -2500 7000 09
cert device-under-fake-cast-root "/O=Google Inc/CN=fake-chromecast" device fake-cast-root ica_open -1500 5000 1015

# TLS certificates (X.509 v1, self-signed, as receivers present): 2 days, 10 days, expired, later.
key tls
cert tls "/CN=lab-device-0001" tls self none -1 1 7001
cert tls-long "/CN=lab-device-0001" tls self none -1 10 7002
cert tls-expired "/CN=lab-device-0001" tls self none -3 -1 7003
cert tls-not-yet-valid "/CN=lab-device-0001" tls self none 1 3 7004

# What a receiver signs: the echoed nonce, then its TLS certificate (DER).
printf '\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f' >"$out/nonce.bin"
for tls in tls tls-long tls-expired tls-not-yet-valid; do
    cat "$out/nonce.bin" "$work/$tls.der" >"$work/signed"
    openssl dgst -sha256 -sign "$out/device.key" -out "$out/signature-$tls-sha256.bin" "$work/signed"
done
cat "$out/nonce.bin" "$work/tls.der" >"$work/signed"
openssl dgst -sha1 -sign "$out/device.key" -out "$out/signature-tls-sha1.bin" "$work/signed"
openssl dgst -sha256 -sign "$out/device-1024.key" -out "$out/signature-tls-sha256-device-1024.bin" "$work/signed"
openssl dgst -sha256 -sign "$out/device-ec.key" -out "$out/signature-tls-sha256-device-ec.bin" "$work/signed"
openssl dgst -sha256 -sign "$out/stranger.key" -out "$out/signature-tls-sha256-wrong-key.bin" "$work/signed"
# Without the nonce (older firmware echoes none).
openssl dgst -sha256 -sign "$out/device.key" -out "$out/signature-tls-sha256-no-nonce.bin" "$work/tls.der"

# Revocation: a lab CRL root, its signer, and lists (TbsCrl bytes signed with SHA-256).
key crl-root; cert crl-root "/O=Cast Lab/CN=Cast Lab CRL Root CA" crl-root self crl_root -2500 7000 0a
key crl-signer; cert crl-signer "/O=Cast Lab/CN=Cast Lab CRL signer" crl-signer crl-root crl_signer -100 700 0b
cert crl-signer-under-stranger "/O=Elsewhere/CN=Stranger CRL signer" crl-signer stranger-root crl_signer -100 700 0c
for name in device ica root; do
    openssl x509 -in "$out/$name.pem" -pubkey -noout | openssl pkey -pubin -outform DER -out "$work/$name.spki"
done
python3 - "$out" "$work" "$AT_EPOCH" <<'EOF'
import hashlib, subprocess, sys
out, work, at = sys.argv[1], sys.argv[2], int(sys.argv[3])

def varint(n):
    b = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        b.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(b)

def field(number, value):
    if isinstance(value, int):
        return varint(number << 3) + varint(value)
    return varint(number << 3 | 2) + varint(len(value)) + value

def spki_hash(name):
    return hashlib.sha256(open(f"{work}/{name}.spki", "rb").read()).digest()

def serial(name):
    text = subprocess.run(["openssl", "x509", "-in", f"{out}/{name}.pem", "-noout", "-serial"],
                          capture_output=True, text=True, check=True).stdout
    return int(text.strip().split("=")[1], 16)

def tbs(keys=(), ranges=(), not_before=at - 30 * 86400, not_after=at + 30 * 86400):
    body = field(1, 0) + field(2, not_before) + field(3, not_after)
    for key in keys:
        body += field(4, key)
    for issuer, first, last in ranges:
        body += field(5, field(1, issuer) + field(2, first) + field(3, last))
    return body

def bundle(name, tbs_bytes, signer="crl-signer", signing_key="crl-signer"):
    open(f"{work}/tbs", "wb").write(tbs_bytes)
    subprocess.run(["openssl", "dgst", "-sha256", "-sign", f"{out}/{signing_key}.key", "-out", f"{work}/sig",
                    f"{work}/tbs"], check=True)
    crl = field(1, tbs_bytes) + field(2, open(f"{work}/{signer}.der", "rb").read()) + field(3, open(f"{work}/sig", "rb").read())
    open(f"{out}/crl-{name}.bin", "wb").write(field(1, crl))

device_serial = serial("device")
bundle("empty", tbs())
bundle("revokes-device-key", tbs(keys=[spki_hash("device")]))
bundle("revokes-ica-key", tbs(keys=[spki_hash("ica")]))
bundle("revokes-device-serial", tbs(ranges=[(spki_hash("ica"), device_serial - 1, device_serial + 1)]))
bundle("revokes-other-serials", tbs(ranges=[(spki_hash("ica"), device_serial + 1, device_serial + 100)]))
bundle("bad-signature", tbs(), signing_key="stranger")
bundle("not-yet-valid", tbs(not_before=at + 86400, not_after=at + 30 * 86400))
bundle("expired", tbs(not_before=at - 30 * 86400, not_after=at - 86400))
bundle("signer-not-under-crl-root", tbs(), signer="crl-signer-under-stranger")
bundle("range-backwards", tbs(ranges=[(spki_hash("ica"), 10, 5)]))
EOF

# What `openssl verify` says of every chain at AT: NAME, then OK or its error. -x509_strict and
# -auth_level 2 (RSA of at least 2048 bits) bring it closest to Cast's rules.
verify() { # NAME ROOT DEVICE [INTERMEDIATE...]
    local name=$1 anchor=$2 device=$3
    shift 3
    local untrusted=()
    if (($#)); then
        cat "${@/#/$out/}" >"$work/untrusted.pem"
        untrusted=(-untrusted "$work/untrusted.pem")
    fi
    local said
    said=$({ openssl verify -attime "$AT_EPOCH" -x509_strict -auth_level 2 -CAfile "$out/$anchor" "${untrusted[@]}" \
        "$out/$device" 2>&1 || true; } | grep -E 'error [0-9]+|: OK$' | head -1 | sed -E 's/^.*: OK$/OK/; s/^.*(error [0-9]+.*)$/\1/' || true)
    printf '%s\t%s\n' "$name" "${said:-no answer}" >>"$out/openssl-verify.txt"
}
verify genuine root.pem device.pem ica.pem
verify audio-only root.pem device-audio.pem ica-audio.pem
verify device-no-keyusage root.pem device-no-keyusage.pem ica.pem
verify device-no-digitalsignature root.pem device-no-digitalsignature.pem ica.pem
verify device-1024 root.pem device-1024.pem ica.pem
verify device-ec root.pem device-ec.pem ica.pem
verify device-pss root.pem device-pss.pem ica.pem
verify device-not-yet-valid root.pem device-not-yet-valid.pem ica.pem
verify device-expired root.pem device-expired.pem ica.pem
verify ica-not-ca root.pem device-under-ica-not-ca.pem ica-not-ca.pem
verify ica-no-certsign root.pem device-under-ica-no-certsign.pem ica-no-certsign.pem
verify ica-unknown-critical root.pem device-under-ica-unknown-critical.pem ica-unknown-critical.pem
verify ica-expired root.pem device-under-ica-expired.pem ica-expired.pem
verify pathlen root.pem device-under-ica-below.pem ica-below.pem ica.pem
verify root-expired root-expired.pem device-under-old-root.pem ica-old.pem
verify untrusted root.pem device-under-stranger.pem stranger-root.pem
verify fake-cast-root root.pem device-under-fake-cast-root.pem fake-cast-root.pem
rm -f "$out"/*.csr
echo "deviceauth fixtures written to $out"
