#!/bin/bash
# Runs SPIN on one model of this directory the standard way, partial order
# reduction on (SPIN's default), and prints one line:
#   model N stored-states transitions end-to-end-seconds errors
#
# usage: benches/promela/run_spin.sh MODEL.pml [N]
#
# The three commands, `spin -a`, `gcc -O2 -DSAFETY` and `./pan -m1000000`, run in
# a temporary directory (pan.c, pan and the trail stay out of the repository); the
# time covers all three. N, when given, is passed as `-DN=N` to `spin -a` (the
# models with a parameter default to `#define N 3`); the two-process models
# (peterson*, dekker) take none. When pan reports that -m is too small, the depth
# is doubled and pan run again (counted in the time). `errors` is pan's count,
# followed by "(assertion violated)" when it found an assertion violation.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 MODEL.pml [N]" >&2
    exit 2
fi
model=$(realpath "$1")
n=${2:-}
name=$(basename "$model" .pml)
defs=()
[ -n "$n" ] && defs=("-DN=$n")
depth=1000000

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

start=$(date +%s.%N)
spin "${defs[@]}" -a "$model" > spin.out 2>&1 || { cat spin.out >&2; exit 1; }
gcc -O2 -DSAFETY -o pan pan.c > gcc.out 2>&1 || { cat gcc.out >&2; exit 1; }
while true; do
    ./pan -m$depth > pan.out 2>&1 || true
    if grep -q "depth too small" pan.out; then
        depth=$((depth * 2))
    else
        break
    fi
done
end=$(date +%s.%N)

stored=$(awk '/states, stored/ {print $1; exit}' pan.out)
transitions=$(awk '/transitions \(= stored\+matched\)/ {print $1; exit}' pan.out)
errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.out | head -1)
if grep -q "assertion violated" pan.out; then
    errors="$errors (assertion violated)"
fi
secs=$(echo "$end - $start" | bc -l)
printf '%s N=%s stored=%s transitions=%s seconds=%.2f errors=%s\n' \
    "$name" "${n:-2}" "$stored" "$transitions" "$secs" "$errors"
