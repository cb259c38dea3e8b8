#!/bin/sh
# The workbench's namespace on the Temporal server of docker-compose.yml (temporal-namespace service,
# temporalio/admin-tools): waits until the cluster is healthy, then creates the namespace unless it exists.
set -eu
NAMESPACE="${TEMPORAL_NAMESPACE:-default}"
RETENTION="${TEMPORAL_RETENTION:-7d}"
tries=0
until temporal operator cluster health --address "$TEMPORAL_ADDRESS" >/dev/null 2>&1; do
  tries=$((tries + 1))
  [ "$tries" -lt 60 ] || { echo 'Temporal did not become healthy'; exit 1; }
  sleep 2
done
if temporal operator namespace describe --namespace "$NAMESPACE" --address "$TEMPORAL_ADDRESS" >/dev/null 2>&1; then
  echo "namespace $NAMESPACE exists"
else
  temporal operator namespace create --namespace "$NAMESPACE" --retention "$RETENTION" --address "$TEMPORAL_ADDRESS"
fi
