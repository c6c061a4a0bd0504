#!/bin/bash
# Session 52, call 3: the second round of check52.sh's picklf A/B (the order reversed: the ordered pick first),
# then test_longest_first's three transforms on the GPU, side by side (each compiles and checks alone; call 1's
# serial run passed one in 150 s):
#   bash shared/device/run.sh bash shared/device/check52b.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/sgl_plan.sh" "picklf, round 2" picklf52b.log 120 \
  "1024x8K:noold,picklf3,pick;2048x32K:noold,picklf6,pick;512x8K:noold,picklf3,picklf1,pick;4096x16K:noold,picklf6,pick"
bash "$here/lf_tests.sh" ${TEST_S:-300}
echo "=== done ($(date +%T))"
