#!/usr/bin/env bash
# Checks the Helm chart with real tools: `helm lint`, `helm template` with the default values and with
# values-production.yaml, and `kubeconform -strict` on what they render, against the Kubernetes schemas vendored
# in deploy/schemas/ (kubeconform cannot download them here; deploy/schemas/README.md).
#   check-chart.sh              installs helm and kubeconform when missing, then checks deploy/helm/workbench
#   check-chart.sh --install    only installs the tools (.ci/run, before the test suites) and prints their paths
#   CHART_DIR=dir check-chart.sh  checks another copy of the chart (tests/deploy/chart.test.ts breaks one)
# The tools come from the Go module proxy (`go install`), pinned, into `go env GOPATH`/bin; a binary already
# there or on PATH is used when `go version -m` shows the pinned module version. Idempotent.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CHART_DIR="${CHART_DIR:-$ROOT/deploy/helm/workbench}"
SCHEMAS_DIR="$ROOT/deploy/schemas"
HELM_MODULE=helm.sh/helm/v3
HELM_VERSION=v3.22.0
KUBECONFORM_MODULE=github.com/yannh/kubeconform
KUBECONFORM_VERSION=v0.8.0
# The Go toolchain the tools are built with (fetched from the module proxy by the go command when it is not
# the local one).
TOOLS_GOTOOLCHAIN="${TOOLS_GOTOOLCHAIN:-go1.27.3}"
# The Kubernetes version the chart is rendered for: that of the vendored schemas (deploy/schemas/README.md).
# A helm built by `go install` would otherwise assume 1.20 (its release builds set the default by ldflags).
KUBE_VERSION=1.33.0

export PATH="$PATH:/usr/local/go/bin"
if ! command -v go >/dev/null; then
  echo "[chart] Go is needed to install helm and kubeconform: https://go.dev/dl" >&2
  exit 2
fi
GOBIN_DIR="$(go env GOBIN)"
[ -n "$GOBIN_DIR" ] || GOBIN_DIR="$(go env GOPATH | cut -d: -f1)/bin"

# The path of a binary built from module $2 at version $3, or nothing.
find_tool() {
  local name=$1 module=$2 version=$3 candidate
  for candidate in "$GOBIN_DIR/$name" "$(command -v "$name" || true)"; do
    [ -n "$candidate" ] && [ -x "$candidate" ] || continue
    if go version -m "$candidate" 2>/dev/null | grep -Eq "^[[:space:]]+mod[[:space:]]+$module[[:space:]]+$version([[:space:]]|$)"; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

ensure_tool() {
  local name=$1 module=$2 version=$3 package=$4 found
  if found="$(find_tool "$name" "$module" "$version")"; then
    echo "$found"
    return 0
  fi
  echo "[chart] installing $name $version with go install (a few minutes, once)..." >&2
  GOTOOLCHAIN="$TOOLS_GOTOOLCHAIN" GOFLAGS="${GOFLAGS:-} -buildvcs=false" nice go install "$package@$version" >&2
  found="$(find_tool "$name" "$module" "$version")" || {
    echo "[chart] go install $package@$version did not leave $name in $GOBIN_DIR" >&2
    return 1
  }
  echo "$found"
}

HELM="$(ensure_tool helm "$HELM_MODULE" "$HELM_VERSION" "$HELM_MODULE/cmd/helm")"
KUBECONFORM="$(ensure_tool kubeconform "$KUBECONFORM_MODULE" "$KUBECONFORM_VERSION" "$KUBECONFORM_MODULE/cmd/kubeconform")"
if [ "${1:-}" = "--install" ]; then
  # The paths of the tools, one a line (tests/deploy/chart.test.ts runs them).
  printf 'helm=%s\nkubeconform=%s\n' "$HELM" "$KUBECONFORM"
  exit 0
fi

# Helm keeps no state of ours: its config, cache and data in a directory of this run.
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export HELM_CONFIG_HOME="$WORK/config" HELM_CACHE_HOME="$WORK/cache" HELM_DATA_HOME="$WORK/data"

# Every check runs, each failure is reported, and the script exits 1 at the end if any failed.
failed=0
check() {
  local label=$1
  shift
  echo "[chart] $label"
  if ! "$@"; then
    echo "[chart] FAILED: $label" >&2
    failed=1
    return 1
  fi
}

render() {
  local out=$1
  shift
  "$HELM" template workbench "$CHART_DIR" --namespace workbench --kube-version "$KUBE_VERSION" "$@" >"$out"
}

for values in "" values-production.yaml; do
  label="${values:-default values}"
  args=()
  [ -n "$values" ] && args=(--values "$CHART_DIR/$values")
  check "helm lint --strict ($label)" "$HELM" lint --strict --kube-version "$KUBE_VERSION" "$CHART_DIR" "${args[@]}" || true
  out="$WORK/${values:-values.yaml}.rendered.yaml"
  # The hooks (the Secret, the migration Job) are rendered with the rest and checked alike.
  if check "helm template ($label)" render "$out" "${args[@]}"; then
    check "kubeconform -strict ($label)" "$KUBECONFORM" -strict -summary -output text \
      -schema-location "$SCHEMAS_DIR/{{ .ResourceKind }}{{ .KindSuffix }}.json" "$out" || true
  fi
done

if [ "$failed" -ne 0 ]; then
  echo "[chart] the chart check failed" >&2
  exit 1
fi
echo "[chart] helm lint, helm template and kubeconform passed (default values and values-production.yaml)"
