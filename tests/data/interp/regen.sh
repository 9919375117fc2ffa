#!/bin/sh
# Regenerates the expected results of the interpreter's golden scripts with CPython
# (3.11, the version the expectations were made with):
#   NAME.out  what the script prints
#   NAME.err  only for scripts that fail: the traceback (no carets, file names as given)
#             and a last line "exit N"
# Review the diff before committing: irscope must behave exactly like this.
set -e
cd "$(dirname "$0")"
for f in *.py; do
    n=${f%.py}
    status=0
    python3 -X no_debug_ranges "$f" > "$n.out" 2> "$n.err" || status=$?
    sed -i "s|File \"$PWD/|File \"|" "$n.err"
    if [ "$status" -ne 0 ] || [ -s "$n.err" ]; then
        echo "exit $status" >> "$n.err"
    else
        rm -f "$n.err"
    fi
done
