#!/usr/bin/env bash
# Installs the Debian packages the workbench and its tests use, skipping those already present.
# Idempotent; needs root (or sudo) for apt-get. Used by .ci/run and by npm test when something is missing.
set -euo pipefail
PACKAGES=(
  chromium fonts-liberation fonts-dejavu-core openssh-server openssh-client
  # file parser: OCR (English, Polish), PDF text and page images, office files to PDF, speech recognition
  tesseract-ocr tesseract-ocr-eng tesseract-ocr-pol poppler-utils
  libreoffice-writer-nogui libreoffice-calc-nogui
  pocketsphinx pocketsphinx-en-us sox
  # tests: speech synthesized from known sentences
  espeak-ng
  # tests: the IMAP peer of e-mail upload nodes
  dovecot-imapd
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "[deps] Debian packages present: ${PACKAGES[*]}"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "[deps] installing: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
