#!/bin/sh
# Makes a development set of certificates for deploy/compose.temporal-mtls.yml in FOLDER (default
# ./.data/temporal-tls): a CA (ca.pem, ca.key), the server's certificate for SERVER_NAME (default
# temporal, the compose service name; also localhost and 127.0.0.1 for the CLI on the host) and
# one client certificate (client.pem, client.key) for the api, the worker, the Web UI and the
# namespace job. For development and tests: in production, issue them from your own CA.
#
#   sh deploy/temporal/tls/make-dev-certs.sh [FOLDER] [SERVER_NAME]
set -eu

FOLDER=${1:-./.data/temporal-tls}
SERVER_NAME=${2:-temporal}
DAYS=${DAYS:-365}
mkdir -p "$FOLDER"
cd "$FOLDER"

openssl req -x509 -newkey rsa:4096 -sha256 -days "$DAYS" -nodes -subj "/CN=durable-mcp development CA" \
  -keyout ca.key -out ca.pem \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"

# issue NAME SUBJECT EXTENSIONS: a key and a certificate signed by the CA.
issue() {
  openssl req -newkey rsa:2048 -nodes -subj "/CN=$2" -keyout "$1.key" -out "$1.csr"
  printf '%s\n' "$3" > "$1.ext"
  openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -sha256 -days "$DAYS" \
    -extfile "$1.ext" -out "$1.pem"
  rm -f "$1.csr" "$1.ext"
}

issue server "$SERVER_NAME" "subjectAltName=DNS:${SERVER_NAME},DNS:localhost,IP:127.0.0.1
extendedKeyUsage=serverAuth,clientAuth
keyUsage=critical,digitalSignature,keyEncipherment"
issue client durable-mcp "extendedKeyUsage=clientAuth
keyUsage=critical,digitalSignature,keyEncipherment"

# The containers run as uid 1000 and read the keys through read-only mounts of single files
# (deploy/compose.temporal-mtls.yml): server.key into the server only, client.key into the
# clients only, ca.key into none.
chmod 0644 ca.pem server.pem client.pem server.key client.key
chmod 0600 ca.key
rm -f ca.srl
echo "certificates for ${SERVER_NAME} in $(pwd): ca.pem server.pem server.key client.pem client.key"
