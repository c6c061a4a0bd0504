# Source it from a device script: `. shared/device/base_tree.sh ARCHIVE` builds /tmp/base-src, every packages/*/src
# merged and then ARCHIVE's files over them (the kernels before a change), and sets $base to it. Put "$base:" first
# on PYTHONPATH to run the tree before the change beside the one carried.
base=/tmp/base-src
rm -rf $base && mkdir -p $base && for d in packages/*/src; do cp -r $d/* $base/; done &&
  tar xJf "$1" -C $base || { echo "base_tree.sh: no $1"; exit 3; }
