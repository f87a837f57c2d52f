#!/bin/sh
# Creates the namespace the service uses (if absent) and registers its custom search attributes,
# retrying until the Temporal server answers. Runs in temporalio/admin-tools after the server is up
# (docker-compose service `temporal-create-namespace`); since server 1.30 nothing else creates a
# namespace. Idempotent: an existing namespace is kept as it is, and an attribute that already
# exists with the same type is accepted (one with another type fails the job, on purpose).
#
# Environment:
#   TEMPORAL_ADDRESS       host:port of the frontend (e.g. temporal:7233)
#   NAMESPACE              namespace to create (the service's TEMPORAL_NAMESPACE)
#   NAMESPACE_RETENTION    retention of closed workflows for a new namespace (e.g. 72h)
#   SEARCH_ATTRIBUTES      space-separated Name=Type pairs (Type: Keyword, Int, Text, Bool, ...)
set -euf  # -f: no globbing when SEARCH_ATTRIBUTES is split into pairs

: "${TEMPORAL_ADDRESS:?TEMPORAL_ADDRESS is required}"
NAMESPACE=${NAMESPACE:-default}
NAMESPACE_RETENTION=${NAMESPACE_RETENTION:-72h}
SEARCH_ATTRIBUTES=${SEARCH_ATTRIBUTES:-}
MAX_ATTEMPTS=${MAX_ATTEMPTS:-60}
SLEEP_SECONDS=${SLEEP_SECONDS:-3}

# retry DESCRIPTION COMMAND...: runs COMMAND until it succeeds, at most MAX_ATTEMPTS times.
retry() {
  what=$1
  shift
  attempt=1
  until "$@"; do
    if [ "$attempt" -ge "$MAX_ATTEMPTS" ]; then
      echo "gave up: ${what} failed ${MAX_ATTEMPTS} times" >&2
      exit 1
    fi
    echo "${what} not done yet (attempt ${attempt}/${MAX_ATTEMPTS}), retrying in ${SLEEP_SECONDS}s"
    attempt=$((attempt + 1))
    sleep "$SLEEP_SECONDS"
  done
}

ensure_namespace() {
  if temporal operator namespace describe --address "$TEMPORAL_ADDRESS" --namespace "$NAMESPACE" >/dev/null 2>&1; then
    echo "namespace '${NAMESPACE}' exists"
    return 0
  fi
  temporal operator namespace create --address "$TEMPORAL_ADDRESS" --namespace "$NAMESPACE" \
    --retention "$NAMESPACE_RETENTION"
}

register_search_attributes() {
  # Build "--name N --type T" pairs as positional parameters (POSIX sh has no arrays).
  set --
  for pair in $SEARCH_ATTRIBUTES; do
    name=${pair%%=*}
    type=${pair#*=}
    if [ -z "$name" ] || [ "$name" = "$pair" ] || [ -z "$type" ]; then
      echo "SEARCH_ATTRIBUTES: '${pair}' is not Name=Type" >&2
      exit 1
    fi
    set -- "$@" --name "$name" --type "$type"
  done
  [ "$#" -gt 0 ] || return 0
  temporal operator search-attribute create --address "$TEMPORAL_ADDRESS" --namespace "$NAMESPACE" "$@"
}

echo "waiting for the Temporal server at ${TEMPORAL_ADDRESS}..."
retry "cluster health check" temporal operator cluster health --address "$TEMPORAL_ADDRESS"

retry "namespace '${NAMESPACE}'" ensure_namespace

if [ -n "$SEARCH_ATTRIBUTES" ]; then
  # Right after the namespace is created the frontend may not see it yet: retry.
  retry "search attributes" register_search_attributes
  temporal operator search-attribute list --address "$TEMPORAL_ADDRESS" --namespace "$NAMESPACE"
fi
echo "namespace '${NAMESPACE}' is ready"
