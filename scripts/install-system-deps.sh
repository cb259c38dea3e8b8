#!/usr/bin/env bash
# Installs the Debian packages the workbench uses, skipping those already present.
#   install-system-deps.sh           everything: the file parser's programs and what the tests use (.ci/run)
#   install-system-deps.sh runtime   only the file parser's programs (the Dockerfile, a worker's host)
#   install-system-deps.sh PKG...    only these packages, each one of the lists below: what npm start,
#                                    npm test and npm run bench found missing (scripts/lib/system-deps.ts)
# Idempotent; needs root, or sudo, for apt-get.
set -euo pipefail
# The file parser: OCR (English, Polish), PDF text and page images, office files to PDF, speech recognition.
# The same list as domain/parser-programs.ts (a unit test keeps them equal).
RUNTIME_PACKAGES=(
  tesseract-ocr tesseract-ocr-eng tesseract-ocr-pol poppler-utils
  libreoffice-writer-nogui libreoffice-calc-nogui
  sox
  pocketsphinx pocketsphinx-en-us
)
TEST_PACKAGES=(
  chromium fonts-liberation fonts-dejavu-core openssh-server openssh-client
  # tests: speech synthesized from known sentences
  espeak-ng
  # tests: the IMAP peer of e-mail upload nodes
  dovecot-imapd
)
# The program -> package map of scripts/lib/system-deps.ts names only packages of these lists (a unit test).
case "${1:-all}" in
  runtime) PACKAGES=("${RUNTIME_PACKAGES[@]}") ;;
  all) PACKAGES=("${TEST_PACKAGES[@]}" "${RUNTIME_PACKAGES[@]}") ;;
  *)
    PACKAGES=()
    for p in "$@"; do
      if [[ " ${TEST_PACKAGES[*]} ${RUNTIME_PACKAGES[*]} " != *" $p "* ]]; then
        echo "usage: $0 [runtime|all|PACKAGE...]: $p is not a package of the workbench" >&2
        exit 2
      fi
      PACKAGES+=("$p")
    done
    ;;
esac
if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  echo "[deps] no apt-get here (not Debian or Ubuntu): install the equivalents of ${PACKAGES[*]}" >&2
  exit 1
fi
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "[deps] Debian packages present: ${PACKAGES[*]}"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null; then
    echo "[deps] installing ${missing[*]} needs root: run as root: bash $0 ${*:-all}" >&2
    exit 1
  fi
  SUDO="sudo"
fi
echo "[deps] installing: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
