#!/bin/bash
# The integrated benchmark, second call of the warm-machine pair (see README):
# FlashInfer must already be unpacked under /tmp/flashinfer by the first call.
set -u
[ -s /tmp/flashinfer/.stamp ] || [ -d .carry/flashinfer ] || {
  echo "bench.sh: FlashInfer is not on this machine (it went cold?): refusing to bench without the peer" >&2; exit 3; }
exec bash "$(dirname "$0")/run.sh" "$@"
