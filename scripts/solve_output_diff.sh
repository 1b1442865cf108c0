#!/bin/bash
# The same output from two checkouts of eightoff: `eightoff solve` over many deals of
# every variant (text, --json, --quiet; boards, --short, house rules, lost and unknown
# deals, large deal numbers; English and German), times masked, diffed.
#
#   scripts/solve_output_diff.sh OLD_CHECKOUT NEW_CHECKOUT [WORKDIR]
#
# Each checkout's src/ goes on PYTHONPATH (its extensions built in place, e.g. `git
# archive main | tar -x -C DIR` with the built .so files copied in). Exit 0 when every
# output, error line and exit status is the same.
set -u
OLD=$1; NEW=$2; WORK=${3:-$(mktemp -d)}
PY=${PYTHON:-$(cd "$(dirname "$0")/.." && pwd)/.venv/bin/python}
mask() { sed -E 's/[0-9]+(\.[0-9]+)? (µs|ms|s)([,)]|$)/T\3/g; s/"seconds": [0-9.e-]+/"seconds": T/g'; }
run_all() {  # SRC OUT
  local SRC=$1 OUT=$2; mkdir -p "$OUT"
  go() {  # name lang args...
    local name=$1 lang=$2; shift 2
    (cd /tmp && LC_ALL=$lang LANG=$lang PYTHONPATH=$SRC/src "$PY" -m eightoff.cli solve "$@" \
      2> "$OUT/$name.err" | mask > "$OUT/$name.out"; echo "rc=${PIPESTATUS[0]}" >> "$OUT/$name.err")
  }
  PYTHONPATH=$SRC/src "$PY" -m eightoff.cli deal 5 --variant freecell --format fcs > "$OUT/board5.txt"
  for mode in text json quiet; do
    flag=""; [ $mode = json ] && flag=--json; [ $mode = quiet ] && flag=--quiet
    E=C.UTF-8
    go fc-$mode $E 1-300 --variant freecell $flag
    go eo-$mode $E 1-300 --variant eightoff $flag
    go sh-$mode $E 1-50 --variant seahaven-towers $flag
    go dfc-$mode $E 1-5 --variant double-freecell $flag
    go bg-$mode $E 1-100 --variant bakers-game $flag
    go easy-$mode $E 1-100 --variant eightoff-easy $flag
    go sm-$mode $E 1-50 --variant supermove-freecell $flag
    go fcshort-$mode $E 1-30 --variant freecell --short $flag
    go eoshort-$mode $E 1-30 --short $flag
    go strict-$mode $E 1-20 --variant freecell --strict $flag
    go retr-$mode $E 1-20 --variant freecell --retrieval $flag
    go cells-$mode $E 1-30 --variant freecell --cells 2 $flag
    go lost-$mode $E 11982 617 --variant freecell $flag
    go eolost-$mode $E 465 1 2 $flag
    go unknown-$mode $E 1-20 --variant freecell --max-states 50 $flag
    go mixed-$mode $E 1-3 7 42 3 2-4 --variant freecell $flag
    go big-$mode $E 4294967296-4294967300 1000000000000000000 --variant freecell $flag
    go board-$mode $E --board "$OUT/board5.txt" --variant freecell $flag
    go boardshort-$mode $E --board "$OUT/board5.txt" --variant freecell --short $flag
    go mixbad-$mode $E 1-3 5-3 --variant freecell $flag
    D=de_DE.UTF-8
    go de-fc-$mode $D 1-100 --variant freecell $flag
    go de-eo-$mode $D 1-50 465 $flag
    go de-unk-$mode $D 1-5 --variant freecell --max-states 50 $flag
    go de-short-$mode $D 1-5 --variant freecell --short $flag
    go de-board-$mode $D --board "$OUT/board5.txt" --variant freecell $flag
  done
  rm "$OUT/board5.txt"
}
run_all "$OLD" "$WORK/old" & run_all "$NEW" "$WORK/new"; wait
# the board's path is in its title: the same file name in both
sed -i "s|$WORK/old/|DIR/|g" "$WORK"/old/*; sed -i "s|$WORK/new/|DIR/|g" "$WORK"/new/*
if diff -r "$WORK/old" "$WORK/new"; then
  echo "same: $(ls "$WORK/new" | grep -c '\.out$') outputs, $(cat "$WORK"/new/*.out | wc -l) lines ($WORK)"
else
  echo "DIFFERENT ($WORK)"; exit 1
fi
